// Solves one group's subproblem, level by level: a greedy fill first (always an answer), then
// the MIP improves coverage, then staffing with coverage fixed, then fairness with both fixed,
// each phase starting from the best schedule so far and stopping early once a cheap bound
// proves it. Pure: the subproblem and a backend in, assignments and diagnostics out (but for
// solveSubproblemAgainOnFailure, which loads a fresh backend where the first failed).
import { improves, type SolverBackend } from './backends/backend.js';
import { AUGMENT_SHARE, EXPLAIN_MIN_MS, EXPLAIN_SHARE, MIN_PHASE_S, type Budget } from './budget.js';
import { loadsOf, prepare, type Prepared } from './candidates.js';
import { columnValues, fairnessPieceShapes, fairnessObjective, formulate, squaresShortfall, type Formulation } from './formulate.js';
import { bestGreedyFill, compareCoverage, filledByClass, greedyFill, previousStart } from './greedy.js';
import { softGoals, wishesToKeep } from './soft-goals.js';
import {
  fairnessLevel,
  fairnessLowerBound,
  kickPhase,
  levelRecord,
  note,
  runLevels,
  sharpenByPacking,
  sum,
  type LevelDiagnostics,
  type LevelState,
  type PhaseDiagnostics,
  type PhaseName,
} from './levels.js';
import { improveCoverage, improveFairness } from './local-search.js';
import type { Assignment, SubproblemIncumbent } from './subproblem-runner.js';
import { mostWithinDays } from '../rules/daily.js';
import { mostWithinHours } from '../rules/hours.js';
import { mostSpaced } from '../rules/spacing.js';
import { suggestChanges, type ShiftSuggestions, type SuggestStats } from './suggest.js';
import type { Subproblem } from './subproblem.js';

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
  /**
   * True when the clock stopped or left out some of its work (a phase's share of the time, its
   * slice, the deadline; Budget.timeLimited): another run can end differently. False: every
   * step ended on its own, and the same subproblem gives the same schedule.
   */
  time_limited: boolean;
  phases: PhaseDiagnostics[];
  /** Each objective level's value, bound, gap and proof, in order (when the MIP levels ran). */
  levels?: LevelDiagnostics[];
  ms: number;
  lp?: string;
}

export interface SubproblemResult {
  group: string;
  /** Assignments as [volunteer request index, shift request index, group]. */
  assignments: Assignment[];
  status: 'optimal' | 'feasible';
  /** Slots filled by new assignments, and a proven upper bound on them. */
  filled: number;
  fillBound: number;
  /** Changes that would fill short shifts of the group, confirmed by re-solves. */
  suggestions: ShiftSuggestions[];
  diagnostics: SubproblemDiagnostics;
  /**
   * Why some of this subproblem was solved without the solver: it stopped working in its solve
   * (SolverBackend.failed), or the worker solving it was lost (schedule.ts, fallback). The answer
   * warns of it (solver_failed). Absent otherwise.
   */
  solverFailure?: string;
}

export interface SubproblemOptions {
  /** Without a backend only the greedy fill runs (the fallback when a worker is lost). */
  backend?: SolverBackend;
  /** The subproblem's time (explanation included) and cancellation. */
  budget: Budget;
  /** Include the model as LP text in the diagnostics. */
  lpText?: boolean;
  /** Larger subproblems skip the MIP and keep the greedy fill (status feasible). */
  maxMipPairs?: number;
  /** Larger subproblems of several groups refine staffing, the wishes (but the previous assignments) and fairness without an LP or MIP of the whole, but after the wishes' windows settle (DEFAULT_MAX_JOINED_REFINE_PAIRS). */
  maxJoinedRefinePairs?: number;
  /** Called with each better schedule as it is found (the pool keeps it in case of a crash). */
  onIncumbent?: (incumbent: SubproblemIncumbent) => void;
}

