// Runs one tiny subproblem through every phase so the WebAssembly solver's code is compiled
// before the first real request (the first solve in a fresh worker is several times slower).
import type { SolverBackend } from './backends/backend.js';
import { Budget } from './budget.js';
import { solveSubproblem } from './solve-subproblem.js';
import { plainSlot, plainVolunteer, type Subproblem } from './subproblem.js';

const HOUR = 3_600_000;
/** Ample for the tiny model: the warm-up must run every phase, not race a clock. */
const WARM_UP_MS = 2000;

export function warmUp(backend: SolverBackend): void {
  // Two volunteers, three overlapping shifts of unequal length: greedy is not optimal, so the
  // LP, MIP and local-search paths all run.
  const sub: Subproblem = {
    group: 'warm-up',
    groups: ['warm-up'],
    volunteers: [plainVolunteer(0, 'a', 'warm-up', 8), plainVolunteer(1, 'b', 'warm-up', 4)],
    shifts: [
      plainSlot(0, 's0', 'warm-up', 0, 4 * HOUR, 1),
      plainSlot(1, 's1', 'warm-up', 4 * HOUR, 12 * HOUR, 1),
      plainSlot(2, 's2', 'warm-up', 2 * HOUR, 6 * HOUR, 2),
    ],
  };
  solveSubproblem(sub, { backend, budget: new Budget(Date.now() + WARM_UP_MS) });
}
