// Messages between the solver pool and its workers (structured-cloned).
import type { BackendName } from '../backends/backend.js';
import type { SubproblemResult } from '../solve-subproblem.js';
import type { Subproblem } from '../subproblem.js';

export interface SolveTask {
  sub: Subproblem;
  backend: BackendName;
  /** Epoch ms by which every subproblem of the request must be done. */
  deadline: number;
  /** This subproblem's share of the time, counted from when a worker starts it. */
  budgetMs: number;
  debugLp: boolean;
  maxMipPairs: number;
}

export type ToWorker = { type: 'solve'; id: number; task: SolveTask };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'incumbent'; id: number; assignments: Array<[number, number]> }
  | { type: 'done'; id: number; result: SubproblemResult }
  | { type: 'failed'; id: number; message: string };