export const DEFAULT_MAX_MIP_PAIRS = 250_000;
/**
 * A subproblem that joins several groups (through additional_groups) and has more candidate
 * pairs than this refines staffing, the wishes (but the previous assignments) and fairness
 * without an LP or MIP of its whole model, against their cheap bounds: local search, then for
 * staffing and the wishes their windows (small MIPs with the rest fixed;
 * ObjectiveLevel.localWindows), and for the wishes, where the windows end on passes that gain
 * nothing, the LP of the whole capped by simplex iterations, RINS and the MIP
 * (ObjectiveLevel.wholeAfterWindows). The LPs of its whole model take seconds and the MIPs gained
 * nothing on any such instance measured. Measured on 2.2 festivals of six joined groups (the
 * fairness LP; the staffing LP and MIP cost about as much): 1,275 pairs 0.1 s, 2,931 pairs
 * 0.35 s, 4,994 pairs 0.9 s, 20,829 pairs 4-5 s (rules-festival-400x300: neither finished in its share of 10 s); the
 * fairness MIP after local search improved none of them, the staffing MIP only the smallest.
 * Coverage keeps its LP and MIP levels whatever the size (it is exact).
 */
export const DEFAULT_MAX_JOINED_REFINE_PAIRS = 4_000;

/**
 * Most slots the subproblem could fill: per slot kind (open slots, eligible volunteers) and per
 * volunteer (the least of what each rule allows alone: shifts spaced by their rest, shifts the
 * hours left allow, shifts the daily limit leaves room for).
 */
export function coverageUpperBound(p: Prepared): number {
  let byShift = 0;
  p.byShift.forEach((pairs, s) => (byShift += Math.min(p.demand[s]!, pairs.length)));
  let byVolunteer = 0;
  p.byVolunteer.forEach((pairs, v) => {
    const vol = p.sub.volunteers[v]!;
    const shifts = pairs.map((pair) => p.sub.shifts[p.candShift[pair]!]!);
    byVolunteer += Math.min(mostSpaced(vol, shifts), mostWithinHours(p.remaining[v]!, shifts), mostWithinDays(vol, shifts));
  });
  return Math.min(byShift, byVolunteer);
}

const r4 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1e4) / 1e4);
const roundPhase = (ph: PhaseDiagnostics): PhaseDiagnostics => ({ ...ph, objective: r4(ph.objective), bound: r4(ph.bound), gap: r4(ph.gap), ms: r4(ph.ms)! });

const status = (proven: boolean): 'optimal' | 'feasible' => (proven ? 'optimal' : 'feasible');

/** The schedule a subproblem ends with. */
type Ending = Pick<LevelState, 'x' | 'filled' | 'fillBound' | 'levels' | 'packingSettled'>;

export function solveSubproblem(sub: Subproblem, options: SubproblemOptions): SubproblemResult {
  const { budget } = options;
  const started = budget.now();
  const solving = budget.share(1 - EXPLAIN_SHARE);
  const augmenting = solving.share(AUGMENT_SHARE);
  const run: Run = { sub, options, p: prepare(sub), phases: [], started };
  const report = (x: Uint8Array, phase: PhaseName, fillBound: number): void =>
    options.onIncumbent?.({ assignments: toAssignments(run.p, x), phase, fillBound });
  const { p, phases } = run;
  const { x: built, filled, upper } = construct(run, augmenting);
  let x = built;
  report(x, 'augment', upper);

  if (p.candShift.length === 0) return finish(run, { x, filled, fillBound: upper }, true);
  const maxPairs = options.maxMipPairs ?? DEFAULT_MAX_MIP_PAIRS;
  const { backend } = options;
  if (!backend || p.candShift.length > maxPairs) {
    const why = backend ? `${p.candShift.length} candidate pairs exceed the MIP limit of ${maxPairs}` : 'no solver backend';
    // Without the MIP levels, fairness's local search still keeps previous assignments and every wish as met.
    const t = solving.now();
    // Completed as the levels complete a local search's schedule (levels.ts adopt).
    x = greedyFill(p, improveFairness(p, x, solving, wishesToKeep(softGoals(p))));
    report(x, 'balance', upper);
    const fairness = fairnessWithoutModel(run, x, sum(x), backend, solving, { ms: solving.now() - t, text: `${why}: local search only` });
    if (fairness.x !== x) report(fairness.x, 'fairness_kicks', upper);
    return finish(run, { x: fairness.x, filled: sum(fairness.x), fillBound: upper, levels: [fairness.level] }, false);
  }

  // The MIP levels, on a model whose fairness breakpoints are placed around the current loads.
  const f = formulate(p, loadsOf(p, x));
  const state: LevelState = {
    p,
    f,
    x,
    values: columnValues(f, p, x),
    filled,
    fillBound: upper,
    budget: solving,
    phases,
    onIncumbent: (phase) => {
      report(state.x, phase, state.fillBound);
    },
  };
  const joinedLimit = options.maxJoinedRefinePairs ?? DEFAULT_MAX_JOINED_REFINE_PAIRS;
  if (sub.groups.length > 1 && p.candShift.length > joinedLimit) {
    state.localRefinement = `${sub.groups.length} groups joined, ${p.candShift.length} candidate pairs (over ${joinedLimit}): no LP or MIP of the whole subproblem`;
  }
  const proven = runLevels(state, backend);
  return finish(run, state, proven, f);
}

