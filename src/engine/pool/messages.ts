// Messages between the solver pool and its workers (structured-cloned). A job's cancel flag is a
// SharedArrayBuffer: solving is synchronous, so a message could not reach the worker until it
// was done, but the flag is read where the worker checks its deadline.
import type { SubproblemIncumbent, SubproblemJob } from '../subproblem-runner.js';
import type { SubproblemResult } from '../solve-subproblem.js';

/** The flags shared with a worker (its job's `cancel`, its `jobSent`): shared-flag.ts. */
export { flagCheck, raiseFlag } from '../shared-flag.js';

/**
 * A job, or `warm-up`: the service listens (SolverPool.warmUp), so the worker may run its warm-up
 * rounds until its first job (solve-worker.ts). Solving is synchronous, so a job's message could
 * not reach the worker before the round under way ended; `jobSent`, which the pool sets before
 * posting a job, is read where the round checks its time, and ends it there.
 */
export type ToWorker = { type: 'solve'; id: number; job: SubproblemJob; cancel: SharedArrayBuffer } | { type: 'warm-up'; jobSent: SharedArrayBuffer };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'incumbent'; id: number; incumbent: SubproblemIncumbent }
  | { type: 'done'; id: number; result: SubproblemResult }
  | { type: 'failed'; id: number; message: string };
