// Runs one tiny subproblem through every phase so the WebAssembly solver's code is compiled
// before the first real request (the first solve in a fresh worker is several times slower).
import type { SolverBackend } from './backends/backend.js';
import { Budget } from './budget.js';
import { solveSubproblem } from './solve-subproblem.js';
import type { Subproblem } from './subproblem.js';

const HOUR = 3_600_000;
/** Ample for the tiny model: the warm-up must run every phase, not race a clock. */
const WARM_UP_MS = 2000;

export function warmUp(backend: SolverBackend): void {
  // Two volunteers, three overlapping shifts of unequal length: greedy is not optimal, so the
  // LP, MIP and local-search paths all run.
  const sub: Subproblem = {
    group: 'warm-up',
    volunteers: [
      { index: 0, id: 'a', cap: 8, locks: [] },
      { index: 1, id: 'b', cap: 4, locks: [] },
    ],
    shifts: [
      { index: 0, id: 's0', start: 0, end: 4 * HOUR, hours: 4, required: 1, locked: 0 },
      { index: 1, id: 's1', start: 4 * HOUR, end: 12 * HOUR, hours: 8, required: 1, locked: 0 },
      { index: 2, id: 's2', start: 2 * HOUR, end: 6 * HOUR, hours: 4, required: 2, locked: 0 },
    ],
  };
  solveSubproblem(sub, { backend, budget: new Budget(Date.now() + WARM_UP_MS) });
}