/** HiGHS's random seed for a subproblem solved again after the solver failed in it (solveSubproblemAgainOnFailure). */
export const RETRY_SEED = 1;

/**
 * Solves a subproblem as solveSubproblem does; where the solver failed in it (a trap in HiGHS:
 * SolverBackend.failed) before its schedule was complete, and its time is not spent, solves it
 * once more from the start, on a fresh instance with another random seed (RETRY_SEED), in the time
 * its slice has left. Such a fault follows the path HiGHS's MIP takes: the one MIP found trapping
 * HiGHS 1.15.1 (after the restart its MIP makes at the root;
 * test/fixtures/solver/highs-restart-trap.json) traps with seed 0 and solves with seeds 1, 2 and 3.
 * The better schedule of the two is kept (betterResult; the second on a tie, unless the solver
 * failed there too), the diagnostics listing both solves' phases, the second's first phase saying
 * why; a kept schedule the solver failed in warns (solver_failed). While the second solve runs,
 * only its schedules that fill more than the first's reach `onIncumbent` (the pool keeps the
 * latest, should the worker be stopped). Without a clock stop in either, the same request meets
 * the same fault, then the same second solve.
 */
export async function solveSubproblemAgainOnFailure(sub: Subproblem, options: SubproblemOptions): Promise<SubproblemResult> {
  const first = solveSubproblem(sub, options);
  const { budget, onIncumbent } = options;
  const fresh = first.solverFailure !== undefined && !budget.expired() ? options.backend?.reload?.(RETRY_SEED) : undefined;
  if (!fresh) return first;
  const backend = await fresh;
  const firstCoverage = coverageByPriority(sub, first.assignments);
  const again = solveSubproblem(sub, {
    ...options,
    backend,
    // Sharing the first solve's record of clock stops: whether it failed, and so this solve, may depend on the clock.
    budget,
    ...(onIncumbent
      ? {
          onIncumbent: (incumbent: SubproblemIncumbent) => {
            if (compareCoverage(coverageByPriority(sub, incumbent.assignments), firstCoverage) > 0) onIncumbent(incumbent);
          },
        }
      : {}),
  });
  const order = betterResult(sub, again, first);
  const kept = order > 0 || (order === 0 && again.solverFailure === undefined) ? again : first;
  const [start, ...rest] = again.diagnostics.phases;
  const why = `solved again from the start on a fresh HiGHS with random_seed ${RETRY_SEED}, after the solver failed (${first.solverFailure})`;
  const retold = start && { ...start, note: kept === again ? why : `${why}; its schedule was not kept: the first was as good or better` };
  const phases = [...first.diagnostics.phases, ...(retold ? [retold] : []), ...rest];
  return {
    ...kept,
    diagnostics: { ...kept.diagnostics, phases, time_limited: again.diagnostics.time_limited, ms: first.diagnostics.ms + again.diagnostics.ms },
  };
}

