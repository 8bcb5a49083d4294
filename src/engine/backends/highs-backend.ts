// HiGHS (npm `highs`, compiled to WebAssembly) as a persistent model: loaded once per worker,
// the model is passed once per subproblem, and each phase only changes costs and row bounds,
// starts from the incumbent (a MIP start) and may stop early through the interrupt callbacks
// (deadline, cancellation, a reached bound, a stall).
import highsModule, { type Highs, type OptionValue } from 'highs';
import { SOLVER_MIN_TIME_S, type Budget } from '../budget.js';
import type { MipModel } from '../mip-model.js';
import {
  improves,
  integralWithinBounds,
  type ColumnLp,
  type LpColumn,
  roundIntegers,
  STALL_GAP_PROGRESS,
  STALL_WIDE_FACTOR,
  type PhaseOutcome,
  type PhaseRequest,
  type PhaseStatus,
  type SolverBackend,
  type SolverSession,
} from './backend.js';

/** HiGHS's model statuses, in the order of their codes (highs.constants.modelStatus). */
const MODEL_STATUSES = [
  'notSet',
  'loadError',
  'modelError',
  'presolveError',
  'solveError',
  'postsolveError',
  'empty',
  'optimal',
  'infeasible',
  'unboundedOrInfeasible',
  'unbounded',
  'objectiveBound',
  'objectiveTarget',
  'timeLimit',
  'iterationLimit',
  'unknown',
  'solutionLimit',
  'interrupted',
] as const;
type ModelStatus = (typeof MODEL_STATUSES)[number];

/** HiGHS's simplex_strategy for the primal simplex method. */
const PRIMAL_SIMPLEX = 4;
/** HiGHS's simplex_strategy for the dual simplex method (its default). */
const DUAL_SIMPLEX = 1;
/**
 * For a fairness MIP that starts near its bound (PhaseRequest.fewerCuts), HiGHS's cut pool holds
 * at most about this many cuts (its option mip_pool_soft_limit; DEFAULT_CUT_POOL otherwise). There
 * a better schedule is what is missing, and HiGHS's sub-MIP heuristics find one only after the
 * root's rounds of cuts, which took most of the time (festival-50x30's "bar" group: root LP at
 * 0.1 s, 3,157 cuts, the optimum at 0.7 s); festival-50x30 took 262 ms warm instead of 350 ms.
 * Elsewhere the cuts pay: with this limit on every MIP, Curtois 9's proof of coverage took 3.9 s
 * instead of 1.9 s; on the RINS and windows of staffing too, a scarce festival
 * (n-scarce-250x500) kept 362 fully staffed shifts, not 368; on every fairness MIP, scarceB
 * ended 0.4% less fair (its MIPs start 3-7% above the LP's bound, and the cuts raise it).
 */
export const CUT_POOL_LIMIT = 500;
const DEFAULT_CUT_POOL = 10_000;
/**
 * Whether HiGHS runs its feasibility jump heuristic at the start of a MIP (its option
 * mip_heuristic_run_feasibility_jump, on by default). Off: every MIP here starts from a schedule
 * (PhaseRequest.start), and on small MIPs the heuristic was most of the solve. The MIPs of
 * festival-50x30, solved 40 times each in one thread (median, with it and without): a warm-up
 * MIP of 8 binaries 15.7 and 1.7 ms, coverage's RINS of 47 pairs 22.5 and 12.8 ms, fairness's
 * window of 204 columns 66 and 44 ms. festival-50x30 over HTTP, two runs of 30 calls a side on
 * fresh services: medians 98 and 111 ms with it, 79 and 86 ms without. On 32 rosters at 10 s
 * (BENCHMARKS.md, the thirty-third session) the slots by class and staffing were the same or
 * moved as two calls of one build do, but for an unseen scarce roster with the rules whose class
 * 2 (of 5; 5 first) got 50 slots in both calls without it, 47 in five with it; of 12 rosters with
 * the wishes, the hours short of min_hours were fewer without it on six (in one pair of calls at
 * least), more on one, the same on five.
 */
export const RUN_FEASIBILITY_JUMP = false;
/** HiGHS's default simplex_iteration_limit (kHighsIInf): no limit. */
const HIGHS_INT_MAX = 2_147_483_647;

