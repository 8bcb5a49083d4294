// Solves one group's subproblem, level by level: a greedy fill first (always an answer), then
// the MIP improves coverage, then staffing with coverage fixed, then fairness with both fixed,
// each phase starting from the best schedule so far and stopping early once a cheap bound
// proves it. Pure: the subproblem and a backend in, assignments and diagnostics out.
import type { BackendName, PhaseOutcome, PhaseRequest, SolverBackend, SolverSession } from './backends/backend.js';
import { prepare, type Prepared } from './candidates.js';
import { columnValues, fairnessObjective, formulate, type Formulation } from './formulate.js';
import { checkAssignment, greedyFill } from './greedy.js';
import type { Subproblem } from './subproblem.js';

export interface PhaseDiagnostics {
  name: 'greedy' | 'coverage' | 'staffing' | 'fairness';
  status: string;
  objective: number | null;
  bound: number | null;
  gap: number | null;
  ms: number;
  note?: string;
}

export interface SubproblemDiagnostics {
  group: string;
  variables: number;
  constraints: number;
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
/** Fairness counts as solved within this relative gap of its bound. */
export const FAIRNESS_GAP = 0.005;

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

export function solveSubproblem(sub: Subproblem, options: SubproblemOptions): SubproblemResult {
  const now = options.now ?? Date.now;
  const started = now();
  const p = prepare(sub);
  const phases: PhaseDiagnostics[] = [];
  const toAssignments = (x: ArrayLike<number>): Array<[number, number]> => {
    const out: Array<[number, number]> = [];
    for (let pair = 0; pair < p.candShift.length; pair++) {
      if (x[pair]) out.push([sub.volunteers[p.candVolunteer[pair]!]!.index, sub.shifts[p.candShift[pair]!]!.index]);
    }
    return out;
  };

  const tGreedy = now();
  let x = greedyFill(p);
  const upper = coverageUpperBound(p);
  let filled = sum(x);
  let fillBound = upper;
  phases.push({ name: 'greedy', status: filled === upper ? 'optimal' : 'feasible', objective: filled, bound: upper, gap: null, ms: now() - tGreedy });
  options.onIncumbent?.(toAssignments(x));

  const base: Omit<SubproblemResult, 'assignments' | 'status' | 'filled' | 'fillBound'> & { status: 'optimal' | 'feasible' } = {
    group: sub.group,
    status: 'feasible',
    diagnostics: { group: sub.group, variables: p.candShift.length, constraints: 0, status: 'feasible', phases, ms: 0 },
  };
  const finish = (status: 'optimal' | 'feasible', f?: Formulation): SubproblemResult => {
    const diagnostics: SubproblemDiagnostics = {
      ...base.diagnostics,
      variables: f?.model.numCols ?? p.candShift.length,
      constraints: f?.model.numRows ?? 0,
      status,
      ms: now() - started,
      ...(options.debugLp && f ? { lp: f.model.toLpText(f.coverage) } : {}),
    };
    return { group: sub.group, assignments: toAssignments(x), status, filled, fillBound, diagnostics };
  };

  if (p.candShift.length === 0) return finish('optimal');
  const maxPairs = options.maxMipPairs ?? DEFAULT_MAX_MIP_PAIRS;
  const backend = options.backend;
  if (!backend || p.candShift.length > maxPairs) {
    const note = backend ? `${p.candShift.length} candidate pairs exceed the MIP limit of ${maxPairs}; the greedy fill is kept` : 'greedy fill only';
    for (const name of ['coverage', 'staffing', 'fairness'] as const) phases.push({ name, status: 'skipped', objective: null, bound: null, gap: null, ms: 0, note });
    return finish(filled >= upper ? 'optimal' : 'feasible');
  }

  const f = formulate(p);
  let session: SolverSession | undefined;
  let values = columnValues(f, p, x);
  const remainingS = (): number => Math.max(0, (options.deadline - now()) / 1000);
  const accept = (outcome: PhaseOutcome, better: (v: Float64Array) => boolean): boolean => {
    if (!outcome.values) return false;
    const candidate = outcome.values.subarray(0, f.numPairs);
    if (checkAssignment(p, candidate) !== undefined || !better(outcome.values)) return false;
    // Complete it: add anything that still fits (never lowers any level).
    x = greedyFill(p, Uint8Array.from(candidate));
    values = columnValues(f, p, x);
    return true;
  };
  const runPhase = (name: PhaseDiagnostics['name'], request: Omit<PhaseRequest, 'timeLimitS' | 'start'>, share: number): PhaseOutcome | undefined => {
    const budget = remainingS() * share;
    if (budget < 0.02) {
      phases.push({ name, status: 'timedout', objective: null, bound: null, gap: null, ms: 0, note: 'no time left' });
      return undefined;
    }
    session ??= backend.open(f.model);
    const outcome = session.solve({ ...request, timeLimitS: budget, start: values });
    phases.push({ name, status: outcome.status, objective: outcome.objective, bound: outcome.bound, gap: outcome.gap, ms: outcome.ms, ...(outcome.message ? { note: outcome.message } : {}) });
    return outcome;
  };
  const free = new Map<number, [number, number]>([
    [f.coverFixRow, [-Infinity, Infinity]],
    [f.staffFixRow, [-Infinity, Infinity]],
  ]);

  try {
    // Level 1: coverage.
    let coverageProven = filled >= upper;
    if (!coverageProven) {
      const outcome = runPhase('coverage', { objective: f.coverage, rowBounds: free, absGap: 0.999, relGap: 0, stopAt: upper }, 0.5);
      if (outcome) {
        if (accept(outcome, (v) => sum(v, f.numPairs) > filled)) {
          filled = sum(x);
          options.onIncumbent?.(toAssignments(x));
        }
        if (outcome.bound !== null) fillBound = Math.min(fillBound, Math.floor(outcome.bound + 1e-6));
        coverageProven = outcome.status === 'optimal' || filled >= fillBound;
        if (coverageProven) fillBound = filled;
      }
    } else {
      fillBound = filled;
      phases.push({ name: 'coverage', status: 'optimal', objective: filled, bound: upper, gap: 0, ms: 0, note: 'the greedy fill meets the upper bound' });
    }

    // Level 2: fully staffed shifts, coverage fixed.
    const fullCols = [...f.fullCol].filter((c) => c >= 0);
    const fullCount = (): number => fullCols.reduce((t, c) => t + values[c]!, 0);
    const coverFixed = new Map(free).set(f.coverFixRow, [filled, Infinity]);
    let staffingProven = fullCount() === fullCols.length;
    if (!staffingProven) {
      const outcome = runPhase('staffing', { objective: f.staffing, rowBounds: coverFixed, absGap: 0.999, relGap: 0, stopAt: fullCols.length }, 0.4);
      if (outcome) {
        const before = fullCount();
        if (accept(outcome, (v) => sum(v, f.numPairs) >= filled && fullCols.reduce((t, c) => t + v[c]!, 0) > before)) options.onIncumbent?.(toAssignments(x));
        staffingProven = outcome.status === 'optimal' || fullCount() === fullCols.length;
      }
    } else {
      phases.push({ name: 'staffing', status: 'optimal', objective: fullCount(), bound: fullCols.length, gap: 0, ms: 0, note: 'every shift of the group is fully staffed' });
    }

    // Level 3: fairness, coverage and staffing fixed.
    const bound = fairnessLowerBound(p, f, filled);
    const current = fairnessObjective(f, values);
    let fairnessProven = current <= bound * (1 + FAIRNESS_GAP) + 1e-9;
    if (!fairnessProven) {
      const fixed = new Map(coverFixed).set(f.staffFixRow, [fullCount(), Infinity]);
      const outcome = runPhase('fairness', { objective: f.fairness, rowBounds: fixed, absGap: 1e-6, relGap: FAIRNESS_GAP, stopAt: bound * (1 + FAIRNESS_GAP) }, 1);
      if (outcome) {
        const full = fullCount();
        if (accept(outcome, (v) => sum(v, f.numPairs) >= filled && fullCols.reduce((t, c) => t + v[c]!, 0) >= full && fairnessObjective(f, v) < current - 1e-9)) {
          options.onIncumbent?.(toAssignments(x));
        }
        const last = phases[phases.length - 1]!;
        last.bound = Math.max(bound, last.bound ?? -Infinity);
        fairnessProven = outcome.status === 'optimal' || fairnessObjective(f, values) <= bound * (1 + FAIRNESS_GAP) + 1e-9;
      }
    } else {
      phases.push({ name: 'fairness', status: 'optimal', objective: current, bound, gap: bound > 0 ? (current - bound) / current : 0, ms: 0, note: 'within the gap of the water-filling bound' });
    }
    return finish(coverageProven && staffingProven && fairnessProven ? 'optimal' : 'feasible', f);
  } finally {
    session?.dispose();
  }
}

export type { BackendName };
