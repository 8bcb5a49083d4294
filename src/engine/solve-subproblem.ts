// Solves one group's subproblem, level by level: a greedy fill first (always an answer), then
// the MIP improves coverage, then staffing with coverage fixed, then fairness with both fixed,
// each phase starting from the best schedule so far and stopping early once a cheap bound
// proves it. Pure: the subproblem and a backend in, assignments and diagnostics out.
import type { BackendName, PhaseOutcome, PhaseRequest, SolverBackend, SolverSession } from './backends/backend.js';
import { prepare, type Prepared } from './candidates.js';
import { columnValues, fairnessObjective, formulate, type Formulation } from './formulate.js';
import { bestGreedyFill, checkAssignment, greedyFill } from './greedy.js';
import { improveCoverage, improveFairness } from './local-search.js';
import { suggestChanges, type ShiftSuggestions, type SuggestStats } from './suggest.js';
import type { Subproblem } from './subproblem.js';

export type PhaseName = 'greedy' | 'augment' | 'coverage_lp' | 'coverage' | 'staffing_lp' | 'staffing' | 'balance' | 'fairness_lp' | 'fairness';

export interface PhaseDiagnostics {
  name: PhaseName;
  status: string;
  objective: number | null;
  bound: number | null;
  gap: number | null;
  ms: number;
  note?: string;
}

export interface SubproblemDiagnostics {
  group: string;
  /** The explanation step: its time, the relaxed re-solves tried, and short shifts not fully explored. */
  explain: SuggestStats;
  variables: number;
  constraints: number;
  /** Slots filled by new assignments, and the proven upper bound on them. */
  filled: number;
  fill_bound: number;
  status: 'optimal' | 'feasible';
  phases: PhaseDiagnostics[];
  ms: number;
  lp?: string;
}

export interface SubproblemResult {
  group: string;
  /** Assignments as [volunteer request index, shift request index]. */
  assignments: Array<[number, number]>;
  status: 'optimal' | 'feasible';
  /** Slots filled by new assignments, and a proven upper bound on them. */
  filled: number;
  fillBound: number;
  /** Changes that would fill short shifts of the group, confirmed by re-solves. */
  suggestions: ShiftSuggestions[];
  diagnostics: SubproblemDiagnostics;
}

export interface SubproblemOptions {
  /** Without a backend only the greedy fill runs (the fallback when a worker is lost). */
  backend?: SolverBackend;
  /** Epoch milliseconds by which the answer is due. */
  deadline: number;
  debugLp?: boolean;
  /** Larger subproblems skip the MIP and keep the greedy fill (status feasible). */
  maxMipPairs?: number;
  /** Called with each better schedule as it is found (the pool keeps it in case of a crash). */
  onIncumbent?: (assignments: Array<[number, number]>) => void;
  now?: () => number;
}

export const DEFAULT_MAX_MIP_PAIRS = 250_000;
/**
 * Fairness counts as solved within this relative gap of its lower bound (sum of squared hours).
 * Measured on the festival benchmarks: local search lands within about 1% of the LP bound,
 * and a MIP then spends seconds for the last half percent, which no coordinator notices.
 */
export const FAIRNESS_GAP = 0.01;
/**
 * The staffing and fairness MIPs stop after this many seconds without a better schedule: they
 * refine what coverage decided, and a coordinator should not wait out the whole limit for them.
 */
export const STALL_S = 0.3;

const sum = (x: ArrayLike<number>, n = x.length): number => {
  let t = 0;
  for (let i = 0; i < n; i++) t += x[i]!;
  return t;
};

/** Most slots the subproblem could fill: per shift (open slots, eligible volunteers) and per volunteer (hours, non-overlapping shifts). */
export function coverageUpperBound(p: Prepared): number {
  let byShift = 0;
  p.byShift.forEach((pairs, s) => (byShift += Math.min(p.demand[s]!, pairs.length)));
  let byVolunteer = 0;
  p.byVolunteer.forEach((pairs, v) => {
    const shifts = pairs.map((pair) => p.sub.shifts[p.candShift[pair]!]!);
    // Most non-overlapping shifts (earliest end first), and most shifts the hours allow (shortest first).
    let count = 0;
    let lastEnd = -Infinity;
    for (const s of [...shifts].sort((a, b) => a.end - b.end)) {
      if (s.start >= lastEnd) {
        count++;
        lastEnd = s.end;
      }
    }
    let hours = 0;
    let byHours = 0;
    for (const s of [...shifts].sort((a, b) => a.hours - b.hours)) {
      if (hours + s.hours > p.remaining[v]! + 1e-9) break;
      hours += s.hours;
      byHours++;
    }
    byVolunteer += Math.min(count, byHours);
  });
  return Math.min(byShift, byVolunteer);
}