/** Every HiGHS model status, mapped: [status when a valid solution came back, status without]. */
const STATUS_TABLE: Record<ModelStatus, [PhaseStatus, PhaseStatus]> = {
  notSet: ['error', 'error'],
  loadError: ['error', 'error'],
  modelError: ['error', 'error'],
  presolveError: ['error', 'error'],
  solveError: ['error', 'error'],
  postsolveError: ['error', 'error'],
  empty: ['optimal', 'optimal'],
  optimal: ['optimal', 'error'],
  infeasible: ['infeasible', 'infeasible'],
  unboundedOrInfeasible: ['error', 'error'],
  unbounded: ['error', 'error'],
  objectiveBound: ['feasible', 'timedout'],
  objectiveTarget: ['feasible', 'timedout'],
  timeLimit: ['feasible', 'timedout'],
  iterationLimit: ['feasible', 'timedout'],
  unknown: ['feasible', 'error'],
  solutionLimit: ['feasible', 'timedout'],
  // Interrupted by the deadline, cancellation, a reached bound or a stall (the callbacks below).
  interrupted: ['feasible', 'timedout'],
};

const statusOf = (code: number): [PhaseStatus, PhaseStatus] => {
  const name = MODEL_STATUSES[code];
  return name ? STATUS_TABLE[name] : ['error', 'error'];
};

// The package is typed as CommonJS but loaded as ESM: take the loader from either shape.
type Loader = () => Promise<Highs>;
const highsLoader = ((highsModule as unknown as { default?: Loader }).default ?? highsModule) as unknown as Loader;

export async function loadHighs(): Promise<Highs> {
  return highsLoader();
}

/**
 * A trap in HiGHS's WebAssembly (a RuntimeError such as "memory access out of bounds") leaves its
 * memory in an unknown state, and every later call on that instance with it. Found by a randomized
 * campaign (2026-11-30): one roster of 54 volunteers and 27 shifts with the rules, wishes and locks
 * made HiGHS 1.15.1 trap in a fairness MIP after its root restart (test/fixtures/solver). Before
 * this guard, the worker went on with that instance: in a rerun, 71 of the next 78 solves had coverage phases
 * fail the same way and fell back to the greedy fill, so identical requests got other schedules by
 * the worker they landed on, with no clock stop to say so. So an exception from HiGHS's calls
 * other than the library's own errors marks the instance failed (SolverBackend.failed): no later
 * call reaches HiGHS (the library's own clean-up after the exception, inside the call that threw,
 * is not ours to stop). The calls do not throw for it either: a session's solve ends `error`, a
 * column LP is not solved, a model opened on the failed instance is one whose every solve ends
 * `error`; so the subproblem under way finishes without the solver (its construction, local
 * search and explanations), and its result says the solver failed (SubproblemResult.solverFailure).
 * It is then solved again on a fresh instance of another seed, the better schedule kept, and the
 * answer warns where that is one the solver failed in (solveSubproblemAgainOnFailure). A solver
 * worker then loads a fresh instance of the usual seed (solve-worker.ts), as the in-thread runner
 * does before its next subproblem (subproblem-runner.ts).
 */
export function highsBackend(highs: Highs, seed = 0): SolverBackend {
  let failed: string | undefined;
  const calls: Calls = {
    run(body) {
      if (failed !== undefined) throw new Error(stoppedWorking(failed));
      try {
        return body();
      } catch (e) {
        if (suspect(highs, e)) failed = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        throw e;
      }
    },
    attempt(body, onFailed) {
      try {
        return calls.run(body);
      } catch (e) {
        if (failed === undefined) throw e;
        return onFailed(stoppedWorking(failed));
      }
    },
    release(dispose) {
      if (failed === undefined) calls.attempt(dispose, () => {});
    },
  };
  return {
    name: 'highs',
    capsLpIterations: true,
    failed: () => failed,
    reload: (newSeed = 0) => loadHighs().then((fresh) => highsBackend(fresh, newSeed)),
    open(model: MipModel): SolverSession {
      return calls.attempt(() => openSession(highs, model, calls, seed), failedSession);
    },
    columnLp(rowLower: Float64Array, rowUpper: Float64Array, first: readonly LpColumn[]): ColumnLp {
      return calls.attempt(() => openColumnLp(highs, rowLower, rowUpper, first, calls, seed), failedColumnLp);
    },
  };
}