/** Slots filled by new assignments per priority class, the highest (5) first (as filledByClass, from assignments). */
function coverageByPriority(sub: Subproblem, assignments: readonly Assignment[]): number[] {
  const priority = new Map(sub.shifts.map((s) => [s.index, s.priority]));
  const counts = [0, 0, 0, 0, 0];
  for (const [, shift] of assignments) counts[5 - (priority.get(shift) ?? 1)]!++;
  return counts;
}

/** Whether a level's larger value is the better. */
const MAXIMIZED: ReadonlySet<LevelDiagnostics['name']> = new Set(['coverage', 'staffing', 'previous', 'preferred']);

/**
 * Positive where `a` is the better schedule of the subproblem by the objective's order: slots
 * filled per priority class, then the later levels' values where both results list the same
 * levels (improves), 0 where neither is.
 */
function betterResult(sub: Subproblem, a: SubproblemResult, b: SubproblemResult): number {
  const byCoverage = compareCoverage(coverageByPriority(sub, a.assignments), coverageByPriority(sub, b.assignments));
  if (byCoverage !== 0) return byCoverage;
  const la = a.diagnostics.levels ?? [];
  const lb = b.diagnostics.levels ?? [];
  if (la.length !== lb.length || la.some((l, i) => l.name !== lb[i]!.name || l.priority !== lb[i]!.priority)) return 0;
  for (let i = 0; i < la.length; i++) {
    const { name, value } = la[i]!;
    const other = lb[i]!.value;
    const sense = MAXIMIZED.has(name) ? 'max' : 'min';
    if (name !== 'coverage' && improves(sense, value, other)) return 1;
    if (name !== 'coverage' && improves(sense, other, value)) return -1;
  }
  return 0;
}

/** One subproblem's solve: what construction, the levels and the finish share. */
interface Run {
  sub: Subproblem;
  options: SubproblemOptions;
  p: Prepared;
  phases: PhaseDiagnostics[];
  started: number;
}

/**
 * Fairness's level where no model is built (over the MIP limit, or no backend): the schedule's
 * sum of squared hours, against water-filling and, where
 * the backend gives it, the packing bound; phase balance (the local search that made it, `done`),
 * fairness_bound, then, with a backend, the kicks (fairness_kicks) while it is unproven. Returns the schedule
 * (`x`, or a better one) and its level.
 */
function fairnessWithoutModel(
  { p, phases }: Run,
  x: Uint8Array,
  filled: number,
  backend: SolverBackend | undefined,
  budget: Budget,
  done: { ms: number; text: string },
): { x: Uint8Array; level: LevelDiagnostics } {
  const f = { pieces: fairnessPieceShapes(p, loadsOf(p, x)).pieces };
  // The squares themselves (the pieces, below them at some loads, bound them).
  const valueOf = (y: Uint8Array): number => {
    const loads = loadsOf(p, y);
    return f.pieces.reduce((t, { slopes }, v) => t + (slopes.length === 0 ? 0 : loads[v]! * loads[v]!), 0);
  };
  let value = valueOf(x);
  let bound = fairnessLowerBound(p, f, filled);
  note(phases, 'balance', fairnessLevel.proven(value, bound) ? 'optimal' : 'feasible', value, bound, done.ms, done.text);
  const goals = softGoals(p);
  if (backend && !fairnessLevel.proven(value, bound)) bound = sharpenByPacking(p, f, x, backend, budget, phases, bound, { goals, alone: value });
  // Without a backend (a lost worker's fallback) the greedy fill and the local search are all.
  if (backend && !fairnessLevel.proven(value, bound)) {
    const kicked = kickPhase(p, x, budget, phases, bound, valueOf, wishesToKeep(goals));
    // Completed as the levels complete a local search's schedule (levels.ts adopt); the same `x` when the kicks found nothing.
    if (kicked !== x) {
      x = greedyFill(p, kicked);
      value = valueOf(x);
    }
  }
  return { x, level: levelRecord('fairness', value, bound, fairnessLevel.proven(value, bound)) };
}

