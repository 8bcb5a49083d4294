// Runs subproblems through every phase before the first real request: one tiny one, so that the
// WebAssembly solver's code is compiled (the first solve in a fresh worker is several times
// slower), then a few rounds of two small rosters, one as a 2.1 request makes it and one with
// every 2.2 rule, so that the engine's own hot paths (candidates, the roster, the greedy fill,
// the chains, the rows, the local search, the explanations) are compiled by V8's optimizing tiers
// too. The rosters are built as a request's are (normalized, decomposed, then copied as a worker
// receives them), so the compiled code sees the objects real requests bring. Without them, the
// first requests a worker serves run much of that code unoptimized: measured on the small Curtois
// instances, a worker's second solve took 1.5-2.5 times as long as its tenth.
import { normalizeRequest } from '../input/problem.js';
import type { ScheduleRequest, Shift, Volunteer } from '../types/schema-types.js';
import type { SolverBackend } from './backends/backend.js';
import { Budget } from './budget.js';
import { prepare } from './candidates.js';
import { columnValues, formulate } from './formulate.js';
import { greedyFill } from './greedy.js';
import { solveSubproblem } from './solve-subproblem.js';
import { decompose, plainSlot, plainVolunteer, type Subproblem } from './subproblem.js';

const HOUR = 3_600_000;
/** Ample for the small models: the warm-up must run every phase, not race a clock. */
const WARM_UP_MS = 2000;
/** Rounds of the two rosters: enough calls for V8 to optimize the hot functions. */
const WARM_UP_ROUNDS = 3;

export function warmUp(backend: SolverBackend): void {
  // Two volunteers, three overlapping shifts of unequal length: greedy is not optimal, so the
  // LP, MIP and local-search paths all run.
  const tiny: Subproblem = {
    group: 'warm-up',
    groups: ['warm-up'],
    volunteers: [plainVolunteer(0, 'a', 'warm-up', 8), plainVolunteer(1, 'b', 'warm-up', 4)],
    shifts: [
      plainSlot(0, 's0', 'warm-up', 0, 4 * HOUR, 1),
      plainSlot(1, 's1', 'warm-up', 4 * HOUR, 12 * HOUR, 1),
      plainSlot(2, 's2', 'warm-up', 2 * HOUR, 6 * HOUR, 2),
    ],
  };
  solveSubproblem(tiny, { backend, budget: new Budget(Date.now() + WARM_UP_MS) });
  // The rosters without a backend (construction, chains, local search, explanations) and their
  // models: the solver's code is warm already, and its MIPs would only cost time here.
  const rosters = [warmUpRoster(false), warmUpRoster(true)].flatMap((request) => decompose(normalizeRequest(request)));
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    for (const sub of rosters.map((s) => structuredClone(s))) {
      solveSubproblem(sub, { budget: new Budget(Date.now() + WARM_UP_MS) });
      const p = prepare(sub);
      columnValues(formulate(p), p, greedyFill(p));
    }
  }
}

/**
 * Four days of a small roster, a little short of volunteers (so the chains and the explanations
 * have work): one group as in 2.1, or (`rules`) two groups joined by volunteers of both, with
 * rest, a daily limit, availability windows and priorities. Deterministic.
 */
export function warmUpRoster(rules: boolean): ScheduleRequest {
  let seed = rules ? 7 : 3;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const at = (hours: number): string => new Date(Date.UTC(2026, 0, 5) + hours * HOUR).toISOString();
  const groups = rules ? ['warm-up', 'warm-up-b'] : ['warm-up'];
  const volunteers: Volunteer[] = Array.from({ length: 16 }, (_, i) => {
    const group = groups[i % groups.length]!;
    const v: Volunteer = { id: `v${i}`, name: `v${i}`, group, max_hours: 12 + 4 * next(6) };
    if (!rules) return v;
    return {
      ...v,
      ...(i % 6 === 0 ? { additional_groups: groups.filter((g) => g !== group) } : {}),
      ...(i % 5 === 0 ? { available: [{ start: at(24 * next(2)), end: at(24 * (3 + next(2))) }] } : {}),
      ...(i % 3 === 0 ? { min_rest_hours: 8 } : {}),
      ...(i % 4 === 0 ? { max_shifts_per_day: 2 } : {}),
    };
  });
  const shifts: Shift[] = [];
  for (let day = 0; day < 4; day++) {
    for (let k = 0; k < 6; k++) {
      const start = 24 * day + 6 + 3 * k;
      const shift: Shift = {
        id: `s${shifts.length}`,
        start: at(start),
        end: at(start + 4 + next(5)),
        required_groups: { [groups[k % groups.length]!]: 1 + next(3) },
      };
      shifts.push(rules ? { ...shift, priority: 1 + next(3) } : shift);
    }
  }
  return { volunteers, unassigned_shifts: shifts, ...(rules ? { rules: { min_rest_hours: 4, max_shifts_per_day: 3, timezone: 'Europe/Berlin' } } : {}) };
}