const stoppedWorking = (why: string): string => `HiGHS stopped working in this thread after ${why}; no more calls are made on it`;

/** A model opened on a failed instance: every solve ends `error`, saying why. */
function failedSession(message: string): SolverSession {
  return {
    solve: () => ({ status: 'error', objective: null, bound: null, gap: null, ms: 0, message }),
    dispose: () => {},
  };
}

/** A column LP opened on a failed instance: never solved. */
function failedColumnLp(): ColumnLp {
  return { addColumns: () => {}, solve: () => undefined, dispose: () => {} };
}

/**
 * Whether an exception from calls into HiGHS leaves the instance suspect: anything but the
 * library's own errors (a trap in its WebAssembly is a RuntimeError, running out of its stack a
 * RangeError; a bug of ours in that code costs a fresh instance, no more).
 */
function suspect(highs: Highs, e: unknown): boolean {
  return !(e instanceof highs.errors.HighsError);
}

/**
 * Calls into one HiGHS instance (highsBackend): `run` throws at once once the instance failed, and
 * a trap marks it failed; `attempt` is `run`, but where the instance failed (before or in the
 * call) it returns `onFailed` of why; `release` frees a model, but never on a failed instance
 * (dropped whole).
 */
interface Calls {
  run<T>(body: () => T): T;
  attempt<T>(body: () => T, onFailed: (message: string) => T): T;
  release(dispose: () => void): void;
}

/** A persistent model (SolverSession) on one HiGHS instance: loaded once, then each phase changes costs and row bounds. */
function openSession(highs: Highs, model: MipModel, calls: Calls, seed: number): SolverSession {
  const h = highs.createModel({
    numCols: model.numCols,
    numRows: model.numRows,
    colCost: new Float64Array(model.numCols),
    colLower: model.colLower.map((x) => finite(highs, x)),
    colUpper: model.colUpper.map((x) => finite(highs, x)),
    rowLower: model.rowLower.map((x) => finite(highs, x)),
    rowUpper: model.rowUpper.map((x) => finite(highs, x)),
    matrix: { format: 'csr', numRows: model.numRows, numCols: model.numCols, starts: model.rowStarts, indices: model.indices, values: model.values },
    integrality: model.colInteger.map((i) => (i ? 1 : 0)),
    // No names: HiGHS never needs them (the LP text comes from MipModel), and passing tens of
    // thousands of strings into WebAssembly took tens of ms per model.
  });
  h.options.set({ output_flag: false, log_to_console: false, random_seed: seed });
  const all = model.numCols > 0 ? { kind: 'range' as const, from: 0, to: model.numCols - 1 } : undefined;
  return {
    solve(req: PhaseRequest): PhaseOutcome {
      const started = performance.now();
      try {
        return calls.run(() => solveOnce(highs, h, model, all, req, started));
      } catch (e) {
        return { status: 'error', objective: null, bound: null, gap: null, ms: performance.now() - started, message: (e as Error).message };
      }
    },
    dispose(): void {
      calls.release(() => {
        h.dispose();
      });
    },
  };
}

/** HiGHS's options for one solve (solveOnce): set on every solve, as they stay on the instance. */
export function solveOptions(req: PhaseRequest): Record<string, OptionValue> {
  return {
    time_limit: Math.max(SOLVER_MIN_TIME_S, req.budget.remainingS()),
    mip_rel_gap: req.relGap,
    mip_abs_gap: req.absGap,
    solve_relaxation: req.relaxation === true,
    mip_pool_soft_limit: req.fewerCuts ? CUT_POOL_LIMIT : DEFAULT_CUT_POOL,
    // HiGHS's own default where none is asked.
    simplex_iteration_limit: req.relaxation && req.lpIterations !== undefined ? req.lpIterations : HIGHS_INT_MAX,
    mip_heuristic_run_feasibility_jump: RUN_FEASIBILITY_JUMP,
    // Only the sessions of parts and of LPs alone (the classes', the wishes') ask for the primal without presolve, sessions of their own
    // whose every request after the first such one asks for it too, so the others keep HiGHS's presolve. The method is set on every
    // solve: a cold LP by the primal after presolve (presolvedPrimal) shares its session with MIPs, which get the dual again.
    simplex_strategy: req.primal || req.presolvedPrimal ? PRIMAL_SIMPLEX : DUAL_SIMPLEX,
    ...(req.primal ? { presolve: 'off' } : {}),
  };
}

