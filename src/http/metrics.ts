// Prometheus metrics (prom-client), one registry per app: requests by route and status, solve
// durations, the solver pool's busy and queued work, and quota rejections. Routes are labelled
// by their pattern, never by raw path, so the label set stays small.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolStats } from '../engine/pool/solver-pool.js';

export interface Metrics {
  registry: Registry;
  requests: Counter<'route' | 'method' | 'status'>;
  solveSeconds: Histogram<'endpoint' | 'status'>;
  quotaRejections: Counter;
  /** Time from submit to a worker starting the job; observed where the job runs. */
  jobWaitSeconds: Histogram;
  /** Time a worker spent on a job, start to end; observed where the job runs. */
  jobSolveSeconds: Histogram;
}

/** Job counts by status, read from the database at each scrape (every process sees the same). */
export type JobCounts = () => Promise<Record<string, number>>;

export function createMetrics(poolStats?: () => PoolStats, jobCounts?: JobCounts): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'volunteer_scheduler_' });
  const requests = new Counter({
    name: 'volunteer_scheduler_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const solveSeconds = new Histogram({
    name: 'volunteer_scheduler_solve_seconds',
    help: 'Time to answer a scheduling request (validation, solve, explanation), by endpoint and status.',
    labelNames: ['endpoint', 'status'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60],
    registers: [registry],
  });
  const quotaRejections = new Counter({
    name: 'volunteer_scheduler_quota_rejections_total',
    help: 'Requests refused with 429 because the daily quota was used up.',
    registers: [registry],
  });
  new Gauge({
    name: 'volunteer_scheduler_solver_pool_busy',
    help: 'Solver workers busy with a subproblem.',
    registers: [registry],
    collect() {
      this.set(poolStats?.().busy ?? 0);
    },
  });
  new Gauge({
    name: 'volunteer_scheduler_solver_pool_queued',
    help: 'Subproblems waiting for a solver worker.',
    registers: [registry],
    collect() {
      this.set(poolStats?.().queued ?? 0);
    },
  });
  new Gauge({
    name: 'volunteer_scheduler_solver_pool_workers',
    help: 'Solver workers in the pool.',
    registers: [registry],
    collect() {
      this.set(poolStats?.().size ?? 0);
    },
  });
  const jobWaitSeconds = new Histogram({
    name: 'volunteer_scheduler_job_wait_seconds',
    help: 'Time from submitting a job to a worker starting it (observed by the process that ran it).',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800],
    registers: [registry],
  });
  const jobSolveSeconds = new Histogram({
    name: 'volunteer_scheduler_job_solve_seconds',
    help: 'Time a worker spent on a job, from starting it to writing its end (observed by the process that ran it).',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600],
    registers: [registry],
  });
  if (jobCounts) {
    new Gauge({
      name: 'volunteer_scheduler_jobs',
      help: 'Jobs in the database by status (every process on the database reports the same counts).',
      labelNames: ['status'],
      registers: [registry],
      async collect() {
        try {
          for (const [status, n] of Object.entries(await jobCounts())) this.set({ status }, n);
        } catch {
          // The database is away: the last counts stay; /readyz says why.
        }
      },
    });
    new Gauge({
      name: 'volunteer_scheduler_job_queue_depth',
      help: 'Jobs queued and not yet started.',
      registers: [registry],
      async collect() {
        try {
          this.set((await jobCounts()).queued ?? 0);
        } catch {
          // As above.
        }
      },
    });
  }
  return { registry, requests, solveSeconds, quotaRejections, jobWaitSeconds, jobSolveSeconds };
}
