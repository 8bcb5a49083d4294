// Messages between the solver pool and its workers (structured-cloned). A job's cancel flag is a
// SharedArrayBuffer: solving is synchronous, so a message could not reach the worker until it
// was done, but the flag is read where the worker checks its deadline.
import type { SubproblemIncumbent, SubproblemJob } from '../subproblem-runner.js';
import type { SubproblemResult } from '../solve-subproblem.js';

/** Index 0 of the job's Int32Array over `cancel` becomes CANCELLED when the job is aborted. */
export const CANCELLED = 1;

/**
 * A job, or `warm-up`: the service listens (SolverPool.warmUp), so the worker may run its warm-up
 * rounds until its first job (solve-worker.ts).
 */
export type ToWorker = { type: 'solve'; id: number; job: SubproblemJob; cancel: SharedArrayBuffer } | { type: 'warm-up' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'incumbent'; id: number; incumbent: SubproblemIncumbent }
  | { type: 'done'; id: number; result: SubproblemResult }
  | { type: 'failed'; id: number; message: string };

/** The worker's side of the cancel flag. */
export function cancelCheck(cancel: SharedArrayBuffer): () => boolean {
  const flag = new Int32Array(cancel);
  return () => Atomics.load(flag, 0) === CANCELLED;
}