/** One phase's solve on a persistent model (openSession). */
function solveOnce(
  highs: Highs,
  h: HighsModel,
  model: MipModel,
  all: { kind: 'range'; from: number; to: number } | undefined,
  req: PhaseRequest,
  started: number,
): PhaseOutcome {
  if (all) h.changeColsCost(all, req.objective.costs);
  h.changeObjectiveSense(req.objective.sense === 'max' ? highs.constants.objectiveSense.maximize : highs.constants.objectiveSense.minimize);
  for (const [row, [lo, up]] of req.rowBounds) h.changeRowBounds(row, finite(highs, lo), finite(highs, up));
  h.options.set(solveOptions(req));
  h.zeroAllClocks();
  const fixed = req.colBounds && req.colBounds.size > 0 ? [...req.colBounds.keys()].sort((a, b) => a - b) : undefined;
  if (fixed) setColBounds(highs, h, fixed, (j) => req.colBounds!.get(j)!);
  const restore = (): void => {
    if (fixed) setColBounds(highs, h, fixed, (j) => [model.colLower[j]!, model.colUpper[j]!]);
  };
  let result: PhaseOutcome;
  try {
    if (req.start) h.setSolution({ colValue: req.start });
    const run = h.run(interrupts(highs, req, req.objective.sense === 'max'));
    if (run.modelStatus === highs.constants.modelStatus.timeLimit) req.budget.ranOut();
    result = outcome(highs, h, model, req, run.modelStatus, started);
  } catch (e) {
    // An instance that trapped is not touched again (highsBackend), so its bounds are not restored.
    if (!suspect(highs, e)) restore();
    throw e;
  }
  restore();
  return result;
}

/** A column LP (SolverBackend.columnLp) on one HiGHS instance. */
function openColumnLp(highs: Highs, rowLower: Float64Array, rowUpper: Float64Array, first: readonly LpColumn[], calls: Calls, seed: number): ColumnLp {
  const h = highs.createModel({
    numCols: 0,
    numRows: rowLower.length,
    colCost: new Float64Array(0),
    colLower: new Float64Array(0),
    colUpper: new Float64Array(0),
    rowLower: rowLower.map((x) => finite(highs, x)),
    rowUpper: rowUpper.map((x) => finite(highs, x)),
    matrix: { format: 'csc', numRows: rowLower.length, numCols: 0, starts: Int32Array.of(0), indices: new Int32Array(0), values: new Float64Array(0) },
  });
  // Columns added keep the last basis primal feasible: the primal simplex from it, without presolve (which would start over).
  h.options.set({ output_flag: false, log_to_console: false, random_seed: seed, presolve: 'off', simplex_strategy: PRIMAL_SIMPLEX });
  const add = (columns: readonly LpColumn[]): void => {
    if (columns.length === 0) return;
    const starts = new Int32Array(columns.length + 1);
    columns.forEach((c, k) => {
      starts[k + 1] = starts[k]! + c.rows.length;
    });
    h.addCols({
      cost: Float64Array.from(columns, (c) => c.cost),
      lower: new Float64Array(columns.length),
      upper: new Float64Array(columns.length).fill(highs.infinity),
      matrix: {
        format: 'csc',
        numRows: rowLower.length,
        numCols: columns.length,
        starts,
        indices: Int32Array.from(columns.flatMap((c) => c.rows)),
        values: Float64Array.from(columns.flatMap((c) => c.values)),
      },
    });
  };
  add(first);
  return {
    addColumns: (columns) => {
      calls.attempt(
        () => {
          add(columns);
        },
        () => {},
      );
    },
    solve: (budget: Budget) =>
      calls.attempt(
        () => {
          h.options.set({ time_limit: Math.max(SOLVER_MIN_TIME_S, budget.remainingS()) });
          const run = h.run(interrupts(highs, { budget }, false));
          if (run.modelStatus === highs.constants.modelStatus.timeLimit) budget.ranOut();
          if (run.modelStatus !== highs.constants.modelStatus.optimal) return undefined;
          const solution = h.getSolution();
          return { objective: h.getObjectiveValue(), rowDual: Float64Array.from(solution.rowDual), colValue: Float64Array.from(solution.colValue) };
        },
        () => undefined,
      ),
    dispose(): void {
      calls.release(() => {
        h.dispose();
      });
    },
  };
}

