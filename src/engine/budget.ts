// The time budget of one solve, and every fraction it is divided by, in one place. A Budget is a
// deadline (epoch ms) on a clock plus a cancellation check: each level of the engine receives
// one and asks it whether to go on (`expired`), never computing a share of its own. The shares
// below were measured on the festival benchmarks (ENGINE-NOTES.md); they are named here so that
// retuning one is a one-line change that every level sees.

import { flagCheck } from './shared-flag.js';

/** Time kept back from the request's limit for assembling and explaining the result: this many ms... */
export const ASSEMBLY_RESERVE_MS = 500;
/** ...or this share of the limit, whichever is less (short limits keep most of their time). */
export const ASSEMBLY_RESERVE_SHARE = 0.05;
/** Share of a subproblem's time kept for the explanation step (suggest.ts). */
export const EXPLAIN_SHARE = 0.1;
/** The explanation step gets at least this long, even when solving used all the time. */
export const EXPLAIN_MIN_MS = 50;
/**
 * Most of the solving time the augmenting chains and trades may use: a safety cap, not a share
 * they are meant to fill. The search ends on its own (every chain fills a slot, every trade
 * frees hours), measured in 0.05-0.5 s on every benchmark instance (warm); at 0.15 a cold first
 * call stopped it half-way on the scarce festival (172 slots where it ends at 177) and on
 * Curtois 24 (22,573 where it ends at 22,590), so identical requests differed.
 */
export const AUGMENT_SHARE = 0.5;
/** Share of the time left that a level's LP relaxation (its bound) may use (a coverage class's LP from the optimum of the class before's: levels.ts COVERAGE_WARM_LP_SHARE). */
export const LP_SHARE = 0.3;
/**
 * Share of the time left for each level's MIP: coverage matters most, fairness takes what
 * remains. Each level of wishes (avoided, short of min_hours, preferred) gets the wishes' share.
 */
export const MIP_SHARES = { coverage: 0.85, staffing: 0.4, wishes: 0.4, fairness: 1 } as const;
/** A phase with less than this many seconds is not started: no solver finds anything that fast. */
export const MIN_PHASE_S = 0.02;
/** The least time limit handed to a solver (HiGHS rounds shorter limits to nothing useful). */
export const SOLVER_MIN_TIME_S = 0.05;
/** A solver that used this share of its limit is taken to have run into it (jslp does not say). */
export const RAN_TO_LIMIT_SHARE = 0.95;
/** Extra time after a subproblem's deadline before the pool stops its worker. */
export const DEADLINE_GRACE_MS = 2000;
/** Time a cancelled worker has to answer with its best schedule before it is stopped. */
export const CANCEL_GRACE_MS = 200;

const never = (): boolean => false;

/**
 * Whether the clock stopped any work: shared by a budget and every budget derived from it (its
 * shares, `until`, `atLeast`), so a subproblem's budget knows whether any of its phases, however
 * small its share, was cut short or left out for want of time. Nothing else in the engine
 * depends on the clock: with `hit` still false at the end, the same subproblem gives the same
 * schedule on any machine and with any time limit that leaves it so.
 */
export interface ClockStops {
  hit: boolean;
}

export class Budget {
  /**
   * @param end epoch ms (on `now`'s clock) by which the answer is due, or a function that reads
   *   it where it may move later (a slice extended to the request's deadline: startSlice); the
   *   budgets derived from such a one by share and atLeast move with it
   * @param now the clock (injectable for tests)
   * @param cancelled true once the caller gave up: the budget is then spent whatever the clock says
   * @param stops shared with the budgets derived from this one (ClockStops)
   */
  constructor(
    private readonly end: number | (() => number),
    readonly now: () => number = Date.now,
    readonly cancelled: () => boolean = never,
    readonly stops: ClockStops = { hit: false },
  ) {}

  /** Epoch ms by which the answer is due (it may move later: the constructor's `end`). */
  get deadline(): number {
    return typeof this.end === 'number' ? this.end : this.end();
  }

  /** A request's budget: its time limit less the reserve for assembling the result. */
  static forTimeLimit(limitS: number, options: { now?: () => number; signal?: AbortSignal } = {}): Budget {
    const now = options.now ?? Date.now;
    const limitMs = limitS * 1000;
    const { signal } = options;
    return new Budget(now() + limitMs - Math.min(ASSEMBLY_RESERVE_MS, limitMs * ASSEMBLY_RESERVE_SHARE), now, signal ? () => signal.aborted : never);
  }

  /** Milliseconds left (0 once the deadline passed). */
  remainingMs(): number {
    return Math.max(0, this.deadline - this.now());
  }

  remainingS(): number {
    return this.remainingMs() / 1000;
  }

