// The one small interface every solver backend implements. Outcomes are values, never
// exceptions: a phase that runs out of time, finds nothing or fails says so in `status`.
import type { Budget } from '../budget.js';
import type { MipModel, Objective } from '../mip-model.js';

export type BackendName = 'highs' | 'jslp';

export type PhaseStatus = 'optimal' | 'feasible' | 'timedout' | 'infeasible' | 'error';

export interface PhaseRequest {
  objective: Objective;
  /** Row bounds to apply for this phase (the rows fixing earlier levels). */
  rowBounds: ReadonlyMap<number, [number, number]>;
  /**
   * Column bounds for this solve only (the model's own bounds apply again afterwards): a
   * neighbourhood search fixes most pairs at their current values and re-solves the rest.
   */
  colBounds?: ReadonlyMap<number, [number, number]>;
  /** A feasible assignment to start from (all columns), where the backend can use one. */
  start?: Float64Array;
  /** The phase's time: its solver's time limit, and the deadline (or cancellation) at which it is interrupted. */
  budget: Budget;
  /** Gaps at which the phase counts as solved. */
  absGap: number;
  relGap: number;
  /** Solve the LP relaxation only (integrality dropped): its objective is a bound. */
  relaxation?: boolean;
  /**
   * For a relaxation: solve it by the primal simplex method without presolve, where a backend
   * can choose (the LP of part of a joined subproblem solved about a third faster so).
   */
  primal?: boolean;
  /**
   * For a relaxation: solve it by the primal simplex method after presolve, where a backend can
   * choose (a cold LP of one class's coverage: see ObjectiveLevel.coldLpPrimal). Stopped before
   * its optimum it gives no point (PhaseOutcome.relaxed is for `primal` only: after presolve, the
   * last point is not one of the model's).
   */
  presolvedPrimal?: boolean;
  /**
   * For a relaxation: stop after this many simplex iterations (a backend with capsLpIterations:
   * HiGHS; javascript-lp-solver cannot count them, and is not asked), a count of work as stallIterations, so the stop is
   * the same on any machine and at any time limit; the outcome is then `timedout` without a bound,
   * with `lpCapped` and a message saying so.
   */
  lpIterations?: number;
  /**
   * Stop once the MIP's LPs have run this many simplex iterations without a better incumbent: a
   * count of work, not of seconds, so a request stops at the same point whatever the machine's
   * load and whatever its time limit (identical requests, identical schedules).
   */
  stallIterations?: number;
  /**
   * The stall window for a level whose bound matters (fairness, to be within a gap of it; the
   * levels of wishes' MIP of the whole after their windows, to prove the level). While
   * the incumbent is more than `gap` (absolute, in the objective's units) from the better of the
   * MIP's bound and `bound` (one known from elsewhere), the window starts once the root LP is
   * solved rather than at the first iteration, is STALL_WIDE_FACTOR times stallIterations, and a
   * MIP bound that closes STALL_GAP_PROGRESS of that gap since the last progress counts as
   * progress too (the window starts again); where the incumbent is already that close, only a
   * better one does. A sub-MIP with columns fixed (RINS, windows) gets `bound` less what the
   * fixed columns contribute, as `stopAt`.
   *
   * Measured on a scarce festival not in the benchmark set (scarceB: 150 x 400, 8 groups, 10 s):
   * the fairness MIP of a group of 480-2,100 columns stopped 1.2-3.8% above its bound after
   * 0.15-0.35 s, where HiGHS alone proves it in 0.5-6 s, its bound rising through the root's cuts
   * (on two groups the root LP alone took 1,128 and 1,254 of the 2,000 iterations); with this
   * rule (at 1%, levels.ts FAIRNESS_STALL_GAP) the whole was 0.30-0.38% above its bound, not 1.25%.
   */
  stallGap?: { gap: number; bound: number };
  /**
   * The stall window (stallIterations) does not end before the MIP's root LP is solved (the first
   * report with an incumbent and a finite bound), and where the root LP used it all up without a better incumbent, it starts
   * again there, so that the MIP is not ended before its cuts and heuristics run (levels.ts
   * COVERAGE_CLASS_STALL_ITERATIONS); a shorter root LP counts in the window as usual.
   */
  stallFromRoot?: boolean;
  /** Stop as soon as an incumbent is at least (max) or at most (min) this good: a bound proves it. */
  stopAt?: number;
  /**
   * Keep HiGHS's cut pool small (highs-backend.ts CUT_POOL_LIMIT): for fairness, whose MIPs (and
   * their RINS and windows) start from a schedule near the LP's bound and mostly look for a better
   * one. Other levels keep the default: their neighbourhoods and proofs gain from the cuts.
   */
  fewerCuts?: boolean;
}

/** Real objectives: a change smaller than this is no improvement (round-off: a value of 57 came back as 57.00000000000485). */
export const REAL_TOL = 1e-9;

/** Whether objective value `a` is better than `b` by more than `tol` (REAL_TOL unless given), in direction `sense`. */
export const improves = (sense: Objective['sense'], a: number, b: number, tol = REAL_TOL): boolean => (sense === 'max' ? a > b + tol : a < b - tol);

