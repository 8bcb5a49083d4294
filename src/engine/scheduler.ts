// The engine's one entry: a Scheduler takes a typed request (problem, backend, budget, signal,
// progress listener, diagnostics wanted) and returns the engine's output. It hides where the
// subproblems are solved: a pool of worker threads (the service, the CLI) or this thread (tests,
// benchmarks of the engine alone); callers create one, wait until it is ready, and close it.
import type { BackendName, SolverBackend } from './backends/backend.js';
import { SolverPool, type PoolOptions, type PoolStats } from './pool/solver-pool.js';
import { scheduleProblem, type EngineOutput, type ScheduleRequest } from './schedule.js';
import { inProcessRunner } from './subproblem-runner.js';

export type { EngineOutput, ScheduleRequest } from './schedule.js';
export type { SolveProgress } from './progress.js';
export type SchedulerStats = PoolStats;

export interface Scheduler {
  /** Subproblems solved at once: each one's share of the time follows from it. */
  readonly lanes: number;
  solve(request: ScheduleRequest): Promise<EngineOutput>;
  /** Resolves once the solvers are loaded. */
  ready(): Promise<void>;
  isReady(): boolean;
  /**
   * The solvers warm up until their first job (a pool's workers solve a festival group a few
   * times: solve-worker.ts). The service calls it once it listens.
   */
  warmUp(): void;
  stats(): SchedulerStats;
  close(): Promise<void>;
}

export interface SchedulerOptions extends Omit<PoolOptions, 'size'> {
  /** Solver worker threads. */
  workers: number;
}

/** A scheduler over a pool of solver worker threads. */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { workers, ...rest } = options;
  const pool = new SolverPool({ size: workers, ...rest });
  return {
    lanes: workers,
    solve: (request) => scheduleProblem(request, pool, workers),
    ready: () => pool.ready(),
    isReady: () => pool.isReady(),
    warmUp: () => {
      pool.warmUp();
    },
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
}

/**
 * A scheduler that solves in this thread, one subproblem at a time. Solving is synchronous:
 * an abort signalled from outside takes effect at the next subproblem, one signalled from a
 * progress listener (called inside the solve) at the solver's next deadline check.
 */
export function inProcessScheduler(backends: Partial<Record<BackendName, SolverBackend>>): Scheduler {
  const runner = inProcessRunner(backends);
  let busy = 0;
  return {
    lanes: 1,
    async solve(request) {
      busy++;
      try {
        return await scheduleProblem(request, runner, 1);
      } finally {
        busy--;
      }
    },
    ready: async () => {},
    isReady: () => true,
    // This thread's solves warm it up as they come.
    warmUp: () => {},
    stats: () => ({ size: 1, busy, queued: 0 }),
    close: async () => {},
  };
}