  /**
   * Deadline passed or cancelled: the check every loop and solver callback makes before going on,
   * and only then (true stops the work, and the deadline's stop is recorded: ClockStops).
   */
  expired(): boolean {
    if (this.cancelled()) return true;
    if (this.now() < this.deadline) return false;
    this.stops.hit = true;
    return true;
  }

  /** Deadline passed, for a report after the work ended: unlike `expired`, not recorded as a stop. */
  pastDeadline(): boolean {
    return this.now() >= this.deadline;
  }

  /** Less than `seconds` left, so a step is not started: recorded as a stop by the clock when so. */
  tooShort(seconds: number): boolean {
    if (this.remainingS() >= seconds) return false;
    if (!this.cancelled()) this.stops.hit = true;
    return true;
  }

  /** Records a stop by the clock that a solver reports itself (its own time limit). */
  ranOut(): void {
    if (!this.cancelled()) this.stops.hit = true;
  }

  /** True once a time check of this budget or one derived from it stopped or left out some work. */
  timeLimited(): boolean {
    return this.stops.hit;
  }

  /** The same clock, cancellation and record of stops, another deadline (a fixed one, or one that may move: the constructor's `end`). */
  until(deadline: number | (() => number)): Budget {
    return new Budget(deadline, this.now, this.cancelled, this.stops);
  }

  /** The first `fraction` of the time from now to the deadline (where the deadline moves later, so does the share's end). */
  share(fraction: number): Budget {
    const t = this.now();
    const end = this.end;
    if (typeof end === 'number') return this.until(t + (end - t) * fraction);
    return this.until(() => t + (end() - t) * fraction);
  }

  /** This budget, but lasting at least `ms` from now (cancellation still ends it). */
  atLeast(ms: number): Budget {
    const least = this.now() + ms;
    const end = this.end;
    if (typeof end === 'number') return this.until(Math.max(end, least));
    return this.until(() => Math.max(end(), least));
  }
}

/**
 * A subproblem's part of a request's budget, sent to whichever worker solves it: its clock runs
 * from when the worker starts (a queued subproblem loses no time in the queue), and never past
 * the request's deadline.
 */
export interface BudgetSlice {
  /** Epoch ms by which every subproblem of the request must be done. */
  deadline: number;
  /** This subproblem's share of the time, counted from when a worker starts it. */
  ms: number;
  /**
   * A shared flag (shared-flag.ts) that, raised, lets the slice run to `deadline`: solveInLanes
   * raises it once another lane of the request is idle (every subproblem started) and no other
   * work waits for a worker. Shared memory, so the worker, whose solving is synchronous, reads it
   * at each time check; a solver's run under way keeps the time limit it started with (HiGHS's
   * own time limit is what stops it in time where its interrupt callbacks come too seldom: given
   * the time to the deadline instead, y-wishes-festival-900x700's largest group's MIP of preferred
   * shifts overran its share by up to 0.5 s, and fairness had none left).
   */
  extend?: SharedArrayBuffer;
}

/**
 * Divides the time left among subproblems: `lanes` run at once, so the lanes' time left is the
 * time left times the lanes, less what the subproblems still running were given and have not
 * used yet (`committedMs`, summed over them); a subproblem gets that times its weight (its size)
 * against the weight not yet started, and never more than the time left. Without the running
 * ones' time taken off, each was given the other lanes' time as well: when every subproblem used
 * all of its slice, the last ones got a fraction of their share (a scarce festival's smallest
 * group, solved last, had 0.6 s where its share was 1.2 s and left a slot it fills in 0.5 s).
 * Still not exact when fewer subproblems are left than lanes: three equal ones on two lanes
 * get 2/3, 2/3 and 1/3 of the limit (a lane then idles; the division does not look ahead).
 */
export function subproblemSlice(budget: Budget, lanes: number, weight: number, unstartedWeight: number, committedMs = 0): BudgetSlice {
  const left = budget.remainingMs();
  const lanesLeft = Math.max(0, left * lanes - committedMs);
  return { deadline: budget.deadline, ms: Math.min(left, (lanesLeft * weight) / Math.max(1, unstartedWeight)) };
}

/** The budget of a slice from the moment its work starts: `ms` from then, or to the deadline once its `extend` flag is raised (BudgetSlice.extend). */
export function startSlice(slice: BudgetSlice, now: () => number = Date.now, cancelled: () => boolean = never): Budget {
  const own = Math.min(slice.deadline, now() + slice.ms);
  if (slice.extend === undefined || own >= slice.deadline) return new Budget(own, now, cancelled);
  const extended = flagCheck(slice.extend);
  return new Budget(() => (extended() ? slice.deadline : own), now, cancelled);
}

/** A budget that is already spent: the greedy fill alone, no explanation (a cancelled fallback). */
export function spentBudget(cancelled = false, now: () => number = Date.now): Budget {
  return new Budget(0, now, cancelled ? () => true : never);
}