/**
 * A lower bound on the fairness objective with `filled` new assignments: the fewest hours they
 * can add (the shortest open slots), spread as evenly as the caps allow (water-filling). It
 * ignores overlaps and shift lengths, so no schedule beats it.
 */
export function fairnessLowerBound(p: Prepared, f: Formulation, filled: number): number {
  const slotHours: number[] = [];
  p.sub.shifts.forEach((s, i) => {
    for (let k = 0; k < Math.min(p.demand[i]!, p.byShift[i]!.length); k++) slotHours.push(s.hours);
  });
  slotHours.sort((a, b) => a - b);
  let total = sum(slotHours, Math.min(filled, slotHours.length));
  const lo: number[] = [];
  const hi: number[] = [];
  f.pieces.forEach((piece, v) => {
    if (piece.cols.length === 0) return;
    lo.push(p.lockedHours[v]!);
    hi.push(piece.breakpoints[piece.breakpoints.length - 1]!);
    total += p.lockedHours[v]!;
  });
  const level = (L: number): number => lo.reduce((t, l, i) => t + Math.min(hi[i]!, Math.max(l, L)), 0);
  let a = 0;
  let b = Math.max(0, ...hi);
  for (let i = 0; i < 60; i++) {
    const mid = (a + b) / 2;
    if (level(mid) < total) a = mid;
    else b = mid;
  }
  return lo.reduce((t, l, i) => t + Math.min(hi[i]!, Math.max(l, b)) ** 2, 0);
}

const r4 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1e4) / 1e4);
const roundPhase = (ph: PhaseDiagnostics): PhaseDiagnostics => ({ ...ph, objective: r4(ph.objective), bound: r4(ph.bound), gap: r4(ph.gap), ms: r4(ph.ms)! });

/** Share of a group's time kept for the explanation step. */
export const EXPLAIN_SHARE = 0.1;