/** Construction: greedy, then ejection moves that fill more slots (within `augmenting`). */
function construct({ p, phases, options }: Run, augmenting: Budget): { x: Uint8Array; filled: number; upper: number } {
  const now = options.budget.now;
  let t = now();
  const goals = softGoals(p);
  // Re-planning starts from the previous assignments that still fit, completed greedily; the
  // plain greedy fill replaces that start only when it fills more (coverage comes first).
  const plain = bestGreedyFill(p);
  let x = plain;
  if (goals.uses.previous) {
    const kept = greedyFill(p, previousStart(p, goals.previous));
    if (compareCoverage(filledByClass(p, kept), filledByClass(p, plain)) >= 0) x = kept;
  }
  const upper = coverageUpperBound(p);
  note(phases, 'greedy', 'feasible', sum(x), upper, now() - t);
  t = now();
  // A chain fills one more slot, so none exists once the fill meets the bound: the search would
  // only end where it started (every move it tries is undone), at the cost of its whole budget.
  if (sum(x) < upper) x = greedyFill(p, improveCoverage(p, x, augmenting));
  const filled = sum(x);
  note(phases, 'augment', filled >= upper ? 'optimal' : 'feasible', filled, upper, now() - t);
  return { x, filled, upper };
}

/** The result: the schedule, its suggestions (explained within their own share) and diagnostics. */
function finish({ sub, options, p, phases, started }: Run, end: Ending, proven: boolean, f?: Formulation): SubproblemResult {
  const { budget } = options;
  // A failure in the bound of the final schedule below leaves the schedule as it is: not one to say.
  const solverFailure = options.backend?.failed?.();
  const { suggestions, stats } = suggestChanges(p, end.x, budget.atLeast(EXPLAIN_MIN_MS));
  const levels = f && options.backend ? boundInTimeLeft({ p, phases }, end, f, options.backend, budget) : end.levels;
  const diagnostics: SubproblemDiagnostics = {
    group: sub.group,
    explain: stats,
    variables: f?.model.numCols ?? p.candShift.length,
    constraints: f?.model.numRows ?? 0,
    filled: end.filled,
    fill_bound: end.fillBound,
    status: status(proven),
    time_limited: budget.timeLimited(),
    phases: phases.map(roundPhase),
    ...(levels ? { levels } : {}),
    ms: budget.now() - started,
    ...(options.lpText && f ? { lp: f.model.toLpText(f.coverage[0]!.objective) } : {}),
  };
  return {
    group: sub.group,
    assignments: toAssignments(p, end.x),
    status: status(proven),
    filled: end.filled,
    fillBound: end.fillBound,
    suggestions,
    diagnostics,
    ...(solverFailure === undefined ? {} : { solverFailure }),
  };
}

/**
 * Where the clock stopped some of a subproblem's work with fairness unproven and no packing bound
 * by slot of it ended on its own (LevelState.packingSettled: none ran, or the clock cut it), the
 * packing bounds of the final schedule `x` in the time left of the subproblem's slice after the
 * explanations (its notes say so), but the one by kind of slot where it ended on its own already;
 * the schedule stays as it is. Water-filling ignores who can take which shift: on the unseen
 * scarce rosters with the rules, whose coverage runs to the clock in one joined subproblem, a
 * reported gap of 119-171% at 10 s, and 123% at 60 s on k-rules-scarce-200x400 (BENCHMARKS.md,
 * the eighteenth session); on the scarce festivals of one group a subproblem, whose staffing runs
 * to the clock, the bound by slot had 19-55 ms before fairness's MIP and stopped unconverged
 * (k-scarce-200x450: 7.65%; the nineteenth session). The time is mostly the explanations' share,
 * which they seldom use (119 ms of about 850 on k-rules-scarce), and what the levels left: not
 * coverage's in this subproblem (a reserve before fairness, tried first, could only take time
 * from coverage, which comes first). The bounds may take all of what the slice has left, in all
 * at most LATE_BOUND_MAX_MS: that time is this subproblem's own, since every later subproblem's
 * slice is planned as if the running ones used all of theirs (schedule.ts solveInLanes); only
 * what it would have left them beyond their plan goes. Measured at 10 s (the twentieth session):
 * with half of it wherever another subproblem started later, k-scarce-200x450's largest group
 * ("bar", 5,203 columns, converging in about 80 rounds) was cut after 145 ms and kept
 * water-filling's bound (22,806 against 26,250), 5.56% reported in all; with all of it, 2.71%.
 * On the scarce festivals of several subproblems coverage and fully staffed shifts stayed the same
 * or rose, and the sums of squares moved both ways, as the clock moves them. Not run
 * with less than MIN_PHASE_S left, nor once cancelled. The subproblem's status stays as the
 * levels left it, even where this proves fairness. Returns the levels with fairness's bound
 * raised, or `end.levels` itself.
 */
