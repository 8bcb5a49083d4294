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
}

export function createMetrics(poolStats?: () => PoolStats): Metrics {
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
  return { registry, requests, solveSeconds, quotaRejections };
}