type HighsModel = ReturnType<Highs['createModel']>;

/** A bound as HiGHS takes it: its own infinity for an infinite one. */
function finite(highs: Highs, x: number): number {
  return x === Infinity ? highs.infinity : x === -Infinity ? -highs.infinity : x;
}

/** Sets the bounds of the columns `cols` (increasing) in one call. */
function setColBounds(highs: Highs, h: HighsModel, cols: number[], bounds: (col: number) => [number, number]): void {
  const lower = new Float64Array(cols.length);
  const upper = new Float64Array(cols.length);
  cols.forEach((j, k) => {
    const [lo, up] = bounds(j);
    lower[k] = finite(highs, lo);
    upper[k] = finite(highs, up);
  });
  h.changeColsBounds({ kind: 'set', indices: Int32Array.from(cols) }, lower, upper);
}
type Callbacks = Parameters<HighsModel['run']>[0];

/**
 * The interrupt callbacks: the budget (deadline or cancellation; HiGHS's own time limit can
 * overshoot by a second or more on large models) and, for a MIP, its stop rule (mipStopRule).
 */
function interrupts(
  highs: Highs,
  req: Pick<PhaseRequest, 'budget' | 'stopAt' | 'stallIterations' | 'stallGap' | 'stallFromRoot'>,
  maximize: boolean,
): Callbacks {
  const { budget } = req;
  const stops = mipStopRule(req, maximize);
  const onBudget = (e: { interrupt(): void }): void => {
    if (budget.expired()) e.interrupt();
  };
  return {
    [highs.constants.callbackType.simplexInterrupt]: onBudget,
    [highs.constants.callbackType.ipmInterrupt]: onBudget,
    [highs.constants.callbackType.mipInterrupt]: (e: {
      interrupt(): void;
      data: { mip_primal_bound?: number; mip_dual_bound?: number; mip_total_lp_iterations?: bigint };
    }) => {
      if (budget.expired() || stops(e.data.mip_primal_bound, e.data.mip_dual_bound, Number(e.data.mip_total_lp_iterations ?? 0))) e.interrupt();
    },
  } as Callbacks;
}

/**
 * A MIP's stop rule, fed each progress report (incumbent, the MIP's bound, LP iterations so far);
 * true once it should stop: an incumbent that reaches `stopAt` (a bound proves it), or no
 * progress for `stallIterations` LP iterations. Progress is a better incumbent; with `stallGap`,
 * while the incumbent is more than `stallGap.gap` from the better of the MIP's bound and
 * `stallGap.bound` (wide), also the root LP solved (the MIP's first finite bound) and a bound
 * that closes STALL_GAP_PROGRESS of the gap since the last progress, and the window is
 * STALL_WIDE_FACTOR times as long (PhaseRequest.stallGap). With `stallFromRoot`, no window ends
 * before the root LP is solved, and one the root LP used up starts again there (PhaseRequest.stallFromRoot).
 */