/** The share of the gap (incumbent to bound) a bound must close to count as progress (PhaseRequest.stallGap). */
export const STALL_GAP_PROGRESS = 0.05;
/** How many times longer the stall window is while the gap is wide (PhaseRequest.stallGap). */
export const STALL_WIDE_FACTOR = 2;

export interface PhaseOutcome {
  status: PhaseStatus;
  /** Column values of the best solution found (integral where required), if any. */
  values?: Float64Array;
  /**
   * For a relaxation solved to optimality: its column values (fractional), where the backend gives
   * them. For one solved by the primal simplex method (PhaseRequest.primal) and stopped before its
   * optimum after iterations of its own: the last point it reached, where HiGHS reports it primal
   * feasible (none when stopped in phase 1), with no objective or bound.
   */
  relaxed?: Float64Array;
  objective: number | null;
  /** Best proven bound, where the backend reports one. */
  bound: number | null;
  gap: number | null;
  ms: number;
  /** For status error: what went wrong; for a solve the backend stopped by a limit of its own, which (for diagnostics). */
  message?: string;
  /** A relaxation stopped at its cap of simplex iterations (PhaseRequest.lpIterations), not by the clock. */
  lpCapped?: boolean;
}

export interface SolverSession {
  solve(request: PhaseRequest): PhaseOutcome;
  dispose(): void;
}

export interface SolverBackend {
  readonly name: BackendName;
  open(model: MipModel): SolverSession;
  /**
   * A linear program grown column by column (column generation), where the backend can give
   * row duals; the fairness level's packing bound uses it. Absent: that bound is not computed.
   */
  columnLp?(rowLower: Float64Array, rowUpper: Float64Array, first: readonly LpColumn[]): ColumnLp;
  /** RINS hands this backend at most this many free pairs (where its branch and bound is slow); absent: no limit of its own. */
  readonly rinsMaxFreePairs?: number;
  /** True where it honours PhaseRequest.lpIterations (HiGHS); absent: the engine asks it for no such cap. */
  readonly capsLpIterations?: boolean;
  /**
   * Why the solver stopped working in this thread (a trap in its WebAssembly, after which its
   * memory may be corrupt): no later call reaches it (solves end `error`). Undefined while it
   * works; absent for a backend without that failure. The subproblem under way says so
   * (SubproblemResult.solverFailure); a solver worker, or the in-thread runner, loads a fresh one
   * before its next subproblem (replacementFor).
   */
  failed?(): string | undefined;
  /**
   * A fresh instance of this backend, loaded anew, to take the place of a failed one
   * (replacementFor), or with another random seed for its solves (0 unless said: solveSubproblemAgainOnFailure).
   */
  reload?(seed?: number): Promise<SolverBackend>;
}

/** A fresh backend to take the place of `backend` once it failed (SolverBackend.failed); undefined while it works, or where it cannot be reloaded. */
export function replacementFor(backend: SolverBackend): Promise<SolverBackend> | undefined {
  return backend.failed?.() === undefined ? undefined : backend.reload?.();
}

/**
 * The backend `name` of a thread's loaded `backends`, a fresh one put in its place first where it
 * failed (replacementFor): a solver worker and the in-thread runner call it before each
 * subproblem. Undefined where that backend is not loaded.
 */
export async function workingBackend(backends: Partial<Record<BackendName, SolverBackend>>, name: BackendName): Promise<SolverBackend | undefined> {
  const loaded = backends[name];
  const fresh = loaded && replacementFor(loaded);
  return fresh ? (backends[name] = await fresh) : loaded;
}

/** One column of a ColumnLp: its cost, and its coefficients by row (rows increasing); it is >= 0. */
export interface LpColumn {
  cost: number;
  rows: readonly number[];
  values: readonly number[];
}

export interface ColumnLp {
  addColumns(columns: readonly LpColumn[]): void;
  /** Minimizes; the optimum's objective, row duals (reduced cost = cost - column . rowDual) and column values (in the order added), or undefined when not solved to optimality. */
  solve(budget: Budget): { objective: number; rowDual: Float64Array; colValue: Float64Array } | undefined;
  dispose(): void;
}

/** True when every integer column is within tolerance of an integer and bounds hold. */
export function integralWithinBounds(model: MipModel, values: ArrayLike<number>, tol = 1e-6): boolean {
  for (let j = 0; j < model.numCols; j++) {
    const v = values[j]!;
    if (!Number.isFinite(v) || v < model.colLower[j]! - tol || v > model.colUpper[j]! + tol) return false;
    if (model.colInteger[j] && Math.abs(v - Math.round(v)) > tol) return false;
  }
  return true;
}

/** Rounds integer columns of an integral solution exactly. */
export function roundIntegers(model: MipModel, values: Float64Array): Float64Array {
  for (let j = 0; j < model.numCols; j++) if (model.colInteger[j]) values[j] = Math.round(values[j]!);
  return values;
}