function boundInTimeLeft(
  { p, phases }: Pick<Run, 'p' | 'phases'>,
  end: Ending,
  f: Formulation,
  backend: SolverBackend,
  budget: Budget,
): LevelDiagnostics[] | undefined {
  const { levels, x } = end;
  const at = levels?.findIndex((l) => l.name === 'fairness') ?? -1;
  const level = levels?.[at];
  if (!levels || !level || level.proven || !budget.timeLimited() || budget.cancelled() || budget.remainingS() < MIN_PHASE_S) return levels;
  // Not where the level's bound by slot ended on its own: on a schedule with the same levels held it would end the same.
  const ran = end.packingSettled ?? {};
  if (ran.bySlot) return levels;
  // At most LATE_BOUND_MAX_MS: other requests' subproblems may be queued for this worker.
  const priced = fairnessObjective(f, columnValues(f, p, x));
  const value = priced + squaresShortfall(p, f, x);
  // A bound on the pieces rises at most to their price of the schedule: where even that could not
  // prove the squares (loads the pieces price below them), no late bound can.
  if (!fairnessLevel.proven(value, priced)) return levels;
  const late = budget.until(Math.min(budget.deadline, budget.now() + LATE_BOUND_MAX_MS));
  const before = phases.length;
  const bound = sharpenByPacking(p, f, x, backend, late, phases, level.bound, {
    goals: f.wishes.goals,
    alone: value,
    share: 1,
    ...(ran.byKind ? { skipByKind: true } : {}),
    // One by slot the clock cut starts afresh, and its Lagrangian bound is weak until it nears the
    // end: only with LATE_BOUND_GROWTH times the time it had (j-wishes-rules-festival-300x250: cut
    // after 628 ms in 6 of about 13 rounds; given 1 s again, cut again, and the answer 1 s later).
    ...(ran.bySlotCutMs !== undefined ? { bySlotMinMs: ran.bySlotCutMs * LATE_BOUND_GROWTH } : {}),
  });
  for (const ph of phases.slice(before))
    ph.note = `${ph.note ?? ''}; after the explanations, in the time they left, on the final schedule, which it does not change`;
  if (bound <= level.bound) return levels;
  return levels.map((l, i) => (i === at ? levelRecord('fairness', value, bound, fairnessLevel.proven(value, bound)) : l));
}

/** The late packing bound by slot runs again only with at least this many times the time the clock cut the level's after. */
const LATE_BOUND_GROWTH = 2;
/**
 * The late packing bounds take at most this long in all: the subproblem's answer, and other
 * requests' subproblems queued for its worker, wait for them. Measured at 10 s: 30-180 ms on the
 * scarce festivals' groups, 260-500 ms for e-rules-scarce-150x300's bound by slot to converge.
 */
const LATE_BOUND_MAX_MS = 1000;

/** Assignments as [volunteer request index, shift request index, group] for a 0/1 vector over pairs. */
function toAssignments(p: Prepared, x: ArrayLike<number>): Assignment[] {
  const out: Assignment[] = [];
  for (let pair = 0; pair < p.candShift.length; pair++) {
    const slot = p.sub.shifts[p.candShift[pair]!]!;
    if (x[pair]) out.push([p.sub.volunteers[p.candVolunteer[pair]!]!.index, slot.index, slot.group]);
  }
  return out;
}
