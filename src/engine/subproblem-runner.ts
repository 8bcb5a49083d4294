// What the engine asks of whatever solves its subproblems (the worker pool, or this thread): a
// job in, an outcome out, with cancellation and progress. The engine's own terms; the pool
// adapts its messages to them, so pool internals never reach the engine's callers.
import { workingBackend, type BackendName, type SolverBackend } from './backends/backend.js';
import { startSlice, type BudgetSlice } from './budget.js';
import type { PhaseName } from './levels.js';
import { solveSubproblemAgainOnFailure, type SubproblemResult } from './solve-subproblem.js';
import type { Subproblem } from './subproblem.js';

/** A new assignment: [volunteer request index, shift request index, the group whose slot it fills]. */
export type Assignment = [volunteer: number, shift: number, group: string];

export interface SubproblemJob {
  sub: Subproblem;
  backend: BackendName;
  slice: BudgetSlice;
  /** Include the model as LP text in the diagnostics. */
  lpText: boolean;
  maxMipPairs: number;
}

/** A better schedule of one subproblem, as it is found. */
export interface SubproblemIncumbent {
  assignments: Assignment[];
  phase: PhaseName;
  /** The proven upper bound on slots filled at that moment. */
  fillBound: number;
}

export type SubproblemOutcome =
  | { kind: 'done'; result: SubproblemResult }
  /** The solver did not answer (crashed, hung, cancelled before it started): its best schedule, if any. */
  | { kind: 'lost'; reason: string; incumbent?: Assignment[]; /** Its worker was stopped at the deadline. */ timedOut?: true };

export interface RunOptions {
  /** Aborting stops the job: a queued job at once, a running one with its best schedule so far. */
  signal?: AbortSignal;
  onIncumbent?: (incumbent: SubproblemIncumbent) => void;
}

export interface SubproblemRunner {
  run(job: SubproblemJob, options?: RunOptions): Promise<SubproblemOutcome>;
  /** Jobs (of any request) waiting for a worker, where the runner queues them (the pool). */
  waiting?(): number;
}

/**
 * Solves in this thread. Solving is synchronous, so an abort takes effect in the middle of a
 * subproblem only when it is signalled from inside the solve (an `onIncumbent` handler);
 * otherwise at the next subproblem. A solve that throws is lost, with its best schedule, as a
 * solver worker's is (the engine's fallback). A subproblem whose HiGHS failed (a trap in its
 * WebAssembly: highs-backend.ts) is solved again (solveSubproblemAgainOnFailure), and the failed
 * instance replaced before the next subproblem, as a worker does.
 */
export function inProcessRunner(backends: Partial<Record<BackendName, SolverBackend>>): SubproblemRunner {
  return {
    async run(job, options = {}) {
      if (!backends[job.backend]) return { kind: 'lost', reason: `backend ${job.backend} is not loaded` };
      const { signal, onIncumbent } = options;
      if (signal?.aborted) return { kind: 'lost', reason: 'cancelled before it started' };
      let best: Assignment[] | undefined;
      try {
        const backend = await workingBackend(backends, job.backend);
        const result = await solveSubproblemAgainOnFailure(job.sub, {
          backend,
          budget: startSlice(job.slice, Date.now, signal ? () => signal.aborted : undefined),
          lpText: job.lpText,
          maxMipPairs: job.maxMipPairs,
          onIncumbent: (incumbent) => {
            best = incumbent.assignments;
            onIncumbent?.(incumbent);
          },
        });
        return { kind: 'done', result };
      } catch (e) {
        return { kind: 'lost', reason: solverFailedReason((e as Error).stack ?? String(e)), ...(best ? { incumbent: best } : {}) };
      }
    },
  };
}

/** Why a subproblem whose solve threw is lost: the first line of the error (its stack's, as a worker posts it). */
export function solverFailedReason(error: string): string {
  return `the solver failed: ${error.split('\n')[0]}`;
}