export function solveSubproblem(sub: Subproblem, options: SubproblemOptions): SubproblemResult {
  const now = options.now ?? Date.now;
  const started = now();
  const explainBy = options.deadline;
  options = { ...options, deadline: started + (options.deadline - started) * (1 - EXPLAIN_SHARE) };
  const p = prepare(sub);
  const phases: PhaseDiagnostics[] = [];
  const toAssignments = (x: ArrayLike<number>): Array<[number, number]> => {
    const out: Array<[number, number]> = [];
    for (let pair = 0; pair < p.candShift.length; pair++) {
      if (x[pair]) out.push([sub.volunteers[p.candVolunteer[pair]!]!.index, sub.shifts[p.candShift[pair]!]!.index]);
    }
    return out;
  };
  const note = (name: PhaseName, status: string, objective: number | null, bound: number | null, ms: number, text?: string): void => {
    phases.push({ name, status, objective, bound, gap: null, ms, ...(text ? { note: text } : {}) });
  };

  // Construction: greedy, then ejection moves that fill more slots.
  let t = now();
  let x = bestGreedyFill(p);
  const upper = coverageUpperBound(p);
  note('greedy', 'feasible', sum(x), upper, now() - t);
  t = now();
  // Augmenting chains get a small part of the time: the MIP does better with the rest.
  x = greedyFill(p, improveCoverage(p, x, started + (options.deadline - started) * 0.15));
  let filled = sum(x);
  let fillBound = upper;
  note('augment', filled >= upper ? 'optimal' : 'feasible', filled, upper, now() - t);
  options.onIncumbent?.(toAssignments(x));

  let formulation: Formulation | undefined;
  const finish = (status: 'optimal' | 'feasible'): SubproblemResult => {
    const f = formulation;
    const { suggestions, stats } = suggestChanges(p, x, Math.max(explainBy, now() + 50), now);
    const diagnostics: SubproblemDiagnostics = {
      group: sub.group,
      explain: stats,
      variables: f?.model.numCols ?? p.candShift.length,
      constraints: f?.model.numRows ?? 0,
      filled,
      fill_bound: fillBound,
      status,
      phases: phases.map(roundPhase),
      ms: now() - started,
      ...(options.debugLp && f ? { lp: f.model.toLpText(f.coverage) } : {}),
    };
    return { group: sub.group, assignments: toAssignments(x), status, filled, fillBound, suggestions, diagnostics };
  };

  if (p.candShift.length === 0) return finish('optimal');
  const maxPairs = options.maxMipPairs ?? DEFAULT_MAX_MIP_PAIRS;
  const backend = options.backend;
  if (!backend || p.candShift.length > maxPairs) {
    const why = backend ? `${p.candShift.length} candidate pairs exceed the MIP limit of ${maxPairs}` : 'no solver backend';
    x = improveFairness(p, x, options.deadline);
    note('balance', 'feasible', null, null, 0, `${why}: local search only`);
    options.onIncumbent?.(toAssignments(x));
    return finish('feasible');
  }

  const loads = Float64Array.from(p.lockedHours);
  for (let pair = 0; pair < p.candShift.length; pair++) if (x[pair]) loads[p.candVolunteer[pair]!]! += sub.shifts[p.candShift[pair]!]!.hours;
  const f = formulate(p, loads);
  formulation = f;
  let session: SolverSession | undefined;
  let values = columnValues(f, p, x);
  const remainingS = (): number => Math.max(0, (options.deadline - now()) / 1000);
  /** Takes a MIP solution when it is valid and better, completed with anything that still fits. */
  const accept = (outcome: PhaseOutcome, better: (v: Float64Array) => boolean): boolean => {
    if (!outcome.values || outcome.status === 'infeasible' || outcome.status === 'error') return false;
    const candidate = outcome.values.subarray(0, f.numPairs);
    if (checkAssignment(p, candidate) !== undefined || !better(outcome.values)) return false;
    x = greedyFill(p, Uint8Array.from(candidate));
    values = columnValues(f, p, x);
    options.onIncumbent?.(toAssignments(x));
    return true;
  };
  const run = (name: PhaseName, request: Omit<PhaseRequest, 'timeLimitS' | 'start'>, share: number): PhaseOutcome | undefined => {
    const budget = remainingS() * share;
    if (budget < 0.02) {
      note(name, 'timedout', null, null, 0, 'no time left');
      return undefined;
    }
    session ??= backend.open(f.model);
    const outcome = session.solve({ ...request, timeLimitS: budget, deadline: now() + budget * 1000, ...(request.relaxation ? {} : { start: values }) });
    const { stopAt } = request;
    const reached = stopAt !== undefined && outcome.objective !== null && (request.objective.sense === 'max' ? outcome.objective >= stopAt - 1e-9 : outcome.objective <= stopAt + 1e-9);
    const status = reached && outcome.status === 'feasible' ? 'optimal' : outcome.status;
    const text = reached && outcome.status === 'feasible' ? 'stopped on reaching the bound' : outcome.message;
    phases.push({ name, status, objective: outcome.objective, bound: outcome.bound, gap: outcome.gap, ms: outcome.ms, ...(text ? { note: text } : {}) });
    return { ...outcome, status };
  };
  const free = new Map<number, [number, number]>([
    [f.coverFixRow, [-Infinity, Infinity]],
    [f.staffFixRow, [-Infinity, Infinity]],
  ]);

  try {
    // Level 1: coverage. The LP relaxation often proves the construction optimal at once.
    // When the relaxation itself does not finish in time, a MIP on the same model would not
    // either (HiGHS can overrun its limit on such models), so the level keeps what it has.
    let coverageProven = filled >= upper;
    let lpFinished = true;
    if (!coverageProven) {
      const lp = run('coverage_lp', { objective: f.coverage, rowBounds: free, absGap: 0, relGap: 0, relaxation: true }, 0.3);
      if (lp?.status === 'optimal' && lp.objective !== null) fillBound = Math.min(fillBound, Math.floor(lp.objective + 1e-6));
      coverageProven = filled >= fillBound;
      lpFinished = lp?.status === 'optimal';
    }
    if (!coverageProven && !lpFinished) {
      note('coverage', 'skipped', null, null, 0, 'the LP relaxation did not finish in time, so a MIP would not either');
    } else if (!coverageProven) {
      const outcome = run('coverage', { objective: f.coverage, rowBounds: free, absGap: 0.999, relGap: 0, stopAt: fillBound }, 0.85);
      if (outcome) {
        if (accept(outcome, (v) => sum(v, f.numPairs) > filled)) filled = sum(x);
        if (outcome.bound !== null) fillBound = Math.min(fillBound, Math.floor(outcome.bound + 1e-6));
        coverageProven = outcome.status === 'optimal' || filled >= fillBound;
      }
    }
    if (coverageProven) fillBound = filled;

    // Level 2: fully staffed shifts, coverage fixed.
    const fullCols = [...f.fullCol].filter((c) => c >= 0);
    const fullCount = (v: ArrayLike<number> = values): number => fullCols.reduce((total, c) => total + v[c]!, 0);
    const coverFixed = new Map(free).set(f.coverFixRow, [filled, Infinity]);
    let fullBound = fullCols.length;
    let staffingProven = fullCount() >= fullBound;
    lpFinished = true;
    if (!staffingProven) {
      const lp = run('staffing_lp', { objective: f.staffing, rowBounds: coverFixed, absGap: 0, relGap: 0, relaxation: true }, 0.3);
      if (lp?.status === 'optimal' && lp.objective !== null) fullBound = Math.min(fullBound, Math.floor(lp.objective + 1e-6));
      staffingProven = fullCount() >= fullBound;
      lpFinished = lp?.status === 'optimal';
    }
    if (!staffingProven && !lpFinished) {
      note('staffing', 'skipped', null, null, 0, 'the LP relaxation did not finish in time');
    } else if (!staffingProven) {
      const outcome = run('staffing', { objective: f.staffing, rowBounds: coverFixed, absGap: 0.999, relGap: 0, stopAt: fullBound, stallS: STALL_S }, 0.4);
      if (outcome) {
        const before = fullCount();
        accept(outcome, (v) => sum(v, f.numPairs) >= filled && fullCount(v) > before);
        staffingProven = outcome.status === 'optimal' || fullCount() >= fullBound;
      }
    }

    // Level 3: fairness, coverage and staffing fixed. Local search first, then bounds, then the MIP.
    t = now();
    const balanced = improveFairness(p, x, options.deadline);
    const before = fairnessObjective(f, values);
    const balancedValues = columnValues(f, p, balanced);
    if (fairnessObjective(f, balancedValues) < before - 1e-9) {
      x = balanced;
      values = balancedValues;
      options.onIncumbent?.(toAssignments(x));
    }
    let bound = fairnessLowerBound(p, f, filled);
    const proven = (): boolean => fairnessObjective(f, values) <= bound * (1 + FAIRNESS_GAP) + 1e-9;
    note('balance', proven() ? 'optimal' : 'feasible', fairnessObjective(f, values), bound, now() - t);
    const fixed = new Map(coverFixed).set(f.staffFixRow, [fullCount(), Infinity]);
    let fairnessProven = proven();
    lpFinished = true;
    if (!fairnessProven) {
      const lp = run('fairness_lp', { objective: f.fairness, rowBounds: fixed, absGap: 0, relGap: 0, relaxation: true }, 0.3);
      if (lp?.status === 'optimal' && lp.objective !== null) bound = Math.max(bound, lp.objective);
      fairnessProven = proven();
      lpFinished = lp?.status === 'optimal';
    }
    if (!fairnessProven && !lpFinished) {
      note('fairness', 'skipped', null, null, 0, 'the LP relaxation did not finish in time');
    } else if (!fairnessProven) {
      const current = fairnessObjective(f, values);
      const outcome = run('fairness', { objective: f.fairness, rowBounds: fixed, absGap: 1e-6, relGap: FAIRNESS_GAP, stopAt: bound * (1 + FAIRNESS_GAP), stallS: STALL_S }, 1);
      if (outcome) {
        const full = fullCount();
        accept(outcome, (v) => sum(v, f.numPairs) >= filled && fullCount(v) >= full && fairnessObjective(f, v) < current - 1e-9);
        if (outcome.bound !== null) bound = Math.max(bound, outcome.bound);
        fairnessProven = outcome.status === 'optimal' || proven();
      }
    }
    return finish(coverageProven && staffingProven && fairnessProven ? 'optimal' : 'feasible');
  } finally {
    session?.dispose();
  }
}

export type { BackendName };
