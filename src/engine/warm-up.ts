// Runs subproblems through every phase before the first real request: one tiny one, so that the
// WebAssembly solver's code is compiled (the first solve in a fresh worker is several times
// slower), then a few rounds of two small rosters, one as a 2.1 request makes it and one with
// every 2.2 rule, so that the engine's own hot paths (candidates, the roster, the greedy fill,
// the chains, the rows, the local search, the explanations) are compiled by V8's optimizing tiers
// too. The rosters are built as a request's are (normalized, decomposed, then copied as a worker
// receives them), so the compiled code sees the objects real requests bring. Without them, the
// first requests a worker serves run much of that code unoptimized: measured on the small Curtois
// instances, a worker's second solve took 1.5-2.5 times as long as its tenth. Those rosters never
// reach the levels' solver paths; once the service listens, a worker solves a festival group
// with the solver until its first job for that (festivalWarmUpRounds).
import { normalizeRequest } from '../input/problem.js';
import type { ScheduleRequest, Shift, Volunteer } from '../types/schema-types.js';
import type { SolverBackend } from './backends/backend.js';
import { Budget } from './budget.js';
import { prepare } from './candidates.js';
import { columnValues, formulate } from './formulate.js';
import { greedyFill } from './greedy.js';
import { solveSubproblem, type SubproblemResult } from './solve-subproblem.js';
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
 * Rounds of one festival group solved with the backend, for a worker to run until its first job
 * once the service listens (solve-worker.ts, SolverPool.warmUp): the paths of a typical group's
 * levels with a solver (coverage's LP and RINS, staffing's LP, the fairness bounds, the kicks, the
 * guided window), which the rosters above never reach (their fill and fairness are proven before
 * any LP). A round is one solve: 131-168 ms the first, cold one, 59-73 ms by the fourth and fifth
 * (one thread after warmUp, three fresh processes). Once `stop` is true (the pool has posted the
 * worker a job), the round under way ends at its next time check, as a cancelled solve does:
 * 0.7-8 ms later, but 26-46 ms when that comes in the first 30 ms of the cold round; the rounds
 * after it do nothing. The group is built in the first round, so that runBetweenTurns catches
 * whatever fails there too. Measured (festival-50x30's "bar" alone after warmUp, in one
 * thread, three fresh processes a side, 2026-11-30): its first solve took 114-131 ms without
 * them, 59-76 ms after five rounds.
 */
export function festivalWarmUpRounds(
  backend: SolverBackend,
  { stop = () => false, rounds = FESTIVAL_ROUNDS }: { stop?: () => boolean; rounds?: number } = {},
): Array<() => SubproblemResult[]> {
  let group: Subproblem[] | undefined;
  return Array.from({ length: rounds }, () => () => {
    if (stop()) return [];
    group ??= decompose(normalizeRequest(warmUpFestivalGroup()));
    return group.map((s) => solveSubproblem(structuredClone(s), { backend, budget: new Budget(Date.now() + WARM_UP_MS, Date.now, stop) }));
  });
}

/**
 * Rounds of the festival group: V8 optimizes a path over several solves, and the first calls
 * come faster after fifteen rounds than after five.
 * festival-50x30 over HTTP on fresh services, its calls 2 s after the service was ready (eight
 * services a side, 2026-11-30): the first call 84-103 ms (mean 91) after 15 rounds against
 * 100-126 ms (106) after 5, the second 57-70 ms (60) against 67-78 ms (72); after 30 rounds (calls
 * 3 s after, six a side) the first 81-97 ms (91) against 82-104 ms (94) after 15. The rounds
 * stop at the first job, so more of them cost an idle worker's time only.
 */
const FESTIVAL_ROUNDS = 15;

/**
 * Runs `rounds` one to a turn of the event loop (setImmediate), so that messages that arrive
 * between them are handled first; `stop` drops the ones not yet run. A round that throws ends
 * them (the warm-up is optional: it never takes the thread down). `done` settles when the last has
 * run, once stopped, or after such an error.
 */
export function runBetweenTurns(rounds: ReadonlyArray<() => unknown>): { stop: () => void; done: Promise<void> } {
  const left = [...rounds];
  let settle = (): void => {};
  const done = new Promise<void>((resolve) => (settle = resolve));
  const next = (): void => {
    const round = left.shift();
    if (!round) {
      settle();
      return;
    }
    try {
      round();
    } catch {
      left.length = 0;
    }
    setImmediate(next);
  };
  setImmediate(next);
  return {
    stop: () => {
      left.length = 0;
    },
    done,
  };
}

/**
 * One group of a festival as bench/generate.ts draws them (two days, ten volunteers capped at 8 h
 * to unlimited, twelve shifts of 2-6 h starting 06:00-22:30 for 1-4 of them). Its seed is one
 * whose solve takes each step of festivalWarmUpRounds. Deterministic.
 */
export function warmUpFestivalGroup(): ScheduleRequest {
  const next = draws(169, true);
  const caps = [8, 12, 12, 16, 20, 24, 999];
  const volunteers: Volunteer[] = Array.from({ length: 10 }, (_, i) => ({ id: `v${i}`, name: `v${i}`, group: 'warm-up', max_hours: caps[next(caps.length)]! }));
  const shifts: Shift[] = Array.from({ length: 12 }, (_, i) => {
    const start = 24 * next(2) + 6 + next(17) + (next(10) < 3 ? 0.5 : 0);
    return { id: `s${i}`, start: at(start), end: at(start + 2 + next(5)), required_groups: { 'warm-up': 1 + next(4) } };
  });
  return { volunteers, unassigned_shifts: shifts };
}

/**
 * Four days of a small roster, a little short of volunteers (so the chains and the explanations
 * have work): one group as in 2.1, or (`rules`) two groups joined by volunteers of both, with
 * rest, a daily limit, availability windows and priorities. Deterministic.
 */
export function warmUpRoster(rules: boolean): ScheduleRequest {
  const next = draws(rules ? 7 : 3, false);
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

/**
 * A seeded stream of draws in [0, n): a linear congruential generator, read from its high bits
 * (`high`) or its low ones (as the first rosters were drawn).
 */
function draws(seed: number, high: boolean): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return (high ? Math.floor(state / 65536) : state) % n;
  };
}

/** An hour of the warm-up's week as an ISO time. */
const at = (hours: number): string => new Date(Date.UTC(2026, 0, 5) + hours * HOUR).toISOString();