export function mipStopRule(
  req: Pick<PhaseRequest, 'stopAt' | 'stallIterations' | 'stallGap' | 'stallFromRoot'>,
  maximize: boolean,
): (primal: number | undefined, dual: number | undefined, work: number) => boolean {
  const { stopAt, stallIterations, stallGap, stallFromRoot } = req;
  let best = Number.NaN;
  let bestAt = 0;
  /** The gap between incumbent and bound at the last progress. */
  let gapAt = Infinity;
  /** Whether the root LP is solved (the MIP's bound was finite once). */
  let rooted = false;
  return (primal, dual, work) => {
    if (typeof primal !== 'number' || !Number.isFinite(primal)) return false;
    if (stopAt !== undefined && (maximize ? primal >= stopAt - 1e-9 : primal <= stopAt + 1e-9)) return true;
    const finiteDual = typeof dual === 'number' && Number.isFinite(dual);
    // The better of the MIP's bound and the one known before it (either may be missing).
    const known = stallGap && Number.isFinite(stallGap.bound) ? stallGap.bound : undefined;
    let bound = finiteDual ? dual : known;
    if (finiteDual && known !== undefined) bound = maximize ? Math.min(dual, known) : Math.max(dual, known);
    // An incumbent past the bound (tolerances) has no gap left.
    const gap = bound === undefined ? Infinity : Math.max(0, maximize ? bound - primal : primal - bound);
    const wide = stallGap !== undefined && gap > stallGap.gap;
    const closing = wide && Number.isFinite(gap) && gap <= gapAt * (1 - STALL_GAP_PROGRESS);
    const rootSolved = (stallGap !== undefined || stallFromRoot === true) && !rooted && finiteDual;
    // With stallFromRoot, a window the root LP used up starts again there (PhaseRequest.stallFromRoot).
    const rootUsedWindow = rootSolved && stallFromRoot === true && stallIterations !== undefined && work - bestAt >= stallIterations;
    if (rootSolved) rooted = true;
    // Better as the levels count better (REAL_TOL): HiGHS may report an incumbent of the same
    // value off in the 12th digit (a coverage RINS on an unseen scarce festival with the rules and
    // wishes went from 57 to 57.00000000000485 at 4,892 LP iterations), which restarted the window.
    const better = Number.isNaN(best) || improves(maximize ? 'max' : 'min', primal, best);
    if (better || closing || (rootSolved && wide) || rootUsedWindow) {
      best = primal;
      bestAt = work;
      gapAt = gap;
      return false;
    }
    // With stallFromRoot, no window ends before the root LP is solved.
    if (stallFromRoot === true && !rooted) return false;
    return stallIterations !== undefined && work - bestAt >= stallIterations * (wide ? STALL_WIDE_FACTOR : 1);
  };
}

/** HiGHS's primal_solution_status for a feasible solution. */
const FEASIBLE_SOLUTION = 2;

/** Whether HiGHS stopped before its end: the clock, an iteration cap or an interrupt. */
function stoppedEarly(highs: Highs, modelStatus: number): boolean {
  const { timeLimit, iterationLimit, interrupted } = highs.constants.modelStatus;
  return modelStatus === timeLimit || modelStatus === iterationLimit || modelStatus === interrupted;
}

/** Reads the solve back as a phase outcome: only a valid, integral solution within bounds counts. */
function outcome(highs: Highs, h: HighsModel, model: MipModel, req: PhaseRequest, modelStatus: number, started: number): PhaseOutcome {
  const objective = h.getObjectiveValue();
  const [withSolution, without] = statusOf(modelStatus);
  if (req.relaxation) {
    // Its objective bounds the MIP; its column values are what RINS compares the schedule with (levels.ts).
    const ok = modelStatus === highs.constants.modelStatus.optimal && Number.isFinite(objective);
    const cap = modelStatus === highs.constants.modelStatus.iterationLimit ? req.lpIterations : undefined;
    return {
      status: ok ? 'optimal' : without,
      ...(cap !== undefined ? { lpCapped: true, message: `stopped at its cap of ${cap.toLocaleString('en-US')} simplex iterations, not by the clock` } : {}),
      objective: ok ? objective : null,
      bound: ok ? objective : null,
      gap: null,
      ms: performance.now() - started,
      // By the primal simplex method, stopped early (the clock, its cap) after some iterations of
      // its own at a point HiGHS reports primal feasible (not in phase 1): that point is a guide for
      // RINS (PhaseOutcome.relaxed), though no bound.
      ...(ok ||
      (req.primal === true &&
        stoppedEarly(highs, modelStatus) &&
        Number(h.info.get('simplex_iteration_count')) > 0 &&
        Number(h.info.get('primal_solution_status')) === FEASIBLE_SOLUTION)
        ? { relaxed: Float64Array.from(h.getSolution().colValue) }
        : {}),
    };
  }
  const values = Float64Array.from(h.getSolution().colValue);
  const solutionStatus = Number(h.info.get('primal_solution_status'));
  const valid = solutionStatus === 2 && Number.isFinite(objective) && integralWithinBounds(model, values);
  const status = valid ? withSolution : without;
  const bound = Number(h.info.get('mip_dual_bound'));
  const gap = Number(h.info.get('mip_gap'));
  return {
    status,
    ...(valid && status !== 'error' && status !== 'infeasible' ? { values: roundIntegers(model, values) } : {}),
    objective: valid ? objective : null,
    bound: Number.isFinite(bound) ? bound : null,
    gap: Number.isFinite(gap) ? gap : null,
    ms: performance.now() - started,
  };
}
