// The objective levels of a subproblem's MIP, in the contract's order (coverage, then staffing,
// then previous assignments kept, then the wishes: avoided shifts, hours short of min_hours,
// preferred shifts; then fairness), and the one runner that solves each the same way: bound it with its LP
// relaxation, run the MIP from the best schedule so far unless the bound already proves that
// schedule, accept a better schedule, then hold the level's value while later levels run. A new
// level is one more entry in LEVELS: its objective, the row that holds it, its value and bound.
import { improves, REAL_TOL, type PhaseOutcome, type PhaseRequest, type PhaseStatus, type SolverBackend, type SolverSession } from './backends/backend.js';
import { LP_SHARE, MIN_PHASE_S, MIP_SHARES, type Budget } from './budget.js';
import { loadsOf, type Prepared } from './candidates.js';
import {
  columnValues,
  fairnessObjective,
  PREVIOUS_BIAS,
  squaresShortfall,
  type FairnessPieces,
  type Formulation,
  type WishLevel,
  type Wishes,
} from './formulate.js';
import { addFitting, checkAssignment, chronologicalShifts, filledByClass, greedyFill } from './greedy.js';
import {
  improveCoverage,
  improveFairness,
  improveStaffing,
  improveWishes,
  KICK_MOVES,
  kickFairness,
  seededRandom,
  type KeepWishes,
  type KickCaps,
} from './local-search.js';
import type { MipModel, Objective } from './mip-model.js';
import { coveragePart, heldClasses, type CoveragePart } from './coverage-part.js';
import { PACKING_ROUNDS, PACKING_WORK, packingBound, type PackingOutcome } from './packing-bound.js';
import {
  avoidedCount,
  newHours,
  preferredBound,
  preferredCount,
  previousBound,
  previousCount,
  SHORT_EPS,
  shortAt,
  shortfall,
  shortfallBound,
  type SoftGoals,
  wishesToKeep,
} from './soft-goals.js';

export type PhaseName =
  | 'greedy'
  | 'augment'
  | 'coverage_lp'
  | 'coverage_rins'
  | 'coverage'
  | 'coverage_lns'
  | 'staffing_moves'
  | 'staffing_lp'
  | 'staffing_rins'
  | 'staffing'
  | 'staffing_lns'
  | 'wishes'
  | 'previous_lp'
  | 'previous'
  | 'avoided_lp'
  | 'avoided'
  | 'avoided_rins'
  | 'avoided_lns'
  | 'short_lp'
  | 'short_rins'
  | 'short'
  | 'short_lns'
  | 'preferred_lp'
  | 'preferred_rins'
  | 'preferred'
  | 'preferred_lns'
  | 'balance'
  | 'fairness_bound'
  | 'fairness_kicks'
  | 'fairness_lp'
  | 'fairness_rins'
  | 'fairness'
  | 'fairness_lns';

/** A phase's outcome in diagnostics: a solver's status, or why the phase did not run to the end. */
export type PhaseDiagnosticsStatus = PhaseStatus | 'skipped' | 'cancelled';

export interface PhaseDiagnostics {
  name: PhaseName;
  /** The priority class a coverage phase is about, when the subproblem has several. */
  priority?: number;
  status: PhaseDiagnosticsStatus;
  objective: number | null;
  bound: number | null;
  gap: number | null;
  ms: number;
  note?: string;
}

/**
 * Fairness counts as solved within this relative gap of its lower bound (sum of squared hours).
 * Local search (transfers, swaps, chains) lands within about 1% of the bound; at the 1% this
 * was, the 50 x 30 festival ended at 2,874 where CBC proves 2,860, which the MIP reaches in
 * 0.6 s at 0.1% (at 0.5% it stopped at 2,864). Where the MIP cannot close the gap it stops at
 * its stall window (the 400 x 300 festivals: 0.8-1.7 s became 1.6-2.8 s for the same schedule).
 */
export const FAIRNESS_GAP = 0.001;
/**
 * The staffing and fairness MIPs stop after this many LP iterations without a better schedule:
 * they refine what coverage decided, and a coordinator should not wait out the whole limit for
 * them. Counted in work, not seconds, so that the same request stops at the same point on a busy
 * machine and with any time limit. Measured on the festival and scarce benchmarks: the 0.3 s
 * window this replaced stopped those MIPs after 1,000-3,400 iterations. At 3,000 the locked
 * 400 x 300 festival proves its fairness (a bound that rises from 3,034 to 3,039.6 between
 * iterations 2,051 and 3,000), but the 400 x 300 festival took 3.1 s instead of 1.7 s for the
 * same schedule; at 2,000 it is faster than before and the locked one ends feasible, as the 0.3 s
 * window also did on some runs.
 */
export const STALL_ITERATIONS = 2000;
/**
 * Coverage's RINS (the MIP of its lowest class, or of one class alone, has no stall window; a
 * class above: COVERAGE_CLASS_STALL_ITERATIONS) stops after this many LP iterations without a
 * better schedule. HiGHS spends a neighbourhood's first iterations on its root LP and rounds of
 * cuts before its own sub-MIP heuristic runs: on the unseen scarce 250 x 500 festival's "stage"
 * group (643 of 5,452 pairs free) the schedule of 325 slots came at iteration 2,330, so at
 * STALL_ITERATIONS RINS gave up at 313 and the MIP over every pair took 2.6 s more to find it
 * (at a 7 s limit it did not: 1,619 of 1,632 slots against 1,631 with this window).
 */
export const COVERAGE_RINS_STALL_ITERATIONS = 5000;
/**
 * Share of the time left for the LP relaxation of a coverage class after the first, which starts
 * from the optimum of the class before's (ObjectiveLevel.warmLp); every other LP has LP_SHARE.
 * Where that LP does not finish, no MIP of the whole runs for the class (RINS runs from its last
 * point, where HiGHS reports it feasible), and its windows have less time. Measured (10 s,
 * 2026-11-30, the thirtieth session in BENCHMARKS.md): on the unseen t-locked-rules-220x300 the
 * lowest class's LP took 3.3 s where 0.3 of the time left was 2.1 s; with it, RINS took that class
 * from 66 to 117 slots (the windows alone: 100; CBC given 60 s: about 120).
 * Where such an LP needs far more (p-locked-rules-250x400's second class: 10.5 s), the windows
 * after it get less time (there two slots fewer in that class). A cold LP (the first class's, or
 * one class alone) keeps LP_SHARE: on Curtois 13 (one class, an LP that does not finish in 10 s)
 * the larger share cost a slot.
 */
export const COVERAGE_WARM_LP_SHARE = 0.5;
/**
 * The stall window of the MIP of the whole for a priority class above the lowest (the lowest's
 * MIP has none, as coverage's alone has none): it ends after this many LP iterations without a
 * better schedule, and the classes below get the time it leaves. Measured (10 s, 2026-11-30, the
 * thirtieth session in BENCHMARKS.md, the window on that MIP alone): p-rules-scarce-120x250's
 * second class's MIP had run 4 s from 34 (bound 36) without a better schedule, and the lowest
 * class got no time; with it, 5 slots of that class, 364 in all (CBC's proven optimum given
 * 60 s). The same schedules on four more rosters with the rules and scarce supply, and on nine
 * (with the rules, locks or scarce supply) in a first trial that gave RINS the window too. At
 * 5,000 e-rules-scarce-150x300 gained 14 slots of its lowest class, but t-rules-scarce-110x240
 * lost one of its third class, and at 5,000 and 7,000 r-rules-scarce-130x260 two of its second
 * (the MIP finds them after that many iterations without a better schedule). The window counts
 * the iterations of the MIP's root LP too, as a stall window here does unless held open while wide (PhaseRequest.stallGap), but where the root LP
 * used it all up it starts again once the root is solved (PhaseRequest.stallFromRoot): counted
 * from the first iteration alone, it ended m-wishes-rules-scarce-150x300's second class's MIP
 * (7,247 columns, its root LP alone about 12,900 iterations) at its root at any time limit, at 65
 * slots with a bound of 73 also at 30 s, where HiGHS alone finds and proves 69 in 6.9 s and CBC
 * in 4 s (BENCHMARKS.md, the thirty-seventh session). Started at the root in every such MIP,
 * however short its root LP (an environment switch), at 10 s the classes above ran longer and
 * u-rules-scarce-140x300's lowest class fell from 13 slots to 1; with that and 55% of the time
 * left for the classes above instead of 85%, f-rules-scarce-100x250's second class lost a slot in
 * all three calls at 10 s (with 70%, in its one call). A root LP a little shorter than the window
 * still leaves the MIP little after it, and one that found a better schedule on its way leaves the
 * window counted from there: a cliff, not measured further.
 */
export const COVERAGE_CLASS_STALL_ITERATIONS = 10_000;
/**
 * A coverage class of a joined subproblem with at least this many candidate pairs, short of the
 * bound its part's LP gave (coverage-part.ts), runs RINS from that LP first: the part's pairs
 * where it and the schedule disagree, the rest fixed. When that reaches the bound, the class is
 * proven without the whole model's LP (the unseen wishes festival 300 x 250: 204 in 0.24 s
 * where the whole LP took 1.4 s, time the levels of wishes and fairness then had). Measured on
 * festivals with the rules of 3 groups (2026-11-29): at 150 x 100 (about 5,400 pairs) it proved
 * 5 classes of 19, where whole LPs take 0.13-0.56 s, and a RINS that failed cost 5-67 ms; at
 * 100 x 60 (about 2,300 pairs) it proved 2 of 15, where the whole LPs take 33-103 ms (one 331 ms),
 * and up to 1,100 pairs 13 of 398 (whole LPs of at most 58 ms), so below this size it costs
 * more than it saves. (Those costs were measured with the whole LP's RINS window, before
 * PART_RINS_STALL_ITERATIONS, which can only shorten them.)
 */
export const PART_RINS_MIN_PAIRS = 4000;
/**
 * RINS from the part's LP stops after this many LP iterations without a better schedule (the
 * RINS from the whole LP waits COVERAGE_RINS_STALL_ITERATIONS). It is a shortcut past the whole
 * LP: where it proves a class it does so at once (j-wishes-rules-festival-300x250's priority 1,
 * 204 in 0.21-0.24 s with either window; on 12 festivals of 150 x 100 with the rules it ran 14
 * times, at most 94 ms, with the same schedules). Where it does not, the whole LP's RINS does the
 * work: on k-rules-scarce-200x400 (996 free pairs) it took 2.2-2.3 s for +3 and left priority 3 at
 * 266-267 of 288 at 10 s; stopped after 0.1 s, the RINS after the whole LP reached 288 (three
 * calls a side, 2026-11-29).
 */
export const PART_RINS_STALL_ITERATIONS = 1000;
/**
 * Where coverage's RINS leaves it below its LP's bound, its windows run before the MIP over every
 * pair, within this share of the time left (the MIP gets what they leave, to prove the bound);
 * for a class above the lowest, only where RINS left it more than COVERAGE_MIP_FIRST_WITHIN
 * short (that MIP leaves out the classes below and has a stall window). With one class, HiGHS
 * finds the last slots only after its root's rounds of cuts: on scarce-150x400's
 * "gate" group the MIP stopped at 151 of 152 after 2.8 s of a 10 s request and the windows after
 * it (0.4 s) at 151 too, where the windows first reach 152 in 1.9 s; on the unseen
 * n-scarce-250x500's "bar" the same, 287 in 1.6 s where the MIP needs 3.5 s. At half the time
 * left, "bar" got 1.1 s in its 10 s request and stopped at 286; at the MIP's own share (0.85) the
 * request fills every slot. Where the windows gain nothing they end after two passes. After the
 * lowest class's LP stopped before its optimum with a last point, they run within this share
 * before RINS from that point (windowsBeforeRins in LevelRunner.solveLevel); after a class's above it, after that RINS.
 */
export const COVERAGE_WINDOWS_FIRST_SHARE = 0.85;
/**
 * A priority class above the lowest that RINS from its LP's optimum leaves within this many slots
 * of that LP's bound (rounded down) runs its MIP of the whole before its windows (which follow where it leaves the class unproven),
 * and after its LP stopped before its optimum, RINS from the LP's last point runs before the
 * windows (ObjectiveLevel.mipFirstWithin); the lowest class, and a subproblem of one class, keep
 * the windows first (COVERAGE_WINDOWS_FIRST_SHARE). Near the bound the last slots of a class need
 * the whole model, as the MIP stops on its stall window where it finds none (COVERAGE_CLASS_STALL_ITERATIONS)
 * while the windows go on for passes that gain one slot or none; far from it (f-rules-scarce-200x400's priority 3:
 * RINS 237 against the LP's 324) the windows gain many slots fast (+75 in 4.3 s, where the MIP first
 * found none in 3.9 s). Measured at 10 s on the 40 rosters with the rules (BENCHMARKS.md, the
 * thirty-eighth session): e-rules-scarce-150x300 and u-rules-scarce-140x300 reach CBC's 51 at
 * priority 2 (the MIP proves it in 3.2 s and 4.9 s from RINS's 49 and 47, where after the windows'
 * 50 it stopped at 50), and after a class LP stopped before its optimum, RINS from its last point
 * filled +91 and +103 slots of priority 2 in 3.1 s where the windows first filled +63 and +65.
 */
export const COVERAGE_MIP_FIRST_WITHIN = 10;
/**
 * The windows of the neighbourhood search (LevelRunner.windows) hold at most this many candidate
 * pairs. Measured on Curtois 13 (one group, 60,000 pairs, 10 s): 1,500 gained 9 slots, 2,000
 * gained 15-22, 2,500 18-21 and 3,000 10-14 (a window's MIP takes longer than it gains).
 */
export const WINDOW_PAIRS = 2000;
/**
 * Fairness's windows (phase fairness_lns): each holds the FAIRNESS_WINDOW_HEADS busiest
 * volunteers and others drawn in a seeded order, up to FAIRNESS_WINDOW_PAIRS candidate pairs,
 * FAIRNESS_WINDOWS_PER_PASS to a pass; they run only while the sum of squares is more than
 * FAIRNESS_LNS_GAP above its bound. Measured on scarce festivals not in the benchmark set (150 x
 * 400 with 8 groups, 10 s): the fairness MIP stopped at its stall window 1.5-6.8% above its bound
 * in five of eight groups; windows of 400 pairs brought two to the bound and the sum of squares
 * down 2.2% in all, windows of 700 pairs half as much (each window's MIP is slower than it
 * gains). On the festivals, already within 0.25% of their bound, the windows would triple the
 * time for 0.06%, so the gap leaves them out.
 */
export const FAIRNESS_WINDOW_PAIRS = 400;
/**
 * The stall window of the one guided window before the fairness LP and MIP (ObjectiveLevel
 * guideBeforeMip): where it finds the better schedule it does so at once, and where it does not
 * a longer window only delays the MIP. Measured (four calls in one process, 21:45-21:50 UTC on
 * the eleventh session's Xeon): festival-50x30's "bar" 1,300 -> 1,298 and "stage" 842 -> 836, both
 * proven, at 300, 600, 1,000 and 2,000 iterations; festival-locked-400x300's "gate" gains nothing
 * at any, in 185 ms at 2,000 (the call 783 ms against 475 ms), as fast as without it at 300.
 */
export const GUIDED_STALL_ITERATIONS = 300;
/**
 * Where wishes are kept, the packing bound by slot and its schedule before the fairness LP and MIP
 * (ObjectiveLevel.guideBeforeMip) run only on subproblems of at most this many candidate pairs.
 * Each wishing volunteer is a kind of volunteer of their own there, so the LP grows with the
 * subproblem. Measured at 10 s (two calls a side, twelfth session): wishes-festival-150x100's
 * four groups (all under it) 11,288 -> 11,282 in 1.6-2.2 s instead of 3.0-3.2 s, three of them
 * proven by the MIP over the columns (-6 to -52); on wishes-festival-400x300's larger groups,
 * with no limit, the MIP over the columns gave back the schedule itself on every group, and on
 * "bar" the bound stopped unconverged after 447 ms the fairness MIP then lacked (34,103 ->
 * 34,165-34,217). The other wish instances gave the same schedules or within one call's spread.
 */
export const WISH_GUIDE_MAX_PAIRS = 2000;
/** The packing bound by slot's MIP over its columns (PackingLimits.master) stops after this many LP iterations without a better solution. */
export const MASTER_STALL_ITERATIONS = 1000;
/** To 4 decimals, as the diagnostics give values and bounds. */
const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
/**
 * The windows of a level of wishes (phases avoided_lns, short_lns, preferred_lns; wishWindows)
 * hold at most this many candidate pairs. Measured on the two joined subproblems of rules and
 * wishes (10 s; the levels' values, hours short of min_hours and preferred shifts met):
 * wishes-rules-festival-400x300 500 pairs 178 h and 139, 1,000 173 h and 151, 1,500 173 h and
 * 145, 2,000 175 h and 150; the unseen rules-and-wishes festival 250 x 180 1,000 158 h (its LP
 * bound) and 87 in 3.7 s, 2,000 162 h and 91 with the time spent (a window of 2,000 pairs took
 * up to 0.5 s).
 */
export const WISH_WINDOW_PAIRS = 1000;

/**
 * The LP of the whole model that follows a level's windows (ObjectiveLevel.wholeAfterWindows)
 * stops after this many simplex iterations, a count of work rather than seconds, so a larger
 * time limit does not buy it more time for the same schedule. Measured on joined subproblems of
 * rules and wishes of 8,429-14,681 candidate pairs (the twenty-ninth session): the LPs that
 * finished took 1,861-4,314 iterations (0.27-1.26 s); those of the preferred shifts on two
 * others had not finished after 4,500-6,646 (1.0-1.3 s, stopped by the clock).
 */
export const WHOLE_AFTER_WINDOWS_LP_ITERATIONS = 5_000;
/**
 * The MIP of the whole model after a level's windows (ObjectiveLevel.wholeAfterWindows) keeps its
 * stall window (STALL_ITERATIONS) held open (PhaseRequest.stallGap) while its schedule is more
 * than this far from the level's bound: half a unit, so for the counted levels until the bound
 * proves it, and for the hours short until within half an hour. Its stall window had opened at
 * the MIP's first iteration and, on the joined subproblems of rules and wishes, closed before
 * the first sub-MIP past the root: measured on t-wishes-rules-festival-240x180 (30 s), HiGHS's
 * root LP took 2,086 LP iterations and the MIP stopped right after it at 77 preferred shifts,
 * 1.0 s in, where HiGHS alone proves 81 at 6.8 s; held open it proves 81 in 3.3 s.
 */
export const WHOLE_AFTER_WINDOWS_STALL_GAP = 0.5;
/**
 * Staffing's windows: WINDOW_PAIRS, or half the subproblem's pairs where that is less (one
 * window would hold them all, and the MIP over them all is what stopped short). Measured on the
 * scarce festivals (groups of 1,000-2,500 pairs, 10 s): scarce-150x400 209 -> 210 fully staffed
 * shifts (CBC's value at 300 s), and one more fully staffed slot kind on two of three unseen
 * scarce festivals, for 0.1-0.4 s.
 */
export function staffingWindowPairs(p: Prepared): number {
  return Math.min(WINDOW_PAIRS, Math.ceil(p.candShift.length / 2));
}
/**
 * Where staffing's windows (staffingWindowPairs) end on their own with staffing unproven, windows
 * of at most this many pairs (or half the subproblem's, where that is less but still more than
 * the first ones) search again (ObjectiveLevel.windowsThenSize), in a second staffing_lns phase.
 * On joined subproblems too large for staffing's LP or MIP of the whole (DEFAULT_MAX_JOINED_REFINE_PAIRS),
 * windows of 2,000 pairs settled below what CBC reaches on two unseen food banks with the rules
 * (4 weeks, 300 volunteers, 20,596 pairs: 108 fully staffed shifts, CBC 111 in 40 s; 2 weeks, 150
 * volunteers, 5,001 pairs: 96, CBC 97). Windows of 3,000 pairs from the start reached 110 and 97
 * (4,000: 109 and 97), and 132 instead of 129 on an unseen 180 x 140 festival of rules and wishes
 * (4,000: 131), the same staffing on 23 other rosters with the rules (10 s, BENCHMARKS.md, the
 * thirty-ninth session); but on rules-festival-400x300, whose first window already reaches its
 * 339, they end on another schedule of the same staffing, from which fairness ended 0.6% above
 * its bound where it had ended 0.25% above. After the first windows instead, the larger ones leave
 * the schedule as it was wherever they find nothing more.
 */
export const STAFFING_WINDOW_PAIRS_THEN = 3000;
/** The size of staffing's second windows (STAFFING_WINDOW_PAIRS_THEN), or undefined where they would be no larger than its first (staffingWindowPairs). */
export function staffingWindowPairsThen(p: Prepared): number | undefined {
  const size = Math.min(STAFFING_WINDOW_PAIRS_THEN, Math.ceil(p.candShift.length / 2));
  return size > staffingWindowPairs(p) ? size : undefined;
}
/**
 * Share of the time left that staffing's windows (phase staffing_lns) may use, each search of them
 * (the second, STAFFING_WINDOW_PAIRS_THEN, of the time left after the first); they end on their
 * own after two passes that gain nothing. At the staffing MIP's share (0.4) scarce-150x400's "bar"
 * group (10 s) was stopped by it after 0.93-1.0 s, at 67 of 68 fully staffed slot kinds in one
 * call and 68 in the next, so two identical calls of 4.4-5.3 s gave different schedules (210 and
 * 212 fully staffed shifts); wishes-scarce-150x400 the same (6.6-7.3 s). At 0.7 six calls of each
 * gave one schedule (212 and 210); on the clock-bound scarce festivals (8-9 s) the slots and fully
 * staffed shifts stay as they were, within one.
 */
export const STAFFING_WINDOWS_SHARE = 0.7;
/**
 * Staffing's windows also end after this many in a row that gain nothing (LevelRunner.windows,
 * ObjectiveLevel.windowsStall): the contract's stall window, counted in windows (not seconds, so
 * the same request stops at the same window on any machine). On the large joined subproblems a
 * pass is 20-43 windows of 2,000 pairs, and two idle passes took most of the time while the
 * gains came first (thirteenth session, 10 s): rules-festival-400x300 +2 at its first window of
 * 43 (5.3 s in all; now 11 windows, 1.4 s, and fairness gets the rest), Curtois 12 none in 23,
 * the scarce festivals at their first or second.
 */
export const STAFFING_WINDOWS_STALL = 10;
/**
 * Staffing's LP of the whole model, where it runs once more after every level (ObjectiveLevel.lateWhole),
 * stops after this many simplex iterations: a count of work, so a larger time limit buys it no
 * more for the same schedule. Measured on unseen food banks with the rules (BENCHMARKS.md, the
 * fortieth session; three groups joined), by HiGHS's default, the dual simplex method: on 10,989
 * candidate pairs it needed 5,000-8,000 iterations (0.7-0.9 s), on 20,596 10,000-15,000 (about
 * 1.5 s); by the primal simplex method, as it now runs, the latter's ends within 10,000 (0.67 s).
 */
export const STAFFING_LATE_LP_ITERATIONS = 20_000;
/**
 * Share of the time left for that LP (ObjectiveLevel.lateWhole), where every other level is done
 * and only its RINS and MIP follow, which need its optimum. On the food bank of 20,596 pairs at
 * 10 s about 2 s were left and LP_SHARE stopped it after 0.3 s.
 */
export const LATE_WHOLE_LP_SHARE = 0.8;

/**
 * Whether staffing's windows run with javascript-lp-solver. They do not: on 38 instances at 10 s
 * (2026-11-29; 24 small festivals with and without the rules, Curtois 1-8, 11, 14, 16, three
 * generated) they ran on 11 (Curtois 2, 6 and 8 and eight festivals, windows of 111-1,680 pairs)
 * and gained nothing on any, in 0.8-4.2 s each: jslp's branch and bound, capped at
 * JSLP_MIP_MAX_MS a window, found no better schedule in a window.
 */
export const STAFFING_JSLP_WINDOWS = false;

/**
 * Staffing's LP with javascript-lp-solver: on a model of more rows than this, the level keeps to
 * its moves (no LP, so no RINS or MIP). Measured on 38 instances at 10 s (BENCHMARKS.md, the
 * eighteenth session; 24 small festivals with and without the rules, Curtois 1-8, 11, 14, 16,
 * three generated): models of 16-134 rows solved in 2-261 ms; one of 146 rows in 1.6-1.7 s and
 * one of 161 in 2.4 s or stopped, neither gaining anything (the same schedules skipped); none of
 * 203-1,966 rows finished in its share (0.6-2.7 s at 10 s; 16 s at 60 s, where on the rules
 * festival 30 x 21's 251 rows jslp's simplex itself ends calling the LP infeasible; HiGHS solves
 * it in milliseconds). With the LP skipped the 38 gave the same schedules, in 0.6-2.8 s less.
 */
export const MAX_STAFFING_JSLP_ROWS = 140;

/** What a level keeps from with javascript-lp-solver (ObjectiveLevel.jslp). */
export interface JslpLimits {
  /** No LP or MIP of the level on a model of more columns than this (its cheap bound and local search only). */
  maxCols?: number;
  /** The same over this many rows. */
  maxRows?: number;
  /** False: no windows (its branch and bound does not finish them). */
  windows?: boolean;
}
export const FAIRNESS_WINDOW_HEADS = 3;
export const FAIRNESS_WINDOWS_PER_PASS = 6;
export const FAIRNESS_LNS_GAP = 0.005;
/**
 * The fairness MIP's stall window is held open (PhaseRequest.stallGap) while its schedule is
 * more than this share of the bound above it: twice the windows' gap (RINS and the windows
 * inherit it). Measured (10 s): at 0.5% festival-400x300 took 1.6-1.7 s instead of 1.4 s for the
 * same schedule (its "bar" group 0.51% above the bound); at 1% the festivals' times and schedules
 * are as before, and the scarce and wish festivals gain as at 0.5% (scarceB 1.25% -> 0.30-0.38%
 * above its bound, scarceC 0.95% -> 0.43-0.46%, in single runs).
 */
export const FAIRNESS_STALL_GAP = 0.01;
/**
 * Share of the subproblem's time left that fairness's windows may use: the last level, it leaves
 * the rest to the subproblems after it (the smallest go last, and take the time left).
 */
export const FAIRNESS_LNS_SHARE = 0.5;
/** Integer objectives: a bound within this of an integer counts as that integer. */
const INTEGER_TOL = 1e-6;
/** A pair whose value in the LP's optimum is within this of the schedule's agrees with it (LevelRunner.rins). */
const RINS_TOL = 1e-6;
/**
 * RINS runs only while the pairs the LP and the schedule disagree on are at most this share of
 * the subproblem's (more, and the sub-MIP is the MIP itself).
 */
export const RINS_MAX_FREE = 0.5;

export const sum = (x: ArrayLike<number>, n = x.length): number => {
  let t = 0;
  for (let i = 0; i < n; i++) t += x[i]!;
  return t;
};

/** One objective level as the solve left it (diagnostics): its value, its proven bound, the relative gap, and whether it is proven. */
export interface LevelDiagnostics {
  name: 'coverage' | 'staffing' | 'previous' | 'avoided' | 'short' | 'preferred' | 'fairness';
  /** For a coverage level of several priority classes: the class. */
  priority?: number;
  value: number;
  bound: number;
  gap: number;
  proven: boolean;
}

/** The best schedule so far, with what every level needs to read it. */
export interface LevelState {
  p: Prepared;
  f: Formulation;
  x: Uint8Array;
  values: Float64Array;
  /** Slots filled and their proven upper bound, as the coverage level left them. */
  filled: number;
  fillBound: number;
  budget: Budget;
  phases: PhaseDiagnostics[];
  /** Each level's outcome, in order, as the runner finishes it. */
  levels?: LevelDiagnostics[];
  onIncumbent(phase: PhaseName): void;
  /**
   * When set, the levels after coverage (staffing, avoided and preferred shifts, hours short,
   * fairness; not the previous assignments) keep to their cheap bounds, local search and, where
   * ObjectiveLevel.localWindows, their windows, without an LP or MIP of the whole model, but for
   * the levels of wishes where their windows settle (ObjectiveLevel.wholeAfterWindows); the text
   * says why (diagnostics).
   */
  localRefinement?: string;
  /** The packing bound by slot's last LP solution read as candidate pairs (PackingOutcome.pairs): the guide of fairness's windows (where no fairness LP runs, and the one before its LP and MIP). */
  packingPairs?: Float64Array;
  /** Where that solution is integral, or its columns as a MIP gave a better one: the schedule it describes (PackingOutcome.schedule), until LevelRunner.takePackingSchedule reads it. */
  packingSchedule?: Uint8Array;
  /**
   * The packing bounds of fairness (by kind of slot, by slot) that ended on their own: converged,
   * or stopped at their rounds or work limit, where another run would stop again (not
   * PackingOutcome.clockStopped). Fairness holds coverage, staffing and the wishes at least as
   * they were, and its schedules keep them so in practice (they are held rows), so on its final
   * schedule such a bound would end the same.
   */
  packingSettled?: PackingSettled;
}

/** Which of fairness's packing bounds ended on their own (LevelState.packingSettled), and how long the last one by slot the clock cut had run. */
export interface PackingSettled {
  byKind?: true;
  bySlot?: true;
  bySlotCutMs?: number;
}

/** What a level asks of its MIP, and of the RINS and windows that re-solve parts of it. */
type LevelMipRequest = Pick<PhaseRequest, 'absGap' | 'relGap' | 'stopAt' | 'stallIterations' | 'stallGap' | 'stallFromRoot' | 'fewerCuts'>;

export interface ObjectiveLevel {
  /** For a coverage level of several priority classes: the class, which diagnostics name. */
  priority?: number;
  /**
   * Candidate pairs the level's MIP of the whole leaves out, fixed at 0 (LevelRunner.mipWithout):
   * a priority class above the lowest leaves out the pairs of the classes below. Those cost nothing
   * in the class's objective and only take room in the rows (every rule is monotone: a schedule less
   * any pairs keeps them all), so the class's optimum is the same without them; HiGHS's presolve
   * does not take them out itself, and searches a model up to about half as large. Measured on an
   * unseen scarce roster with the rules (110 x 240, one joined subproblem of 6,981 pairs, 10 s): the
   * third class's MIP reached its bound of 99 in 1.0 s instead of 4.8 s, and the classes below,
   * given that time, filled 29 slots instead of 8-21. Its schedule gets back the schedule's own
   * assignments of those classes wherever they still fit (addFitting) before the greedy fill
   * completes it. The previous assignments' pairs (which carry the bias) stay in. Tried and not
   * kept: leaving them out of the class's RINS and windows too (the windows re-solved fewer
   * neighbourhoods in their time: a 250 x 400 roster with locks and the rules lost 10-40 slots of
   * its second class).
   */
  dropped?(s: LevelState): Uint8Array | undefined;
  /**
   * The value the diagnostics report for the model's `value`, where the model only approximates
   * what the level stands for (fairness: the schedule's sum of squares, which the pieces price
   * below it at some loads); proven only where this value meets the bound too.
   */
  reportedValue?(s: LevelState, value: number): number;
  /**
   * Its LP relaxation runs in a session of LPs alone (LevelRunner.lpSessionFor), so it starts
   * from the optimal basis of the LP of the level before, on the same model (the coverage levels
   * of several priority classes: the next class's objective, one more held row). The level's own
   * session runs MIPs too, after which HiGHS starts an LP over. Measured on a scarce roster with
   * the rules (150 x 300, one joined subproblem): the third class's LP in 0.33 s instead of 1.1-1.6 s.
   * Once the session has solved an LP to its optimum, the next runs by the primal simplex method
   * from the basis where the last one ended (without presolve). Where that last LP was the level
   * before's, solved to its optimum, it stays feasible (the level before is held at the
   * schedule's value, which its LP optimum meets) and only the objective is new; where a level in
   * between had no LP (proven by its cheap bound, say) or a held level's schedule improved since,
   * a held row may be broken there, and the primal simplex first mends it (its phase 1; stopped
   * there, it gives no point: PhaseOutcome.relaxed), still from that basis. HiGHS's
   * default, the dual simplex method, took about three times as long from the same basis. On
   * that roster (a second machine): the third class's LP 0.20-0.25 s instead of 0.65-0.78 s, the
   * fourth's 0.46-0.57 s instead of 0.68-1.02 s, the fifth's 0.70-0.97 s where it had run out of
   * its share at 1.27-1.55 s (and took 1.98 s at a 90 s limit). The levels of wishes with
   * windows (avoided shifts, hours short, preferred shifts) ask for it too, on the wishes' model,
   * on every subproblem (their LPs before windows, on the smaller ones, as well as after them).
   */
  warmLp?: boolean;
  /**
   * Its LP relaxation, where it starts cold (not warmLp, not the late pass), by the primal simplex
   * method after presolve (PhaseRequest.presolvedPrimal): coverage's with one priority class.
   * Measured (BENCHMARKS.md, the forty-third and forty-fourth sessions): the LP alone of the "medical" group of an
   * unseen scarce 1,000 x 1,200 festival (23,600 pairs) 2.3 s so, 6.6 s by HiGHS's default (the
   * dual simplex), 3.0 s by the primal without presolve or by the interior point method. In the
   * engine (10 s, three calls a side on eleven scarce one-class rosters) the optimum it ends at, a
   * different vertex of the same value, guided RINS to more fully staffed shifts on seven (e.g.
   * t-scarce-180x420 290-294 -> 295 in every call, p-locked-scarce-200x400 285-288 -> 289-290),
   * one slot more on u-scarce-180x420 (1,122 -> 1,123) and one fewer on x-wishes-scarce-200x500
   * (828 -> 827: its RINS stalled one short in its "stage" group); Curtois 9 and 10 (not
   * clock-bound) the same slots and fully staffed shifts, sums of squares 8 and 24 higher
   * (0.002-0.003%); on 48 other one-class rosters (festivals, food banks, Curtois 1-8, 11, 14-24; one
   * call a side) the same slots and fully staffed shifts. On five unseen scarce one-class
   * festivals (three calls a side) coverage rose in every call on three (c-scarce-240x520
   * 1,523-1,538 -> 1,554-1,561: its "bar" group's LP stopped by its share at 1.72 s by the dual,
   * finished at 1.25 s by the primal, RINS from it proved 473 against 455), the same on the
   * others within their spread. With several classes the first class's LP keeps the dual simplex (a scan
   * with every cold coverage LP by the primal, that one too: better on 34 of 128 rosters, worse
   * on 31).
   */
  coldLpPrimal?: boolean;
  /** Share of the time left for its LP relaxation where it starts from the optimum of the level before's (warmLp; otherwise LP_SHARE). */
  warmLpShare?: number;
  lpPhase: PhaseName;
  mipPhase: PhaseName;
  /** Share of the time left for this level's MIP. */
  mipShare: number;
  /** The stall window (LP iterations without a better schedule) of its MIP of the whole, where its mipRequest sets none (RINS and the windows keep theirs). */
  mipStallIterations?: number;
  /** The MIP of the whole's stall window does not end before its root LP is solved, and starts again there where the root LP used it up (PhaseRequest.stallFromRoot). */
  mipStallFromRoot?: boolean;
  objective(f: Formulation): Objective;
  /** The row that holds this level's value while later levels run (none for the last level). */
  holdRow?(f: Formulation): number;
  /** Slack on the held value, for a level of real values (hours) summed in floating point. */
  holdTolerance?: number;
  /** For a coverage level: its hold row in the coverage model (Formulation.cover), where this level runs when there is one. */
  coverHoldRow?(f: Formulation): number;
  /**
   * Sparse row bounds that hold the level exactly as its row would, when it has some (the row is
   * then left free): an LP with them solves faster than with one dense row.
   */
  sparseHold?(s: LevelState): Array<[row: number, bounds: [number, number]]> | undefined;
  /**
   * The same, used only on the wishes' model (so a request without wishes solves exactly as
   * before): the held level at its cheap bound as bounds on headcount rows.
   */
  wishSparseHold?(s: LevelState): Array<[row: number, bounds: [number, number]]> | undefined;
  /** The level's value for column values `v`. */
  value(s: LevelState, v: ArrayLike<number>): number;
  /** A cheap bound before any solver runs. */
  initialBound(s: LevelState): number;
  /** Combines the bound held with one a solver reported. */
  tighten(bound: number, reported: number): number;
  /** Whether the MIP's own bound tightens the level's bound. */
  boundFromMip: boolean;
  proven(value: number, bound: number): boolean;
  /** The MIP's request (RINS and the windows take it too), from the level's bound and the schedule's value. */
  mipRequest(bound: number, value: number): LevelMipRequest;
  /** For a coverage level of a subproblem of several groups: the part where the class is short, whose LP bounds it cheaply. */
  part?(s: LevelState): CoveragePart | undefined;
  /** A level after coverage (staffing, the wishes but the previous assignments, fairness): LevelState.localRefinement applies to it. */
  refines?: boolean;
  /**
   * Where no LP or MIP of the level follows (LevelState.localRefinement, or a model over
   * maxSolverCols) and its cheap bounds leave it unproven: a last local improvement against `bound`.
   */
  polish?(s: LevelState, bound: number): void;
  /** After `before` and `sharpen`, while the level is unproven and its LP and MIP are to follow: a local improvement that may spare them. */
  beforeSolver?(s: LevelState, bound: number): void;
  /**
   * Where the level keeps to local search (LevelState.localRefinement), after `polish`: windows
   * of the pairs where `guide` (LevelState.packingPairs, the packing bound's LP read as pairs)
   * and the schedule disagree, for pass `pass`, at most `size` pairs each, re-solved as the
   * level's windows are (LevelRunner.windows, in windowsPhase).
   */
  guidedWindowsOf?(s: LevelState, guide: Float64Array, pass: number, bound: number, size: number): Uint8Array[];
  /**
   * Before the level's LP and MIP, after `beforeSolver`, while unproven: a bound that also guides
   * (sets LevelState.packingPairs), returned tightened; where its guide and the schedule disagree
   * on few enough pairs for one window, that window is re-solved first (LevelRunner.windows).
   */
  guideBeforeMip?(s: LevelState, bound: number, backend: SolverBackend): number;
  /**
   * When its LP and MIP leave the level unproven: re-solve windows of the schedule as small MIPs
   * with every other pair fixed (LevelRunner.windows), in this phase.
   */
  windowsPhase?: PhaseName;
  /**
   * Where the level keeps to local search (LevelState.localRefinement: a large joined subproblem),
   * its windows still run after it: each is a small MIP, which the whole model's size does not slow.
   */
  localWindows?: boolean;
  /**
   * Where the level keeps to local search (LevelState.localRefinement) and its windows (localWindows)
   * end on passes that gain nothing with the level unproven: its LP of the whole model follows,
   * capped at WHOLE_AFTER_WINDOWS_LP_ITERATIONS, then its RINS and its MIP with a stall window of
   * STALL_ITERATIONS (held open while more than WHOLE_AFTER_WINDOWS_STALL_GAP from the level's
   * bound), as on a smaller subproblem (the levels of wishes; with a backend whose LP
   * can be capped by a count of work, SolverBackend.capsLpIterations: HiGHS; javascript-lp-solver
   * keeps to the windows). Measured on joined subproblems of rules and wishes of 6,146-20,829
   * candidate pairs (BENCHMARKS.md, the twenty-ninth session): where the windows settle, the
   * whole model's LP takes 0.3-1.3 s and proves or improves the level the windows left (hours
   * short 145 -> 138 proven, 263 -> 259 proven; preferred shifts 64 -> 67); where the clock stops
   * the windows, nothing follows.
   */
  wholeAfterWindows?: boolean;
  /**
   * Where the level keeps to local search (LevelState.localRefinement) and its windows end on
   * their own with it unproven, or where its MIP of the whole ran (it was not skipped: its LP
   * finished), left it unproven (its stall window, or its share of the time) and the windows after
   * that MIP end so, and every level after it ends proven, so they have nothing left to do:
   * its LP of the whole model (capped at this many simplex iterations, so only with a backend
   * that caps an LP by a count of work, SolverBackend.capsLpIterations: HiGHS), RINS and MIP run
   * once more after every level (runLevels), with the levels before it held, where at least
   * MIN_PHASE_S is left for the LP; where that changes the schedule, the levels after it run
   * again from it, in the time left (their bounds of fairness anew; a level ranked below it, as
   * the previous assignments are below staffing, may lose what it had).
   * Staffing's (STAFFING_LATE_LP_ITERATIONS): its LP on a large joined subproblem takes longer
   * than the levels after it can spare where they have work (wholeAfterWindows there cost the
   * wishes their time), but a food bank whose fairness is proven at once answered in half its
   * time with staffing a shift short of CBC's (BENCHMARKS.md, the fortieth session). After its
   * MIP of the whole too: on an unseen eight-week food bank (BENCHMARKS.md, the forty-third
   * session) the MIP of group "warehouse" stopped on its stall window at 66 of the LP's 69 slot
   * kinds, the windows after it reached 68 and settled, and the request answered at 3.5 s of 10
   * with 203 fully staffed shifts to CBC's 204; the late pass's RINS finds the 69th in 13 ms.
   */
  lateWhole?: number;
  /** The most candidate pairs a window of this level's (first) windows holds (default WINDOW_PAIRS; a second search: windowsThenSize). */
  windowsSize?(p: Prepared): number;
  /**
   * Where the level's own windows end on their own (passes or windowsStall, not the clock) with the
   * level unproven: windows of at most this many pairs search again, once, in a phase of their own,
   * with the level's share of the time left then (undefined: none; STAFFING_WINDOW_PAIRS_THEN).
   */
  windowsThenSize?(p: Prepared): number | undefined;
  /**
   * This level's windows for pass `pass` (as marks per candidate pair, at most `size` pairs
   * each), when they are not the default ones (windows of volunteers and of time, alternately).
   * None at the first pass: no search; a pass with none gains nothing (two such end it).
   */
  windowsOf?(s: LevelState, pass: number, bound: number, size: number): Uint8Array[];
  /**
   * After its LP, before its MIP: the MIP over the pairs where the LP's optimum and the schedule
   * disagree, every other pair fixed as both have it, in this phase (LevelRunner.rins).
   */
  rinsPhase?: PhaseName;
  /**
   * RINS after the MIP rather than before it on subproblems of fewer than this many candidate
   * pairs (where the MIP itself often proves the level soon), before it from there on (where the
   * MIP is slow to find better). Unset: RINS before the MIP everywhere.
   */
  rinsAfterMipBelow?: number;
  /** RINS's stall window in LP iterations, where the level's MIP request sets none (default STALL_ITERATIONS). */
  rinsStallIterations?: number;
  /** Share of the time left for the windows (default: the MIP's share). */
  windowsShare?: number;
  /** The windows (the level's own, not guided ones) also end after this many in a row that gain nothing. */
  windowsStall?: number;
  /**
   * The windows run before the MIP, within this share of the time left, where the level is still
   * unproven after its LP (finished) and RINS; the MIP follows only if they leave it unproven
   * too, and no windows run after it. After an LP stopped before its optimum that gave a last
   * point, they run within this share before RINS from that point, and no MIP or windows follow.
   * A level with mipFirstWithin keeps them first only where RINS left it farther from the bound,
   * and never runs them before RINS from a last point.
   */
  windowsFirstShare?: number;
  /**
   * With windowsFirstShare: where the schedule after the LP's optimum and RINS (where RINS ran) is
   * within this much of the LP's bound, the MIP of the whole runs before the windows instead (they
   * run after it where it leaves the level unproven, within windowsShare, else the MIP's share, of
   * the time left); and, whatever its value, after an LP stopped before its optimum RINS from its
   * last point runs before the windows (they run after it). COVERAGE_MIP_FIRST_WITHIN says why,
   * for the classes above the lowest, the only levels with it.
   */
  mipFirstWithin?: number;
  /**
   * The windows keep every slot kind that is fully staffed so (its full_s fixed at 1): a later
   * level's windows then never change which shifts are fully staffed, only add to them.
   */
  windowsKeepFull?: boolean;
  /** The level keeps to its cheap bound and local search (no LP or MIP) on a model of more columns than this. */
  maxSolverCols?: number;
  /** What the level keeps from with javascript-lp-solver as the backend (its simplex and branch and bound are far slower), as measured. */
  jslp?: JslpLimits;
  /** Why the MIP was skipped when the relaxation did not finish. */
  skipNote: string;
  /** Runs first (local search, its diagnostics). */
  before?(s: LevelState, bound: number): void;
  /** After `before`, while the level is unproven: a stronger bound than the initial one, where it can compute one (the bound it is given, otherwise). */
  sharpen?(s: LevelState, bound: number, backend: SolverBackend): number;
  /** Records what the level proved. */
  after?(s: LevelState, proven: boolean, bound: number): void;
  /** Shown in diagnostics even when its cheap bound proves it at once (no LP or MIP phase then). */
  alwaysShown?: boolean;
  /** Solved on the wishes' model (Formulation.wishes.model: no fairness pieces). */
  onWishModel?: boolean;
  /** Costs added to the objective of the level's MIP only (not its LP, whose bound stays the level's own): a tie-break toward later levels. */
  mipBias?(f: Formulation): Float64Array | undefined;
  /** A level before the wishes (coverage, staffing): with wishes, solved on the model without them (Formulation.wishes.base), exactly as without wishes. */
  beforeWishes?: boolean;
}

/**
 * How far a MIP's reported optimum may differ from the same schedule's value as the levels compute
 * it, by the backend's rounding alone: javascript-lp-solver reports 8 decimals, so a fairness MIP
 * that proved the schedule's own 160.0017333... optimal reported 160.00173333, 3e-9 below it, and
 * the level stayed unproven (a festival of 10 x 8, seed 33).
 */
const ROUNDING_TOL = 1e-7;

/** Integer objectives to maximize: a bound is rounded down, and the value reaching it proves it. */
const maximizeCount = {
  tighten: (bound: number, reported: number): number => Math.min(bound, Math.floor(reported + INTEGER_TOL)),
  proven: (value: number, bound: number): boolean => value >= bound,
  // Integer objectives, but the coverage and staffing MIPs carry the previous assignments' bias
  // (at most PREVIOUS_BIAS in all): a schedule one better can be as little as 1 - PREVIOUS_BIAS
  // above another, so a gap of 0.999 stopped a staffing MIP at 1.0075 where 2.0025 was reachable
  // (found by the re-planning property test). Stop below that.
  mipRequest: (bound: number) => ({ absGap: 1 - PREVIOUS_BIAS - 0.001, relGap: 0, stopAt: bound }),
};

const fullCount = (f: Formulation, v: ArrayLike<number>): number => {
  let total = 0;
  for (const c of f.fullCol) if (c >= 0) total += v[c]!;
  return total;
};

/**
 * Share of the time left that the augmenting chains may use before the lowest priority class's LP
 * (chainsForLowestClass): a safety cap, as AUGMENT_SHARE; they end on their own.
 */
export const LOWEST_CLASS_CHAINS_SHARE = 0.25;

/**
 * Before the lowest priority class's LP (ObjectiveLevel.beforeSolver): the augmenting chains and
 * trades of the construction (improveCoverage) again. The classes above were solved with that
 * class's pairs left out of their MIPs (ObjectiveLevel.dropped) and their schedules completed by
 * what still fit and the greedy fill, so the lowest class starts far below what the chains reach
 * (a chain fills one more slot and keeps every slot it passes through filled). Taken when it
 * fills more of that class and as many of each class above as before. The chains, the trades
 * (ChainOptions.onlyClass) and the greedy fill after them work for that class alone, so each class
 * above keeps its count: the rows holding them, already set for this level, hold the counts
 * before, and a class above that gained (a chain from one of its open slots, a trade or the
 * greedy fill taking the hours a trade freed) would be given back by this level's MIPs, whose
 * schedules the level would then refuse; the check stays as a guard. Measured at 10 s, two calls a side (2026-12-01): u-locked-rules-260x320's lowest
 * class 105 in both -> 165 and 188 (its RINS from an LP the clock stopped found none),
 * t-locked-rules-220x300's 66 -> 84 and 93; the same in two calls a side on five scarce rosters
 * whose lowest class gets almost no time. With 200 nodes a chain
 * instead of 5,000 it gained less there (143, 72). After every class but the last (the
 * twenty-fifth session) the next class's MIP gave the slots back.
 */
function chainsForLowestClass(s: LevelState, k: number): void {
  const budget = s.budget.share(LOWEST_CLASS_CHAINS_SHARE);
  if (s.budget.cancelled() || budget.tooShort(MIN_PHASE_S)) return;
  const t = s.budget.now();
  const before = filledByClass(s.p, s.x);
  const x = greedyFill(
    s.p,
    improveCoverage(s.p, s.x, budget, { onlyClass: k }),
    chronologicalShifts(s.p).filter((slot) => s.p.slotClass[slot] === k),
  );
  const after = filledByClass(s.p, x);
  const taken = after[k]! > before[k]! && after.every((n, c) => c >= k || n === before[c]!);
  if (taken) adopt(s, x, 'augment');
  note(
    s.phases,
    'augment',
    searchStatus(s.budget.cancelled(), false, budget.pastDeadline()),
    (taken ? after : before)[k]!,
    null,
    s.budget.now() - t,
    `the augmenting chains before the lowest class's LP: ${taken ? `+${after[k]! - before[k]!}` : 'nothing gained'}`,
  );
  s.phases[s.phases.length - 1]!.priority = s.p.classes[k]!;
}

/** Most slots of class k that could be filled: per slot kind, its open slots or its candidates. */
function classBound(s: LevelState, k: number): number {
  let total = 0;
  s.p.byShift.forEach((pairs, slot) => {
    if (s.p.slotClass[slot] === k) total += Math.min(s.p.demand[slot]!, pairs.length);
  });
  return total;
}

/** Headcount rows of the slot kinds `where` says, held at their locks plus `floor` new assignments at least. */
function slotFloors(s: LevelState, where: (slot: number) => boolean, floor: (slot: number, pairs: number) => number): Array<[number, [number, number]]> {
  const out: Array<[number, [number, number]]> = [];
  s.p.byShift.forEach((pairs, slot) => {
    if (pairs.length === 0 || s.f.headRow[slot]! < 0 || !where(slot)) return;
    const { required, locked } = s.p.sub.shifts[slot]!;
    out.push([s.f.headRow[slot]!, [locked + floor(slot, pairs.length), Math.max(required, locked)]]);
  });
  return out;
}

/**
 * Coverage, one level per priority class from the highest (objective level 1 of the contract).
 * With one class it is exactly 2.1's coverage level: the bound it proves is the fill bound.
 * With several, the total is proven only when every class is; otherwise the cheap bound stays.
 */
export function coverageLevels(classes: readonly number[]): ObjectiveLevel[] {
  const single = classes.length === 1;
  let allProven = true;
  return classes.map((priority, k) => ({
    ...maximizeCount,
    ...(single ? { coldLpPrimal: true } : { priority, warmLp: true, warmLpShare: COVERAGE_WARM_LP_SHARE }),
    ...(k < classes.length - 1
      ? { mipStallIterations: COVERAGE_CLASS_STALL_ITERATIONS, mipStallFromRoot: true, mipFirstWithin: COVERAGE_MIP_FIRST_WITHIN }
      : {}),
    ...(single || k < classes.length - 1
      ? {}
      : {
          beforeSolver: (s: LevelState) => {
            chainsForLowestClass(s, k);
          },
        }),
    dropped: (s: LevelState) => {
      if (single || k === classes.length - 1) return undefined;
      const bias = s.f.wishes.previousBias;
      const out = new Uint8Array(s.p.candShift.length);
      s.p.candShift.forEach((slot, pair) => (out[pair] = s.p.slotClass[slot]! > k && !(bias && bias[pair]! > 0) ? 1 : 0));
      return out.includes(1) ? out : undefined;
    },
    lpPhase: 'coverage_lp',
    mipPhase: 'coverage',
    rinsPhase: 'coverage_rins',
    rinsStallIterations: COVERAGE_RINS_STALL_ITERATIONS,
    // The classes share coverage's time: each the coverage share of what is left.
    mipShare: MIP_SHARES.coverage,
    windowsPhase: 'coverage_lns',
    windowsFirstShare: COVERAGE_WINDOWS_FIRST_SHARE,
    objective: (f) => f.coverage[k]!.objective,
    holdRow: (f) => f.coverage[k]!.fixRow,
    coverHoldRow: (f) => f.cover!.fixRows[k]!,
    beforeWishes: true,
    mipBias: (f) => f.wishes.previousBias,
    value: (s, v) => (single ? sum(v, s.f.numPairs) : filledByClass(s.p, v)[k]!),
    part: (s) => {
      if (s.p.sub.groups.length < 2) return undefined;
      const { sparse, held } = heldClasses(s.p, s.x, k);
      return coveragePart(s.p, s.x, k, sparse, held);
    },
    initialBound: (s) => (single ? s.fillBound : classBound(s, k)),
    // A class filled to its cheap bound has every slot kind at its most (open slots or
    // candidates): holding each headcount row there is the same constraint as the dense sum,
    // and the held LPs of the later classes solve about twice as fast (rules-festival-400x300).
    sparseHold: (s) => {
      if (single || filledByClass(s.p, s.values)[k]! < classBound(s, k)) return undefined;
      const out: Array<[number, [number, number]]> = [];
      s.p.byShift.forEach((pairs, slot) => {
        if (s.p.slotClass[slot] !== k || pairs.length === 0) return;
        const { required, locked } = s.p.sub.shifts[slot]!;
        out.push([s.f.headRow[slot]!, [locked + Math.min(s.p.demand[slot]!, pairs.length), Math.max(required, locked)]]);
      });
      return out;
    },
    // On the wishes' model, one class filled to its cheap bound is held the same way (measured:
    // the preferred level's MIP of wishes-festival-150x100 'kitchen' twice as fast).
    wishSparseHold: (s) =>
      single && sum(s.x) >= classBound(s, 0)
        ? slotFloors(
            s,
            () => true,
            (slot, pairs) => Math.min(s.p.demand[slot]!, pairs),
          )
        : undefined,
    boundFromMip: true,
    // When the relaxation itself does not finish in time, a MIP on the same model would not
    // either (HiGHS can overrun its limit on such models), so the level keeps what it has.
    skipNote: 'the LP relaxation did not finish in time, so a MIP would not either',
    after(s, proven, bound) {
      s.filled = sum(s.x);
      if (single) {
        s.fillBound = proven ? s.filled : bound;
        return;
      }
      allProven = allProven && proven;
      if (k === classes.length - 1 && allProven) s.fillBound = s.filled;
    },
  }));
}

export const staffingLevel: ObjectiveLevel = {
  ...maximizeCount,
  mipRequest: (bound) => ({ ...maximizeCount.mipRequest(bound), stallIterations: STALL_ITERATIONS }),
  lpPhase: 'staffing_lp',
  mipPhase: 'staffing',
  rinsPhase: 'staffing_rins',
  windowsPhase: 'staffing_lns',
  windowsSize: staffingWindowPairs,
  windowsThenSize: staffingWindowPairsThen,
  windowsShare: STAFFING_WINDOWS_SHARE,
  windowsStall: STAFFING_WINDOWS_STALL,
  jslp: { windows: STAFFING_JSLP_WINDOWS, maxRows: MAX_STAFFING_JSLP_ROWS },
  localWindows: true,
  lateWhole: STAFFING_LATE_LP_ITERATIONS,
  refines: true,
  beforeWishes: true,
  mipBias: (f) => f.wishes.previousBias,
  mipShare: MIP_SHARES.staffing,
  objective: (f) => f.staffing,
  holdRow: (f) => f.staffFixRow,
  value: (s, v) => fullCount(s.f, v),
  initialBound: (s) => s.f.fullCol.filter((c) => c >= 0).length,
  // Every slot kind that can be full is: on the wishes' model, each headcount row held at its demand.
  wishSparseHold: (s) =>
    fullCount(s.f, s.values) >= s.f.fullCol.filter((c) => c >= 0).length
      ? slotFloors(
          s,
          (slot) => s.f.fullCol[slot]! >= 0,
          (slot) => s.p.demand[slot]!,
        )
      : undefined,
  // The MIP's bound holds for the level (its bias toward previous assignments is under 1 in all, and the bound is rounded down).
  boundFromMip: true,
  skipNote: 'the LP relaxation did not finish in time',
  // Moves that complete slot kinds first: on scarce supply they find most of what the MIP would, in milliseconds, and give it its start.
  before(s) {
    const t = s.budget.now();
    const before = fullCount(s.f, s.values);
    const x = improveStaffing(s.p, s.x, s.budget);
    const values = columnValues(s.f, s.p, x);
    const after = fullCount(s.f, values);
    if (after > before) {
      adopt(s, x, 'staffing_moves');
      note(s.phases, 'staffing_moves', 'feasible', after, null, s.budget.now() - t, `volunteers moved to complete slot kinds: +${after - before}`);
    }
  },
};

/**
 * Makes `x` the level state's schedule, completed with every assignment that still fits
 * (greedyFill): a MIP's solution, or a local search's, which moves volunteers between slot kinds
 * and can leave one who is free again beside an open slot. A slot more is better whatever the
 * later levels (coverage comes first), and every hold is a floor on coverage and staffing, which
 * an assignment more never lowers. Measured: staffing's moves left a slot open that a volunteer
 * they moved could take (a scarce roster with the rules, 150 x 300; the schedule checker's
 * fillable_slot), and a time-limited solve returned it so.
 */
function adopt(s: LevelState, x: Uint8Array, phase: PhaseName): void {
  s.x = greedyFill(s.p, x);
  s.values = columnValues(s.f, s.p, s.x);
  s.filled = sum(s.x);
  s.onIncumbent(phase);
}

/**
 * `full` at each of `cols`, and below, 0/1 values rounded: plain loops, where the typed arrays'
 * from() with a mapping function took 13-35 times as long (Node 20: 4.6 ms against 0.34 ms over
 * 28,000 columns); each window on the wishes' model reads a whole model's values once or twice.
 */
function gather(full: ArrayLike<number>, cols: ArrayLike<number>): Float64Array {
  const out = new Float64Array(cols.length);
  for (let i = 0; i < cols.length; i++) out[i] = full[cols[i]!]!;
  return out;
}

/**
 * Per column of the full model, whose alone it is: a volunteer's (their fairness pieces, their
 * hours short) as the volunteer's index, a shift's (its full_s) as -2 - the shift's index, -1 for
 * the pairs and the rest (a neighbourhood, RINS or a window, fixes the ones of the volunteers and
 * shifts it does not touch: LevelRunner.freeColumns).
 */
function columnOwners(f: Formulation): Int32Array {
  const owners = new Int32Array(f.model.numCols).fill(-1);
  f.pieces.forEach(({ cols }, v) => {
    for (const col of cols) owners[col] = v;
  });
  f.wishes.short?.cols.forEach((col, v) => col >= 0 && (owners[col] = v));
  f.fullCol.forEach((col, shift) => col >= 0 && (owners[col] = -2 - shift));
  return owners;
}

function rounded(values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i]! > 0.5 ? 1 : 0;
  return out;
}

/** Integer objectives to minimize: a bound is rounded up, and the value reaching it proves it. */
const minimizeCount = {
  tighten: (bound: number, reported: number): number => Math.max(bound, Math.ceil(reported - INTEGER_TOL)),
  proven: (value: number, bound: number): boolean => value <= bound,
  mipRequest: (bound: number) => ({ absGap: 0.999, relGap: 0, stopAt: bound }),
};

/** What the three levels of wishes share: each solved to proof within its share of the time. */
const wishLevel = (wish: (w: Wishes) => WishLevel | undefined, kind?: UnmetWish) => ({
  refines: true,
  // RINS before the MIP, as for coverage; windows around the volunteers whose wish is unmet where
  // the MIP leaves the level unproven or none runs.
  ...(kind
    ? {
        rinsPhase: `${kind}_rins` as const,
        windowsPhase: `${kind}_lns` as const,
        localWindows: true,
        wholeAfterWindows: true,
        // Each level's LP from the optimum of the one before's (a session of LPs alone): on joined
        // subproblems of rules and wishes (8,429-9,417 pairs, 10 s) the preferred shifts' LP after
        // its windows finished in 0.41-0.49 s, where from HiGHS's own start it had stopped at its
        // cap of 5,000 simplex iterations (1.0-1.4 s) with no bound, and no RINS or MIP followed.
        warmLp: true,
        windowsSize: () => WISH_WINDOW_PAIRS,
        windowsOf: (s: LevelState, pass: number, _bound: number, size: number) => wishWindows(s.p, s.x, s.f.wishes.goals, kind, size, pass),
      }
    : {}),
  mipShare: MIP_SHARES.wishes,
  objective: (f: Formulation) => wish(f.wishes)!.objective,
  holdRow: (f: Formulation) => wish(f.wishes)!.fixRow,
  boundFromMip: true,
  skipNote: 'the LP relaxation did not finish in time',
  alwaysShown: true,
  onWishModel: true,
  // Transfers and swaps first: they often meet the level's cheap or LP bound, and give the MIP its start.
  before(s: LevelState) {
    const t = s.budget.now();
    const x = improveWishes(s.p, s.x, s.f.wishes.goals, s.budget);
    if (x.some((b, pair) => b !== s.x[pair])) {
      adopt(s, x, 'wishes');
      note(s.phases, 'wishes', 'feasible', null, null, s.budget.now() - t, 'transfers and swaps that meet the wishes better');
    }
  },
});

/** Level 3: the most previous assignments kept (the fewest dropped), after coverage and staffing. */
export const previousLevel: ObjectiveLevel = {
  ...maximizeCount,
  ...wishLevel((w) => w.previous),
  lpPhase: 'previous_lp',
  mipPhase: 'previous',
  // Not a refinement: on joined subproblems where the levels after coverage run no LP or MIP of the
  // whole model, this level still runs its LP and MIP, so the drops it reports are proven the least where it can.
  refines: false,
  value: (s, v) => previousCount(s.f.wishes.goals, v),
  initialBound: (s) => previousBound(s.p, s.f.wishes.goals),
};

/** Level 4: the fewest new assignments to shifts their volunteer asked to avoid. */
export const avoidedLevel: ObjectiveLevel = {
  ...minimizeCount,
  ...wishLevel((w) => w.avoided, 'avoided'),
  lpPhase: 'avoided_lp',
  mipPhase: 'avoided',
  value: (s, v) => avoidedCount(s.f.wishes.goals, v),
  initialBound: () => 0,
};

/** Level 5: the least total of hours short of min_hours (a real number: hours on the shifts' grid). */
export const shortLevel: ObjectiveLevel = {
  ...wishLevel((w) => w.short, 'short'),
  lpPhase: 'short_lp',
  mipPhase: 'short',
  holdTolerance: SHORT_EPS,
  value: (s, v) => shortfall(s.p, s.f.wishes.goals, v),
  initialBound: (s) => shortfallBound(s.p, s.f.wishes.goals),
  tighten: (bound, reported) => Math.max(bound, reported),
  proven: (value, bound) => value <= bound + SHORT_EPS,
  mipRequest: (bound) => ({ absGap: SHORT_EPS, relGap: 0, stopAt: bound }),
};

/** Level 6: the most new assignments to shifts their volunteer asked for. */
export const preferredLevel: ObjectiveLevel = {
  ...maximizeCount,
  ...wishLevel((w) => w.preferred, 'preferred'),
  lpPhase: 'preferred_lp',
  mipPhase: 'preferred',
  value: (s, v) => preferredCount(s.f.wishes.goals, v),
  initialBound: (s) => preferredBound(s.p, s.f.wishes.goals),
};

/**
 * Fairness's LP and MIP run only on models of at most this many columns. Measured on the festival
 * benchmarks (2,500 x 1,200 and 5,000 x 2,500, limits 10 s and 30 s): on every larger model the
 * MIP stopped at its stall window without a better schedule, after 0.6-2.7 s of presolve and root
 * LP, and the LP's bound was the water-filling bound's (fairnessLowerBound); a larger limit only
 * let both run longer for the same schedule. Below it the MIP does improve or prove schedules
 * (food bank, scarce, locked festival).
 */
export const MAX_FAIRNESS_SOLVER_COLS = 10_000;

/**
 * Fairness runs RINS before its MIP on subproblems of at least this many candidate pairs (after
 * it below: ObjectiveLevel.rinsAfterMipBelow). There the MIP is slow to find a better schedule and
 * RINS finds most of what it would in a fraction of the time, which is what a 10 s limit reaches:
 * on unseen scarce festivals (2026-11-29, 60 s), the "info" group of a 150 x 400 one (3,255 pairs):
 * the MIP stalled after 1.1 s with nothing better than local search's 20,877, RINS after it
 * reached 20,371, and at 10 s was cut short; RINS first reached 20,371 in 1.1 s. A 300 x 600
 * one's "info" (2,295 pairs): RINS first 27,212 in 0.3 s, where the MIP took 4.8 s for 27,166.
 * Below, the MIP proves small festivals' groups in 60-300 ms where RINS first only added time
 * (BENCHMARKS.md, the sixth session: wishes-festival-150x100 2.7 -> 4.6 s); the limit itself is a
 * round figure between the groups measured (874 pairs, MIP first, in the tests; 2,295 and more),
 * not tuned.
 */
export const FAIRNESS_RINS_FIRST_PAIRS = 2000;

/**
 * The same limit with javascript-lp-solver, whose branch and bound has no start and no bound to
 * stop at. Measured on 28 small festivals (8 x 6 to 40 x 30, with and without the rules, 10 s):
 * its fairness MIP ended optimal within 1.2 s on every model of at most 160 columns; on the 19
 * models above, 16 ran until the clock stopped them (13 with no schedule at all, 3 with none
 * better than local search's) and 3 proved local search's schedule in 0.7-4.2 s, so most answers
 * took 8.5 s whatever their size. Above the limit the level keeps to local search and its cheap
 * bounds, as over MAX_FAIRNESS_SOLVER_COLS: in milliseconds, the same sum of squares on 21 of
 * the 28, lower on 5 (its kicks run their full rounds there), 2 hours² higher on 2.
 */
export const MAX_FAIRNESS_JSLP_COLS = 160;

/** Share of the time left that the packing bound may use (it stops sooner on its own work caps). */
const PACKING_SHARE = 0.15;
/**
 * The same where no LP or MIP of fairness follows it (a joined subproblem refined by local search,
 * or one over the MIP limit). Measured on rules-festival-2500x1200 (287,415 pairs, 1,416 kinds of
 * volunteer): five rounds, 1.0-1.4 s, to converge, its first round's bound far below (negative).
 */
export const LOCAL_PACKING_SHARE = 0.5;

/** A search phase's status (windows, kicks): cancelled, then proven, then out of its time (`spent`), else feasible. */
function searchStatus(cancelled: boolean, proven: boolean, spent: boolean): PhaseDiagnosticsStatus {
  return cancelled ? 'cancelled' : proven ? 'optimal' : spent ? 'timedout' : 'feasible';
}

/** A level's change for a phase's note: to four places, signed. */
function signedChange(before: number, after: number): string {
  const change = Math.round((after - before) * 1e4) / 1e4;
  return `${change >= 0 ? '+' : ''}${change}`;
}

/**
 * Share of the subproblem's time left that fairness's kicks may use (phase fairness_kicks; they
 * stop sooner on their own work caps, KICK_ROUNDS and KICK_IDLE_ROUNDS).
 */
export const KICK_SHARE = 0.5;

/**
 * The kicks before the fairness LP and MIP (ObjectiveLevel.beforeSolver) on a subproblem without
 * wishes: at most this many rounds, and this many in a row without gain. The MIP then starts from
 * a better schedule, or does not run. Measured at 10 s (three calls a side): festival-400x300 28,307
 * in 2.2-2.6 s before, 28,267 in 1.3-1.6 s with them; festival-locked-400x300 28,016 in 1.5-1.9 s,
 * 28,006 in 0.6-0.9 s; festival-50x30's "gate" group proven by one round, with no MIP. With
 * wishes kept, the kicks move less and the MIPs after them did worse (wishes-festival-150x100
 * 11,288 -> 11,290, slower), so they stay out there. On the scarce festivals, whose groups run to
 * the clock, the answers stayed within what repeated calls give (BENCHMARKS.md, the tenth session).
 */
export const PRE_MIP_KICKS: KickCaps = { rounds: 20, idle: 5 };

/**
 * Fairness's kicks (kickFairness) where no LP or MIP of fairness follows the local search: on
 * schedule `x` against `bound`, within KICK_SHARE of the time left, each kicked schedule measured
 * by `value`; phase fairness_kicks. As the windows, they start only when the schedule is more
 * than FAIRNESS_LNS_GAP above the bound (measured on rules-festival-2500x1200, 0.37% above: 50
 * rounds took 3.8 s to reach 0.11%), and then run until it is within FAIRNESS_GAP or their caps.
 * With `pre` (before the fairness LP and MIP: PRE_MIP_KICKS), they start whenever the schedule
 * is not proven, with those caps. Returns the better schedule, or `x` itself when none is.
 */
export function kickPhase(
  p: Prepared,
  x: Uint8Array,
  budget: Budget,
  phases: PhaseDiagnostics[],
  bound: number,
  value: (x: Uint8Array) => number,
  keep: KeepWishes | undefined,
  pre?: KickCaps,
): Uint8Array {
  const before = value(x);
  if (pre ? fairnessLevel.proven(before, bound) : before <= bound * (1 + FAIRNESS_LNS_GAP) + REAL_TOL) return x;
  const t = budget.now();
  const share = budget.share(KICK_SHARE);
  const caps = pre ? { caps: pre } : {};
  const kicked = kickFairness(p, x, share, value, { ...(keep ? { keep } : {}), ...caps, enough: (v) => fairnessLevel.proven(v, bound) });
  const after = kicked.value;
  const status = searchStatus(budget.cancelled(), fairnessLevel.proven(after, bound), share.pastDeadline());
  const text = `${kicked.rounds} rounds of ${KICK_MOVES} random moves, each followed by the local search: ${signedChange(before, after)}`;
  note(phases, 'fairness_kicks', status, Math.min(after, before), bound, budget.now() - t, text);
  return after < before - REAL_TOL ? kicked.x : x;
}

/** The fairness objective of a schedule of subproblem `s` (its model's pieces). */
const fairnessOf =
  (s: LevelState) =>
  (x: Uint8Array): number =>
    fairnessObjective(s.f, columnValues(s.f, s.p, x));

export const fairnessLevel: ObjectiveLevel = {
  lpPhase: 'fairness_lp',
  mipPhase: 'fairness',
  rinsPhase: 'fairness_rins',
  rinsAfterMipBelow: FAIRNESS_RINS_FIRST_PAIRS,
  windowsPhase: 'fairness_lns',
  windowsShare: FAIRNESS_LNS_SHARE,
  windowsSize: () => FAIRNESS_WINDOW_PAIRS,
  windowsKeepFull: true,
  guideBeforeMip: (s, bound, backend) => {
    // Where wishes are kept, only on subproblems small enough (WISH_GUIDE_MAX_PAIRS).
    if (wishesToKeep(s.f.wishes.goals) && s.p.candShift.length > WISH_GUIDE_MAX_PAIRS) return bound;
    // Over the column limit no fairness LP or MIP follows: the bound may take more of the time.
    const share = s.f.model.numCols > MAX_FAIRNESS_SOLVER_COLS ? LOCAL_PACKING_SHARE : PACKING_SHARE;
    // Its columns as a MIP only on a subproblem larger than one fairness window: on a smaller one
    // the window the bound guides (solveLevel) re-solves every pair where its LP and the schedule
    // disagree. That is not all the MIP can reach (it may take columns of earlier rounds the last
    // LP leaves at zero, on pairs the window keeps fixed; where the two agree on every pair but
    // full_k is fractional, no window runs), so this is a measured trade-off, not the same search:
    // the fairness LP and MIP still follow where the window leaves the level unproven. Measured on
    // festival-50x30's "bar" (154 pairs): that MIP gave back the incumbent's 1,300 in 10-30 ms, the
    // window then reached 1,298; left out, the bound takes 5-16 ms instead of 19-56, the window
    // 36-69 instead of 36-54, and the request 110 ms on average instead of 122 (20 warm calls a
    // side, in one process each). On larger groups the MIP does find what the windows do not
    // (festival-locked-400x300's "gate", 1,305 pairs, 379 of them where the two disagree: 28,000
    // with it, 28,006 without), so it stays there.
    const master = s.p.candShift.length > FAIRNESS_WINDOW_PAIRS;
    const packed = packingPhase({ ...s, backend }, { bySlot: true, share, goals: s.f.wishes.goals, master });
    if (!packed) return bound;
    keepGuide(s, packed);
    return Math.max(bound, packed.bound);
  },
  guidedWindowsOf: (s, guide, pass, bound, size) =>
    fairnessObjective(s.f, s.values) > bound * (1 + FAIRNESS_LNS_GAP) + REAL_TOL ? guidedWindows(s.p, s.x, guide, size, pass) : [],
  windowsOf: (s, pass, bound, size) =>
    fairnessObjective(s.f, s.values) > bound * (1 + FAIRNESS_LNS_GAP) + REAL_TOL
      ? busyWindows(s.p, s.x, { maxPairs: size, heads: FAIRNESS_WINDOW_HEADS, count: FAIRNESS_WINDOWS_PER_PASS }, pass)
      : [],
  refines: true,
  maxSolverCols: MAX_FAIRNESS_SOLVER_COLS,
  jslp: { maxCols: MAX_FAIRNESS_JSLP_COLS },
  mipShare: MIP_SHARES.fairness,
  objective: (f) => f.fairness,
  value: (s, v) => fairnessObjective(s.f, v),
  reportedValue: (s, value) => value + squaresShortfall(s.p, s.f, s.x),
  initialBound: (s) => fairnessLowerBound(s.p, s.f, s.filled),
  tighten: (bound, reported) => Math.max(bound, reported),
  boundFromMip: true,
  proven: (value, bound) => value <= bound * (1 + FAIRNESS_GAP) + REAL_TOL,
  mipRequest: (bound, value) => ({
    absGap: 1e-6,
    relGap: FAIRNESS_GAP,
    stopAt: bound * (1 + FAIRNESS_GAP),
    stallIterations: STALL_ITERATIONS,
    stallGap: { gap: FAIRNESS_STALL_GAP * bound, bound },
    // Near the bound a better schedule is what is missing, and the root's cuts only delay it.
    ...(value <= bound * (1 + FAIRNESS_STALL_GAP) ? { fewerCuts: true } : {}),
  }),
  skipNote: 'the LP relaxation did not finish in time',
  // Local search first: transfers and swaps often land within the gap, and give the MIP its start.
  before(s, bound) {
    const t = s.budget.now();
    const keep = wishesToKeep(s.f.wishes.goals);
    const enough = (x: Uint8Array): boolean => fairnessLevel.proven(fairnessOf(s)(x), bound);
    const balanced = improveFairness(s.p, s.x, s.budget, keep, enough);
    const balancedValues = columnValues(s.f, s.p, balanced);
    if (fairnessObjective(s.f, balancedValues) < fairnessObjective(s.f, s.values) - REAL_TOL) adopt(s, balanced, 'balance');
    const value = fairnessObjective(s.f, s.values);
    note(s.phases, 'balance', fairnessLevel.proven(value, bound) ? 'optimal' : 'feasible', value, bound, s.budget.now() - t);
  },
  polish(s, bound) {
    const x = kickPhase(s.p, s.x, s.budget, s.phases, bound, fairnessOf(s), wishesToKeep(s.f.wishes.goals));
    if (x !== s.x) adopt(s, x, 'fairness_kicks');
  },
  beforeSolver(s, bound) {
    // Not where wishes are kept (PRE_MIP_KICKS).
    if (wishesToKeep(s.f.wishes.goals)) return;
    const x = kickPhase(s.p, s.x, s.budget, s.phases, bound, fairnessOf(s), undefined, PRE_MIP_KICKS);
    if (x !== s.x) adopt(s, x, 'fairness_kicks');
  },
  sharpen: (s, bound, backend) =>
    sharpenByPacking(s.p, s.f, s.x, backend, s.budget, s.phases, bound, {
      goals: s.f.wishes.goals,
      ...(s.localRefinement !== undefined ? { alone: fairnessObjective(s.f, s.values) } : {}),
      keep: (packed, bySlot) => {
        if (bySlot) keepGuide(s, packed);
        else settle(s, packed, false);
      },
    }),
};

/** The packing bound by slot's guide (its LP read as pairs), its schedule where it gave one (PackingOutcome.schedule) and whether it ended on its own (LevelState.packingSettled), for the level's runner. */
function keepGuide(s: LevelState, packed: PackingOutcome): void {
  settle(s, packed, true);
  if (packed.pairs) s.packingPairs = packed.pairs;
  if (packed.schedule) s.packingSchedule = packed.schedule;
  else delete s.packingSchedule;
}

/** Records in LevelState.packingSettled whether a packing bound of fairness ended on its own (and, by slot, how long the clock let it run where it did not). */
function settle(s: LevelState, packed: PackingOutcome, bySlot: boolean): void {
  const settled = (s.packingSettled ??= {});
  if (!packed.clockStopped) settled[bySlot ? 'bySlot' : 'byKind'] = true;
  else if (bySlot) settled.bySlotCutMs = packed.ms;
}

/**
 * `bound` raised by the packing bound of schedule `x` where the backend gives it (phase
 * fairness_bound, within PACKING_SHARE of the time left), with the wishes `o.goals` has held at
 * the schedule's values. Where no LP or MIP of the level follows (`o.alone`: the schedule's
 * value) it may use LOCAL_PACKING_SHARE, and when the schedule is still
 * more than FAIRNESS_LNS_GAP above the bound, the packing bound by slot follows (a second
 * fairness_bound, staffing held too): measured on rules-festival-400x300, 26,374 by kind, 26,487
 * by slot (12 rounds, 1.1-1.3 s), 26,562 with staffing held; on the plain festivals, whose
 * volunteers of a group can all take the same shifts, by slot gave the same bounds in 3-25 times
 * the rounds. `o.skipByKind` leaves out the one by kind (one that ended on its own on a schedule
 * with the same levels held would end the same); `o.bySlotMinMs`, the one by slot where its share
 * of the time left is less; `o.keep` hears of each run; `o.share`, where given, is each one's
 * share of the time left when it starts.
 */
export function sharpenByPacking(
  p: Prepared,
  f: FairnessPieces,
  x: Uint8Array,
  backend: SolverBackend,
  budget: Budget,
  phases: PhaseDiagnostics[],
  bound: number,
  o: { goals: SoftGoals; alone?: number; keep?: (packed: PackingOutcome, bySlot: boolean) => void; skipByKind?: boolean; bySlotMinMs?: number; share?: number },
): number {
  const { alone } = o;
  const share = o.share ?? (alone === undefined ? PACKING_SHARE : LOCAL_PACKING_SHARE);
  for (const bySlot of [false, true]) {
    if (bySlot && (alone === undefined || alone <= bound * (1 + FAIRNESS_LNS_GAP) + REAL_TOL)) break;
    if (!bySlot && o.skipByKind) continue;
    if (bySlot && o.bySlotMinMs !== undefined && budget.remainingMs() * share < o.bySlotMinMs) break;
    const packed = packingPhase({ p, f, x, backend, budget, phases }, { bySlot, share, goals: o.goals });
    if (!packed) break;
    bound = Math.max(bound, packed.bound);
    o.keep?.(packed, bySlot);
    if (!packed.converged) break;
  }
  return bound;
}

/** One packing bound of schedule `c.x` (by slot or by kind, staffing held, the wishes `o.goals` has), within `o.share` of the time left, noted as a fairness_bound phase. */
function packingPhase(
  c: { p: Prepared; f: FairnessPieces; x: Uint8Array; backend: SolverBackend; budget: Budget; phases: PhaseDiagnostics[] },
  o: { bySlot: boolean; share: number; goals: SoftGoals; master?: boolean },
): PackingOutcome | undefined {
  const master = o.master ? { master: { stallIterations: MASTER_STALL_ITERATIONS } } : {};
  const { p, f, x, backend, budget, phases } = c;
  const { bySlot } = o;
  const packed = packingBound(p, f, x, backend, budget.share(o.share), {
    rounds: PACKING_ROUNDS,
    work: PACKING_WORK,
    bySlot,
    wishes: o.goals,
    staffing: true,
    ...master,
  });
  if (!packed) return undefined;
  const kinds = bySlot ? `${packed.kinds} slot kinds of shifts` : `${packed.kinds} kinds of slot`;
  const staffed = packed.staffing ? `, ${packed.staffing.held} of ${packed.staffing.kinds} slot kinds fully staffed held` : '';
  const mip = packed.master
    ? `; its columns as a MIP: ${packed.master.objective === null ? 'no solution' : round4(packed.master.objective)} in ${Math.round(packed.master.ms)} ms`
    : packed.schedule
      ? '; its solution is integral'
      : '';
  const text = `hours in shift lengths: the LP over ${packed.columns} configurations (${packed.types} kinds of volunteer, ${kinds}${staffed}), ${packed.rounds} rounds${packed.converged ? '' : ', stopped before it converged'}${mip}`;
  note(
    phases,
    'fairness_bound',
    // optimal: the LP over configurations was solved to the end (its bound can still be below one the level had already).
    packed.converged ? 'optimal' : 'feasible',
    packed.lp,
    packed.bound,
    packed.ms,
    text,
  );
  return packed;
}

/** A level as the diagnostics give it: value and bound to 4 decimals, the gap |value - bound| / max(1, |value|). */
export function levelRecord(name: LevelDiagnostics['name'], value: number, bound: number, proven: boolean, priority?: number): LevelDiagnostics {
  const gap = Math.abs(value - bound) / Math.max(1, Math.abs(value));
  return { name, ...(priority !== undefined ? { priority } : {}), value: round4(value), bound: round4(bound), gap: round4(gap), proven };
}

/**
 * The levels in the contract's order: each is solved with the ones before it held. A level of
 * wishes (previous assignments among them) is there only when the subproblem has that wish
 * (levels nobody uses cost nothing).
 */
export function levelsFor(classes: readonly number[], wishes?: Wishes): ObjectiveLevel[] {
  const wished = [wishes?.previous && previousLevel, wishes?.avoided && avoidedLevel, wishes?.short && shortLevel, wishes?.preferred && preferredLevel].filter(
    (l) => l !== undefined,
  );
  return [...coverageLevels(classes), staffingLevel, ...wished, fairnessLevel];
}

/**
 * A lower bound on the fairness objective with `filled` new assignments: the fewest hours they
 * can add (the shortest open slots), spread as evenly as the caps allow (water-filling) and
 * priced as the model prices hours (its pieces: at most the squares on the grid of hours, and
 * exactly them at each anchor and one grid step past it; an hour splits into whole steps where the
 * LP would split it). It ignores which
 * volunteer can take which shift, overlaps and shift lengths, so no schedule beats it; on one
 * group where anyone can take any shift it equals the fairness LP's bound (festival benchmarks),
 * at no cost.
 */
export function fairnessLowerBound(p: Prepared, f: FairnessPieces, filled: number): number {
  const slotHours: number[] = [];
  p.sub.shifts.forEach((s, i) => {
    for (let k = 0; k < Math.min(p.demand[i]!, p.byShift[i]!.length); k++) slotHours.push(s.hours);
  });
  slotHours.sort((a, b) => a - b);
  let left = sum(slotHours, Math.min(filled, slotHours.length));
  // Every volunteer starts at their locked hours (priced as the pieces price them); the hours to
  // add go to the cheapest piece segments first: the pieces' slopes increase, so taking segments
  // in slope order over all volunteers is the optimum of the relaxation (convex and separable).
  let bound = 0;
  const segments: Array<[slope: number, width: number]> = [];
  f.pieces.forEach(({ breakpoints, slopes }, v) => {
    const lo = p.lockedHours[v]!;
    const candidateHours = p.byVolunteer[v]!.reduce((t, pair) => t + p.sub.shifts[p.candShift[pair]!]!.hours, 0);
    const hi = lo + Math.min(p.remaining[v]!, candidateHours);
    slopes.forEach((slope, k) => {
      const a = breakpoints[k]!;
      const b = breakpoints[k + 1]!;
      const forced = Math.max(0, Math.min(b, lo) - a);
      bound += slope * forced;
      const open = Math.max(0, Math.min(b, hi) - Math.max(a, lo));
      if (open > 0) segments.push([slope, open]);
    });
  });
  segments.sort((x, y) => x[0] - y[0]);
  for (const [slope, width] of segments) {
    if (left <= 0) break;
    const take = Math.min(width, left);
    bound += slope * take;
    left -= take;
  }
  return bound;
}

export function note(
  phases: PhaseDiagnostics[],
  name: PhaseName,
  status: PhaseDiagnosticsStatus,
  objective: number | null,
  bound: number | null,
  ms: number,
  text?: string,
): void {
  phases.push({ name, status, objective, bound, gap: null, ms, ...(text ? { note: text } : {}) });
}

const reaches = (sense: Objective['sense'], a: number, target: number, tol = REAL_TOL): boolean => (sense === 'max' ? a >= target - tol : a <= target + tol);

/** Runs the levels in order on one solver session; true when every level is proven. */
export function runLevels(s: LevelState, backend: SolverBackend): boolean {
  const order = levelsFor(s.p.classes, s.f.wishes);
  const levels = new LevelRunner(s, backend, order);
  try {
    const proven = order.map((level, i) => levels.run(level, order.slice(0, i)));
    // Once more, in the time left, for a level that ended unproven where its windows settled and every level after it proven (ObjectiveLevel.lateWhole).
    order.forEach((level, i) => {
      if (level.lateWhole === undefined || proven[i] || !levels.settledUnproven(level) || !proven.slice(i + 1).every(Boolean)) return;
      // Not with no time left (remainingS records no stop, so a subproblem that ended on its own still says so).
      if (s.budget.cancelled() || s.budget.share(LATE_WHOLE_LP_SHARE).remainingS() < MIN_PHASE_S) return;
      const records = (s.levels ??= []).splice(i);
      const before = Uint8Array.from(s.x);
      proven[i] = levels.run(level, order.slice(0, i), true);
      if (s.x.every((v, j) => v === before[j])) {
        s.levels.push(...records.slice(1));
        return;
      }
      // A new schedule: the levels after it run again from it, and fairness's packing bounds with them.
      delete s.packingPairs;
      delete s.packingSchedule;
      delete s.packingSettled;
      for (let j = i + 1; j < order.length; j++) proven[j] = levels.run(order[j]!, order.slice(0, j));
    });
    return proven.every(Boolean);
  } finally {
    levels.dispose();
  }
}

class LevelRunner {
  private session: SolverSession | undefined;
  /** The session on the coverage model, for the coverage levels of a 2.2 subproblem. */
  private coverSession: SolverSession | undefined;
  /** The session on the wishes' model, for the levels of wishes. */
  private wishSession: SolverSession | undefined;
  /** The session on the model without wishes, for coverage and staffing of a subproblem with wishes. */
  private baseSession: SolverSession | undefined;
  /** The session of the LPs of the levels that ask for it (ObjectiveLevel.warmLp), and the model it is on. */
  /** `warm`: it has solved an LP to its optimum; `lastOptimal`: its last LP ended there (ObjectiveLevel.warmLpShare). */
  private lpSession: { session: SolverSession; on: LevelRunner['on']; warm?: boolean; lastOptimal?: boolean } | undefined;
  /** Where the level running solves: the full model, the coverage model, the model without wishes or the wishes' model. */
  private on: 'full' | 'cover' | 'base' | 'wishes' = 'full';
  /** The priority class of the level running, for its phases' diagnostics. */
  private priority: number | undefined;
  /** The levels with lateWhole that kept to local search, or ran their MIP of the whole (not skipped), and whose windows ended on their own, unproven, on a backend that caps LPs by work (settledUnproven). */
  private readonly settled = new Set<ObjectiveLevel>();
  /** columnOwners of each model the levels ran on, as restrict maps it (ownersOn). */
  private owners: Map<LevelRunner['on'], Float64Array> | undefined;

  constructor(
    private readonly s: LevelState,
    private readonly backend: SolverBackend,
    private readonly levels: readonly ObjectiveLevel[],
  ) {}

  dispose(): void {
    this.session?.dispose();
    this.coverSession?.dispose();
    this.wishSession?.dispose();
    this.baseSession?.dispose();
    this.lpSession?.session.dispose();
  }

  /**
   * The columns of the model of the level running that a neighbourhood (RINS, a window) solves
   * for, the others fixed at the schedule's values: the pairs it frees, and every other column
   * but those of the volunteers and shifts with no pair freed (their fairness pieces, hours
   * short, full_s: columnOwners). With their pairs fixed, the schedule's values there
   * (columnValues) are the best those columns can have (the pieces filled cheapest first, the
   * hours short as few as can be, full_s 1 wherever the slot kind is full), so fixing them loses
   * nothing; on a large subproblem most of a window's columns were theirs
   * (wishes-rules-festival-400x300: 7,794 columns for a fairness window of 400 pairs,
   * 2,000-2,300 without them). The locks stay (fixed by their bounds, which HiGHS's presolve
   * takes out at once; leaving them out too was tried and not kept: BENCHMARKS.md, the
   * thirty-fifth session).
   */
  private freeColumns(freePair: (pair: number) => boolean): (col: number) => boolean {
    const { p } = this.s;
    const pairs = p.candShift.length;
    const owners = this.ownersOn();
    const volunteers = new Uint8Array(p.sub.volunteers.length);
    const shifts = new Uint8Array(p.sub.shifts.length);
    for (let pair = 0; pair < pairs; pair++) {
      if (!freePair(pair)) continue;
      volunteers[p.candVolunteer[pair]!] = 1;
      shifts[p.candShift[pair]!] = 1;
    }
    return (col) => {
      if (col < pairs) return freePair(col);
      const owner = owners[col]!;
      return owner === -1 || (owner >= 0 ? volunteers[owner] === 1 : shifts[-2 - owner] === 1);
    };
  }

  /** columnOwners of the model of the level running (computed once for each model). */
  private ownersOn(): Float64Array {
    const on = (this.owners ??= new Map<LevelRunner['on'], Float64Array>());
    let owners = on.get(this.on);
    if (!owners) {
      const full = on.get('full') ?? Float64Array.from(columnOwners(this.s.f));
      on.set('full', full);
      owners = this.restrict(full);
      on.set(this.on, owners);
    }
    return owners;
  }

  /** The full model's values (costs, a start) as the model of the level running reads them. */
  private restrict(full: Float64Array): Float64Array {
    const { f } = this.s;
    switch (this.on) {
      case 'full':
        return full;
      case 'cover':
        return full.subarray(0, f.cover!.model.numCols);
      case 'base':
        return full.subarray(0, f.wishes.base!.numCols);
      case 'wishes':
        return gather(full, f.wishes.model!.cols);
    }
  }

  /** A row of the full model as the model of the level running has it (undefined: it has none). */
  private rowOf(row: number): number | undefined {
    const { f } = this.s;
    switch (this.on) {
      case 'base':
        return row < f.wishes.base!.numRows ? row : undefined;
      case 'wishes':
        return f.wishes.model!.rows.get(row) ?? row;
      default:
        return row;
    }
  }

  /** Solves one level with the `held` levels kept at their current values, and records its outcome; true when proven. */
  run(level: ObjectiveLevel, held: readonly ObjectiveLevel[], late = false): boolean {
    const solved = this.solveLevel(level, held, late);
    const { s } = this;
    const modelValue = level.value(s, s.values);
    const value = level.reportedValue?.(s, modelValue) ?? modelValue;
    // Where the reported value is the model's, the level's own proof stands (a MIP that ended
    // optimal proves it without a bound: jslp gives none); where it is more, only the bound can.
    const proven = solved.proven && (value <= modelValue + REAL_TOL || level.proven(value, solved.bound));
    (s.levels ??= []).push(levelRecord(level.mipPhase as LevelDiagnostics['name'], value, solved.bound, proven, level.priority));
    return proven;
  }

  /** Whether the level kept to local search (LevelState.localRefinement), or ran its MIP of the whole (not skipped), and its windows ended on their own, unproven (ObjectiveLevel.lateWhole). */
  settledUnproven(level: ObjectiveLevel): boolean {
    return this.settled.has(level);
  }

  /** Whether the level has a late pass on this backend: lateWhole, and an LP that can be capped by a count of work. */
  private hasLatePass(level: ObjectiveLevel): boolean {
    return level.lateWhole !== undefined && this.backend.capsLpIterations === true;
  }

  /** `late`: the level's LP of the whole, RINS and MIP alone, after every level (ObjectiveLevel.lateWhole). */
  private solveLevel(level: ObjectiveLevel, held: readonly ObjectiveLevel[], late = false): { proven: boolean; bound: number } {
    const { s } = this;
    this.priority = level.priority;
    // The LPs' own session serves the levels that ask for it, in a row (the priority classes; the
    // levels of wishes): its memory goes at the first level after them that does not.
    if (!level.warmLp && this.lpSession) {
      this.lpSession.session.dispose();
      this.lpSession = undefined;
    }
    this.on =
      s.f.cover !== undefined && level.coverHoldRow !== undefined
        ? 'cover'
        : level.onWishModel && s.f.wishes.model !== undefined
          ? 'wishes'
          : level.beforeWishes && s.f.wishes.base !== undefined
            ? 'base'
            : 'full';
    let bound = level.initialBound(s);
    // The late pass (ObjectiveLevel.lateWhole) is the level's LP of the whole, RINS and MIP alone.
    if (!late) level.before?.(s, bound);
    if (level.sharpen && !level.proven(level.value(s, s.values), bound)) bound = level.sharpen(s, bound, this.backend);
    const rowBounds = this.rowBounds(held);
    const full = level.objective(s.f);
    const objective = { sense: full.sense, costs: this.restrict(full.costs) };
    const bias = level.mipBias?.(s.f);
    const biased = bias ? { sense: full.sense, costs: this.restrict(full.costs.map((c, j) => c + bias[j]!)) } : objective;
    let proven = level.proven(level.value(s, s.values), bound);
    if (proven && level.alwaysShown) note(s.phases, level.mipPhase, 'optimal', level.value(s, s.values), bound, 0, 'proven by its cheap bound');
    // Local search and windows only; `settled`: the windows ended on passes that gained nothing, not on the clock.
    const localOnly = (text: string): { proven: boolean; bound: number; settled: boolean } => {
      note(s.phases, level.lpPhase, 'skipped', null, bound, 0, text);
      let settled = false;
      if (level.polish) {
        level.polish(s, bound);
        proven = level.proven(level.value(s, s.values), bound);
      }
      // A model over the level's column limit (not a joined subproblem, whose bound by slot ran in
      // sharpen): the bound by slot and its schedule, as before a MIP.
      if (!proven && s.localRefinement === undefined && level.guideBeforeMip) {
        bound = level.guideBeforeMip(s, bound, this.backend);
        proven = level.proven(level.value(s, s.values), bound);
      }
      if (!proven) proven = this.takePackingSchedule(level, held, bound);
      if (!proven && level.guidedWindowsOf && s.packingPairs) {
        const guide = s.packingPairs;
        proven = this.runGuidedWindows(level, held, biased, rowBounds, bound, (pass, size) => level.guidedWindowsOf!(s, guide, pass, bound, size));
      }
      if (!proven && level.localWindows) {
        settled = this.windows(level, held, biased, rowBounds, bound);
        proven = level.proven(level.value(s, s.values), bound);
      }
      return { proven, bound, settled };
    };
    const done = (): { proven: boolean; bound: number } => {
      level.after?.(s, proven, bound);
      return { proven, bound };
    };
    // The level's windows ran before its LP and MIP of the whole (wholeAfterWindows, or in the first pass where `late`): none after them.
    let windowsRan = late;
    if (level.refines && s.localRefinement !== undefined && !late) {
      if (proven) return done();
      const whole = level.wholeAfterWindows === true && this.backend.capsLpIterations === true;
      const local = localOnly(whole ? `${s.localRefinement} before its windows` : s.localRefinement);
      if (this.hasLatePass(level) && !whole && !local.proven && local.settled) this.settled.add(level);
      if (!whole || local.proven || !local.settled) return done();
      windowsRan = true;
    }
    if (!proven && !windowsRan) {
      const over = this.overSize(level);
      if (over) {
        localOnly(`${over}: local search and the cheap bounds only`);
        return done();
      }
    }
    if (!proven && level.beforeSolver) {
      level.beforeSolver(s, bound);
      proven = level.proven(level.value(s, s.values), bound);
    }
    if (!proven && level.guideBeforeMip) {
      bound = level.guideBeforeMip(s, bound, this.backend);
      proven = level.proven(level.value(s, s.values), bound) || this.takePackingSchedule(level, held, bound);
      const guide = s.packingPairs;
      if (!proven && guide) {
        const windows = guidedWindows(s.p, s.x, guide, level.windowsSize?.(s.p) ?? WINDOW_PAIRS, 0);
        if (windows.length === 1)
          proven = this.runGuidedWindows(level, held, biased, rowBounds, bound, (pass) => (pass === 0 ? windows : []), GUIDED_STALL_ITERATIONS);
      }
    }
    const rinsAfter = level.rinsAfterMipBelow !== undefined && s.p.candShift.length < level.rinsAfterMipBelow;
    let lpFinished = true;
    let relaxed: Float64Array | undefined;
    if (!proven && level.part) {
      const part = level.part(s);
      if (part) {
        const got = this.partBound(level, part, bound);
        bound = got.bound;
        proven = level.proven(level.value(s, s.values), bound);
        if (!proven && got.relaxed && level.rinsPhase && !rinsAfter && s.p.candShift.length >= PART_RINS_MIN_PAIRS) {
          // The whole model's values as RINS reads them: the part's LP's on its pairs, the schedule's elsewhere (fixed).
          const relaxed = Float64Array.from(this.restrict(s.values).subarray(0, s.p.candShift.length));
          part.pairs.forEach((pair, col) => (relaxed[pair] = got.relaxed![col]!));
          this.rins(level, held, biased, rowBounds, bound, relaxed, "the part's LP", PART_RINS_STALL_ITERATIONS);
          proven = level.proven(level.value(s, s.values), bound);
        }
      }
    }
    // After the windows (wholeAfterWindows), the LP stops at a count of simplex iterations before the clock.
    const lpIterations = late ? level.lateWhole : windowsRan ? WHOLE_AFTER_WINDOWS_LP_ITERATIONS : undefined;
    let lpCapped = false;
    if (!proven) {
      // The late pass's LP (ObjectiveLevel.lateWhole) runs in a session of LPs alone too (so the MIP
      // after it keeps HiGHS's defaults), by the primal simplex method without presolve. Measured
      // on the four-week food bank's (21,520 columns, 11,440 rows; its LP text solved alone, warm
      // process): 0.85-1.0 s so, 2.1-2.8 s by HiGHS's default, the dual simplex method, 1.6-1.8 s
      // by the interior point method with crossover; within 10,000 iterations. In the engine: 0.67 s
      // instead of 1.54 s there, 0.23 s instead of 0.8 s on the three-week one.
      const lpSession = level.warmLp || late ? this.lpSessionFor() : undefined;
      const lp = this.phase(
        level.lpPhase,
        // From the optimum of an LP the session solved before (lpSession.warm): by the primal simplex method (ObjectiveLevel.warmLp).
        {
          objective,
          rowBounds,
          absGap: 0,
          relGap: 0,
          relaxation: true,
          ...(lpSession?.warm || late ? { primal: true } : {}),
          ...(level.coldLpPrimal && !late ? { presolvedPrimal: true } : {}),
          ...(lpIterations ? { lpIterations } : {}),
        },
        // The larger share only from an optimum: after an LP the clock stopped, this one is no faster.
        // After every level (`late`), only its RINS and MIP follow it (and, where they change the
        // schedule, the later levels again, in what they leave), and they need its optimum.
        late ? LATE_WHOLE_LP_SHARE : lpSession?.lastOptimal ? (level.warmLpShare ?? LP_SHARE) : LP_SHARE,
        lpSession,
      );
      if (lpSession && lp?.status === 'optimal') lpSession.warm = true;
      if (lpSession) lpSession.lastOptimal = lp?.status === 'optimal';
      if (lp?.status === 'optimal' && lp.objective !== null) bound = level.tighten(bound, lp.objective);
      proven = level.proven(level.value(s, s.values), bound);
      lpFinished = lp?.status === 'optimal';
      lpCapped = lp?.lpCapped === true;
      relaxed = lp?.relaxed;
    }
    // RINS from the LP's optimum, or from the last point of an LP by the primal simplex method
    // stopped before its optimum (PhaseOutcome.relaxed; feasible, so a guide, though no bound):
    // measured on an unseen 220 x 300 roster with locks and the rules, whose lowest class's LP does not finish in
    // its share on a slower machine, RINS from its last point filled 48-53 more slots of that class
    // in 2.1-2.9 s where the windows alone filled 25 (in two calls of ten it gained little or
    // nothing in that time; given half the time left instead, nothing in three calls of three).
    // From such a last point, in the lowest class, the windows run first (windowsBeforeRins) and RINS gets what they
    // leave: once the lowest class starts from the augmenting chains (chainsForLowestClass), RINS
    // from that point spent 2.2-2.6 s for nothing on that roster and on a 260 x 320 one, where the
    // windows alone gained 9 and 7 slots in 2.1 and 2.5 s (BENCHMARKS.md, the thirty-sixth session).
    // The windows before the MIP (windowsFirstShare): before RINS from such a last point, else after RINS from an optimum;
    // a class above the lowest (mipFirstWithin) runs RINS from such a point first, and its MIP first where RINS left it near the bound.
    const earlyWindows = level.windowsFirstShare !== undefined && level.windowsPhase !== undefined;
    const runEarlyWindows = (): void => {
      this.windows(level, held, biased, rowBounds, bound, level.windowsFirstShare);
      proven = level.proven(level.value(s, s.values), bound);
    };
    const windowsBeforeRins = earlyWindows && level.mipFirstWithin === undefined && !proven && !lpFinished && relaxed !== undefined && !windowsRan;
    if (windowsBeforeRins) runEarlyWindows();
    const rins = (): void => {
      if (proven || !relaxed || !level.rinsPhase) return;
      this.rins(level, held, biased, rowBounds, bound, relaxed, lpFinished ? 'the LP' : 'the last point of the LP, stopped before its optimum,');
      proven = level.proven(level.value(s, s.values), bound);
    };
    if (!rinsAfter) rins();
    const mipFirst =
      !proven && lpFinished && level.mipFirstWithin !== undefined && Math.abs(bound - level.value(s, s.values)) <= level.mipFirstWithin + ROUNDING_TOL;
    const windowsFirst = earlyWindows && !proven && lpFinished && !mipFirst;
    if (windowsFirst) runEarlyWindows();
    if (!proven && !lpFinished) {
      note(s.phases, level.mipPhase, 'skipped', null, null, 0, lpCapped ? 'the LP relaxation stopped at its cap of simplex iterations' : level.skipNote);
      if (level.priority !== undefined) s.phases[s.phases.length - 1]!.priority = level.priority;
    } else if (!proven) {
      const request = level.mipRequest(bound, level.value(s, s.values));
      // The request's own window; else the level's for its MIP of the whole (mipStallIterations);
      // else, after the windows (wholeAfterWindows), STALL_ITERATIONS: it ends on its own, as they
      // did, with its window held open while far from the bound (WHOLE_AFTER_WINDOWS_STALL_GAP).
      const stallIterations = request.stallIterations ?? level.mipStallIterations ?? (windowsRan ? STALL_ITERATIONS : undefined);
      const stallGap = request.stallGap ?? (windowsRan ? { gap: WHOLE_AFTER_WINDOWS_STALL_GAP, bound } : undefined);
      const stall = {
        ...(stallIterations === undefined ? {} : { stallIterations }),
        ...(stallGap ? { stallGap } : {}),
        ...(level.mipStallFromRoot ? { stallFromRoot: true } : {}),
      };
      // With no time left, the phase says so without a model built for nothing.
      const dropped = s.budget.cancelled() || s.budget.share(level.mipShare).tooShort(MIN_PHASE_S) ? undefined : level.dropped?.(s);
      const outcome = dropped
        ? this.mipWithout(level, dropped, biased, rowBounds, { ...request, ...stall })
        : this.phase(level.mipPhase, { objective: biased, rowBounds, ...request, ...stall }, level.mipShare);
      if (outcome) {
        const accepted = this.accept(outcome, level, held);
        if (level.boundFromMip && outcome.bound !== null) bound = level.tighten(bound, outcome.bound);
        // A MIP solved to optimality with no gap allowed gives its optimum as a bound where the
        // backend reports none (jslp): with the previous assignments' bias (under 1) in its
        // objective, a count level's `tighten` rounds it to the count.
        if (outcome.status === 'optimal' && outcome.bound === null && outcome.objective !== null && request.relGap === 0)
          bound = level.tighten(bound, outcome.objective);
        // The MIP's proof holds for the schedule kept: its own (accepted), or one as good.
        const current = level.value(s, s.values);
        const asGood = outcome.objective !== null && !improves(objective.sense, outcome.objective, current, ROUNDING_TOL);
        proven = (outcome.status === 'optimal' && (accepted || asGood)) || level.proven(level.value(s, s.values), bound);
      }
    }
    if (rinsAfter) rins();
    if (!proven && level.windowsPhase && !windowsFirst && !windowsBeforeRins && !windowsRan) {
      const settled = this.windows(level, held, biased, rowBounds, bound);
      proven = level.proven(level.value(s, s.values), bound);
      // The late pass (ObjectiveLevel.lateWhole) also where the MIP of the whole ran (here: its LP finished) and it and the windows after it left the level unproven.
      if (settled && lpFinished && !proven && this.hasLatePass(level)) this.settled.add(level);
    }
    level.after?.(s, proven, bound);
    return { proven, bound };
  }

  /**
   * A large neighbourhood search for a level its LP and MIP left unproven (a model too large for
   * either in its time), or, for coverage, one its RINS left unproven, before its MIP
   * (windowsFirstShare; after it, for a class above the lowest near its bound: mipFirstWithin): windows of consecutive shifts (shiftWindows), each re-solved as a MIP with
   * every pair outside it fixed at its value, so the MIP is small; a better schedule is taken as
   * the level's MIP would be (accept). Passes over the windows go on until one gains nothing or
   * `share` of the time left is spent. A window proves nothing about the whole, so the bound stays.
   * True when the search ended on its own (passes, or the level's windowsStall windows in a row,
   * that gained nothing), not on the clock, with windows to solve. With `guided`, its windows (for
   * each pass, at most the level's window size each) instead of the level's own, the full_s of
   * the slot kinds its pairs touch free (not only those windowsKeepFull leaves), and its note says which pairs they are of.
   * Where the level's own windows end on their own unproven and it has windowsThenSize, a second
   * search with windows of that size (`then`) follows, with `share` of the time left then, and its
   * result is what this returns (false where it does not start: no time, or no windows).
   */
  private windows(
    level: ObjectiveLevel,
    held: readonly ObjectiveLevel[],
    objective: Objective,
    rowBounds: Map<number, [number, number]>,
    bound: number,
    share = level.windowsShare ?? level.mipShare,
    guided?: { of: (pass: number, size: number) => Uint8Array[]; what: string; stall?: number },
    then?: number,
  ): boolean {
    const { s } = this;
    const { p } = s;
    if (this.jslpLimits(level)?.windows === false) {
      note(
        s.phases,
        level.windowsPhase!,
        'skipped',
        level.value(s, s.values),
        bound,
        0,
        'no windows with javascript-lp-solver, whose branch and bound does not finish them',
      );
      return false;
    }
    const size = then ?? level.windowsSize?.(p) ?? WINDOW_PAIRS;
    const windowsOf = (pass: number): Uint8Array[] =>
      guided
        ? guided.of(pass, size)
        : level.windowsOf
          ? level.windowsOf(s, pass, bound, size)
          : pass % 2 === 0
            ? volunteerWindows(p, size, pass)
            : shiftWindows(p, size);
    const budget = s.budget.share(share);
    const first = windowsOf(0);
    if (first.length === 0 || s.budget.cancelled() || budget.tooShort(MIN_PHASE_S)) return false;
    const started = s.budget.now();
    const before = level.value(s, s.values);
    // Guided windows free full_s as RINS does: staffing stays held by its row, though which slot
    // kinds are fully staffed may change (rules-festival-400x300: -98 so, none with them kept).
    const keepFull = new Set(level.windowsKeepFull && !guided ? [...s.f.fullCol].filter((c) => c >= 0) : []);
    let solves = 0;
    let passes = 0;
    // Passes alternate between windows of volunteers and windows of time; two passes in a row
    // that gain nothing (one of each) end the search, as do the level's windowsStall windows in a row.
    let idle = 0;
    const stall = guided ? Infinity : (level.windowsStall ?? Infinity);
    let idleWindows = 0;
    while (idle < 2 && idleWindows < stall && !budget.expired()) {
      let gained = false;
      const windows = passes === 0 ? first : windowsOf(passes);
      passes++;
      for (const inWindow of windows) {
        if (budget.expired() || idleWindows >= stall || level.proven(level.value(s, s.values), bound)) break;
        // Pairs outside the window stay as they are (and the columns of the volunteers and shifts
        // with none in it: freeColumns), but for the slot kinds fully staffed that the level keeps so.
        const values = this.restrict(s.values);
        const freed = this.freeColumns((pair) => inWindow[pair] === 1);
        const free = (j: number): boolean => freed(j) && !(keepFull.has(j) && values[j]! > 0.5);
        const fixed = this.fixedModel(values, free, rowBounds, objective, level.mipRequest(bound, level.value(s, s.values)));
        const session = this.backend.open(fixed.model);
        try {
          const outcome = session.solve({ ...fixed.request, stallIterations: guided?.stall ?? STALL_ITERATIONS, budget, start: fixed.start });
          solves++;
          const better = this.accept(fixed.expand(outcome), level, held, level.windowsPhase);
          gained ||= better;
          idleWindows = better ? 0 : idleWindows + 1;
        } finally {
          session.dispose();
        }
      }
      idle = gained ? 0 : idle + 1;
    }
    const after = level.value(s, s.values);
    const status = searchStatus(s.budget.cancelled(), level.proven(after, bound), budget.pastDeadline());
    const text = `${solves} windows of at most ${size} ${guided ? `of ${guided.what}` : 'candidate pairs'} re-solved with the rest fixed, ${passes} passes: ${signedChange(before, after)}`;
    s.phases.push({
      name: level.windowsPhase!,
      ...(level.priority !== undefined ? { priority: level.priority } : {}),
      status,
      objective: after,
      bound,
      gap: null,
      ms: s.budget.now() - started,
      note: text,
    });
    const settled = (idle >= 2 || idleWindows >= stall) && !budget.expired();
    // Ended on its own with the level unproven: once more with larger windows (windowsThenSize), a phase of their own.
    const larger = guided || then !== undefined ? undefined : level.windowsThenSize?.(p);
    if (settled && larger !== undefined && !level.proven(after, bound)) return this.windows(level, held, objective, rowBounds, bound, share, undefined, larger);
    return settled;
  }

  /**
   * The schedule the packing bound by slot gave (LevelState.packingSchedule, read once: its LP's
   * where integral, else its columns' as a MIP), taken as a MIP's would be (accept: it keeps the rules
   * and every held level, and improves this one); the last fairness_bound phase's note says so.
   * True when the level is then proven.
   */
  private takePackingSchedule(level: ObjectiveLevel, held: readonly ObjectiveLevel[], bound: number): boolean {
    const { s } = this;
    const schedule = s.packingSchedule;
    delete s.packingSchedule;
    if (!schedule) return false;
    const before = level.value(s, s.values);
    const taken = this.accept(
      { status: 'feasible', values: columnValues(s.f, s.p, schedule), objective: null, bound: null, gap: null, ms: 0 },
      level,
      held,
      'fairness_bound',
    );
    if (taken) {
      const phase = s.phases.findLast((ph) => ph.name === 'fairness_bound');
      if (phase) phase.note = `${phase.note ?? ''}; the schedule it describes taken: ${signedChange(before, level.value(s, s.values))}`;
    }
    return level.proven(level.value(s, s.values), bound);
  }

  /**
   * The windows of the pairs where the packing bound's LP and the schedule disagree (`of`, per
   * pass), with `stall` as their stall window if given (LevelRunner.windows with `guided`); true
   * when the level is then proven.
   */
  private runGuidedWindows(
    level: ObjectiveLevel,
    held: readonly ObjectiveLevel[],
    objective: Objective,
    rowBounds: Map<number, [number, number]>,
    bound: number,
    of: (pass: number, size: number) => Uint8Array[],
    stall?: number,
  ): boolean {
    const what = "the candidate pairs where the packing bound's LP and the schedule disagree";
    this.windows(level, held, objective, rowBounds, bound, level.windowsShare, { of, what, ...(stall !== undefined ? { stall } : {}) });
    return level.proven(level.value(this.s, this.s.values), bound);
  }

  /**
   * The model of the level running with every column `free` rejects fixed at `values` (the rows
   * over fixed columns alone left out, MipModel.fixedExcept): its request (the objective on the
   * free columns, `stopAt` and `stallGap`'s bound less what the fixed ones contribute), its start, and `expand`, which
   * reads a solution of it back as one of the whole model (its objective too).
   */
  private fixedModel(
    values: Float64Array,
    free: (col: number) => boolean,
    rowBounds: Map<number, [number, number]>,
    objective: Objective,
    request: LevelMipRequest,
  ): {
    model: MipModel;
    request: Omit<PhaseRequest, 'budget' | 'start'>;
    start: Float64Array;
    expand: (outcome: PhaseOutcome) => PhaseOutcome;
  } {
    const whole = this.modelOn();
    const sub = whole.fixedExcept(values, free, rowBounds);
    const pick = (full: ArrayLike<number>): Float64Array => gather(full, sub.cols);
    let constant = 0;
    for (let j = 0; j < whole.numCols; j++) if (!free(j)) constant += objective.costs[j]! * values[j]!;
    return {
      model: sub.model,
      request: {
        ...request,
        objective: { sense: objective.sense, costs: pick(objective.costs) },
        rowBounds: new Map(),
        ...(request.stopAt !== undefined ? { stopAt: request.stopAt - constant } : {}),
        ...(request.stallGap ? { stallGap: { gap: request.stallGap.gap, bound: request.stallGap.bound - constant } } : {}),
      },
      start: pick(values),
      expand: (outcome) => {
        if (!outcome.values) return outcome;
        const mapped = Float64Array.from(values);
        sub.cols.forEach((j, k) => {
          mapped[j] = outcome.values![k]!;
        });
        return { ...outcome, values: mapped, objective: outcome.objective === null ? null : outcome.objective + constant };
      },
    };
  }

  /**
   * The level's MIP of the whole on a model without the `dropped` pairs (ObjectiveLevel.dropped),
   * fixed at 0, in a session of its own; its schedule, if any, gets back the schedule's own
   * dropped pairs wherever they still fit (the greedy fill in adopt completes it).
   */
  private mipWithout(
    level: ObjectiveLevel,
    dropped: Uint8Array,
    objective: Objective,
    rowBounds: Map<number, [number, number]>,
    request: LevelMipRequest,
  ): PhaseOutcome | undefined {
    const given = this.restrict(this.s.values);
    const values = Float64Array.from(given);
    const kept = new Uint8Array(dropped.length);
    dropped.forEach((b, pair) => {
      if (!b) return;
      kept[pair] = given[pair]! > 0.5 ? 1 : 0;
      values[pair] = 0;
    });
    const fixed = this.fixedModel(values, (j) => j >= dropped.length || dropped[j] === 0, rowBounds, objective, request);
    const text = `the MIP of the whole, the ${sum(dropped)} candidate pairs of the classes below left out`;
    const session = this.backend.open(fixed.model);
    try {
      const outcome = this.phase(level.mipPhase, fixed.request, level.mipShare, { session, start: fixed.start, text });
      if (!outcome?.values) return outcome;
      const expanded = fixed.expand(outcome);
      const x = addFitting(this.s.p, rounded(expanded.values!.subarray(0, dropped.length)), kept);
      kept.forEach((b, pair) => b && (expanded.values![pair] = x[pair]!));
      return expanded;
    } finally {
      session.dispose();
    }
  }

  /**
   * Relaxation induced neighbourhood search (Danna, Rothberg and Le Pape's RINS) at the root:
   * every candidate pair on which the level's LP optimum and the schedule agree is fixed as both
   * have it, and the MIP re-solves the others (every other column stays free but those of
   * the volunteers and shifts with no pair free: freeColumns; the held levels held). HiGHS runs the same neighbourhood itself, but only after its root cuts, which on the
   * scarce festivals take most of a level's time: there this MIP of a few hundred pairs reaches
   * the coverage bound two to seven times sooner than the MIP over them all (and on the unseen
   * scarce festival with wishes, the preferred-shifts level's from 7 to 18 in a group where the
   * MIP found none in 0.6 s). The levels of wishes run it on their own model, whose first columns
   * are the pairs too. It proves nothing about the whole; a better schedule is taken as the MIP's
   * would be, and the MIP starts from it. `stallIterations`, where given, is this call's stall
   * window, over the one the level's MIP request or the level sets (the part's RINS:
   * PART_RINS_STALL_ITERATIONS).
   */
  private rins(
    level: ObjectiveLevel,
    held: readonly ObjectiveLevel[],
    objective: Objective,
    rowBounds: Map<number, [number, number]>,
    bound: number,
    relaxed: Float64Array,
    source = 'the LP',
    stallIterations?: number,
  ): void {
    const { s } = this;
    const pairs = s.p.candShift.length;
    const values = this.restrict(s.values);
    let disagree = 0;
    for (let j = 0; j < pairs; j++) if (Math.abs(relaxed[j]! - values[j]!) > RINS_TOL) disagree++;
    if (disagree === 0 || disagree > pairs * RINS_MAX_FREE) return;
    if (this.backend.rinsMaxFreePairs !== undefined && disagree > this.backend.rinsMaxFreePairs) return;
    // With no time left the MIP's own phase says so; RINS adds no row of its own.
    if (s.budget.cancelled() || s.budget.share(level.mipShare).tooShort(MIN_PHASE_S)) return;
    const free = this.freeColumns((pair) => Math.abs(relaxed[pair]! - values[pair]!) > RINS_TOL);
    const request = level.mipRequest(bound, level.value(s, s.values));
    const fixed = this.fixedModel(values, free, rowBounds, objective, request);
    const before = level.value(s, s.values);
    const text = `the MIP over the ${disagree} of ${pairs} candidate pairs where ${source} and the schedule disagree, the rest fixed`;
    const session = this.backend.open(fixed.model);
    try {
      const outcome = this.phase(
        level.rinsPhase!,
        { ...fixed.request, stallIterations: stallIterations ?? request.stallIterations ?? level.rinsStallIterations ?? STALL_ITERATIONS },
        level.mipShare,
        {
          session,
          text,
          start: fixed.start,
        },
      );
      if (!outcome) return;
      this.accept(fixed.expand(outcome), level, held, level.rinsPhase);
      // The phase as the level sees it: the schedule's value and the level's bound (the sub-MIP's
      // own status and bound are about the neighbourhood only).
      const after = level.value(s, s.values);
      // As the windows do: cancelled, then proven, then out of time; a solver error keeps its message.
      const phase = s.phases[s.phases.length - 1]!;
      phase.objective = after;
      phase.bound = bound;
      phase.gap = null;
      if (phase.status === 'cancelled' || phase.status === 'error') return;
      phase.status = level.proven(after, bound) ? 'optimal' : phase.status === 'timedout' ? 'timedout' : 'feasible';
      phase.note = `${text}: ${signedChange(before, after)}`;
    } finally {
      session.dispose();
    }
  }

  /**
   * The LP of part of the subproblem (a relaxation of the whole, in its own short-lived session)
   * as a cheap first bound; returns the level's bound, tightened when the LP finished, and the
   * LP's optimum (the part model's columns) when it gives one.
   */
  private partBound(level: ObjectiveLevel, part: CoveragePart, bound: number): { bound: number; relaxed?: Float64Array } {
    const session = this.backend.open(part.model);
    try {
      const total = this.s.p.sub.volunteers.length;
      const text = `the LP of groups ${part.groups.map((g) => `'${g}'`).join(', ')} only (${part.volunteers} of ${total} volunteers), a relaxation of the whole`;
      const lp = this.phase(
        level.lpPhase,
        { objective: part.objective, rowBounds: new Map(), absGap: 0, relGap: 0, relaxation: true, primal: true },
        LP_SHARE,
        {
          session,
          text,
        },
      );
      if (lp?.status !== 'optimal' || lp.objective === null) return { bound };
      const last = this.s.phases[this.s.phases.length - 1]!;
      last.objective = part.constant + lp.objective;
      last.bound = last.objective;
      return { bound: level.tighten(bound, part.constant + lp.objective), ...(lp.relaxed ? { relaxed: lp.relaxed } : {}) };
    } finally {
      session.dispose();
    }
  }

  /** Every level's hold row: free for this level and later ones, at the current value for `held`. */
  private rowBounds(held: readonly ObjectiveLevel[]): Map<number, [number, number]> {
    const { s } = this;
    const bounds = new Map<number, [number, number]>();
    for (const level of this.levels) {
      if (this.on === 'cover' && !level.coverHoldRow) continue;
      const fullRow = level.holdRow?.(s.f);
      const row = this.on === 'cover' ? level.coverHoldRow!(s.f) : fullRow === undefined ? undefined : this.rowOf(fullRow);
      if (row === undefined) continue;
      const sparse = held.includes(level) ? (level.sparseHold?.(s) ?? (this.on === 'wishes' ? level.wishSparseHold?.(s) : undefined)) : undefined;
      if (!held.includes(level)) bounds.set(row, [-Infinity, Infinity]);
      else if (sparse) {
        bounds.set(row, [-Infinity, Infinity]);
        for (const [r, b] of sparse) bounds.set(r, b);
      } else if (level.objective(s.f).sense === 'max') bounds.set(row, [level.value(s, s.values) - (level.holdTolerance ?? 0), Infinity]);
      else bounds.set(row, [-Infinity, level.value(s, s.values) + (level.holdTolerance ?? 0)]);
    }
    return bounds;
  }

  /** Takes a MIP solution when it is valid, keeps every held level and improves this one; completes it with anything that still fits. */
  private accept(outcome: PhaseOutcome, level: ObjectiveLevel, held: readonly ObjectiveLevel[], phase: PhaseName = level.mipPhase): boolean {
    const { s } = this;
    const v = outcome.values;
    if (!v || outcome.status === 'infeasible' || outcome.status === 'error') return false;
    const candidate = v.subarray(0, s.f.numPairs);
    if (checkAssignment(s.p, candidate) !== undefined) return false;
    // Every level is read off the assignment itself, not off the solver's other columns: on the
    // wishes' model the held levels may be held by headcount rows alone (wishSparseHold), leaving
    // full_s free; and a MIP's fairness pieces, within its feasibility tolerance, can price the
    // same hours a little below what they are, so that a schedule no better than the one in hand
    // was taken as better (measured on a 54 x 27 roster with the rules and wishes, 60 s: fairness's
    // windows ran 35 passes in 26 s, each "better" by that alone, the sum of squares unchanged).
    const x = Uint8Array.from(candidate); // 0/1 exactly (checkAssignment)
    const w = columnValues(s.f, s.p, x);
    const keeps = held.every((h) => reaches(h.objective(s.f).sense, h.value(s, w), h.value(s, s.values), h.holdTolerance));
    if (!keeps || !improves(level.objective(s.f).sense, level.value(s, w), level.value(s, s.values))) return false;
    adopt(s, x, phase);
    return true;
  }

  /** The level's limits with javascript-lp-solver, when it is the backend. */
  private jslpLimits(level: ObjectiveLevel): JslpLimits | undefined {
    return this.backend.name === 'jslp' ? level.jslp : undefined;
  }

  /** Why the level's model is too large for its LP and MIP (columns over its limit, or rows over jslp's), or undefined. */
  private overSize(level: ObjectiveLevel): string | undefined {
    const jslp = this.jslpLimits(level);
    const cols = this.s.f.model.numCols;
    const maxCols = jslp?.maxCols ?? level.maxSolverCols;
    if (maxCols !== undefined && cols > maxCols) return `${cols} columns (over ${maxCols}${jslp?.maxCols !== undefined ? ' with javascript-lp-solver' : ''})`;
    if (jslp?.maxRows === undefined) return undefined;
    const rows = this.modelOn().numRows;
    return rows > jslp.maxRows ? `${rows} rows (over ${jslp.maxRows} with javascript-lp-solver)` : undefined;
  }

  /** The model of the level running. */
  private modelOn(): MipModel {
    const { f } = this.s;
    switch (this.on) {
      case 'cover':
        return f.cover!.model;
      case 'wishes':
        return f.wishes.model!.model;
      case 'base':
        return f.wishes.base!;
      case 'full':
        return f.model;
    }
  }

  /** The session of LPs alone on the model of the level running (ObjectiveLevel.warmLp); opened on first use, again when the model changes. */
  private lpSessionFor(): NonNullable<LevelRunner['lpSession']> {
    if (this.lpSession?.on !== this.on) {
      this.lpSession?.session.dispose();
      this.lpSession = { session: this.backend.open(this.modelOn()), on: this.on };
    }
    return this.lpSession;
  }

  /** The session on the model of the level running (opened on first use). */
  private sessionFor(): SolverSession {
    const { f } = this.s;
    switch (this.on) {
      case 'cover':
        return (this.coverSession ??= this.backend.open(f.cover!.model));
      case 'wishes':
        return (this.wishSession ??= this.backend.open(f.wishes.model!.model));
      case 'base':
        return (this.baseSession ??= this.backend.open(f.wishes.base!));
      case 'full':
        return (this.session ??= this.backend.open(f.model));
    }
  }

  /** Runs one solver phase on its share of the time left; undefined when it could not start. */
  private phase(
    name: PhaseName,
    request: Omit<PhaseRequest, 'budget' | 'start'>,
    share: number,
    own?: { session: SolverSession; text?: string; start?: Float64Array },
  ): PhaseOutcome | undefined {
    const { s } = this;
    if (s.budget.cancelled()) {
      note(s.phases, name, 'cancelled', null, null, 0, 'the solve was cancelled');
      return undefined;
    }
    const budget = s.budget.share(share);
    if (budget.tooShort(MIN_PHASE_S)) {
      note(s.phases, name, 'timedout', null, null, 0, 'no time left');
      return undefined;
    }
    const session = own ? own.session : this.sessionFor();
    const start = own ? own.start : this.restrict(s.values);
    const outcome = session.solve({ ...request, budget, ...(request.relaxation || !start ? {} : { start }) });
    const reached = request.stopAt !== undefined && outcome.objective !== null && reaches(request.objective.sense, outcome.objective, request.stopAt);
    const status = reached && outcome.status === 'feasible' ? 'optimal' : outcome.status;
    const cancelled = status !== 'optimal' && s.budget.cancelled();
    // What the caller says it solved, then what stopped it, if it says.
    const said = reached && outcome.status === 'feasible' ? 'stopped on reaching the bound' : outcome.message;
    const text = cancelled ? 'the solve was cancelled' : [own?.text, said].filter((t) => t !== undefined).join('; ') || undefined;
    s.phases.push({
      name,
      ...(this.priority !== undefined ? { priority: this.priority } : {}),
      status: cancelled ? 'cancelled' : status,
      objective: outcome.objective,
      bound: outcome.bound,
      gap: outcome.gap,
      ms: outcome.ms,
      ...(text ? { note: text } : {}),
    });
    return { ...outcome, status };
  }
}

/**
 * Windows of time: runs of consecutive slot kinds in start order holding at most `maxPairs`
 * candidate pairs (at least one slot kind), the next starting halfway through the one before; as
 * marks per pair. Empty when one window would hold every pair.
 */
export function shiftWindows(p: Prepared, maxPairs: number): Uint8Array[] {
  const n = p.sub.shifts.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => p.sub.shifts[a]!.start - p.sub.shifts[b]!.start || a - b);
  const total = p.candShift.length;
  if (total <= maxPairs) return [];
  const windows: Uint8Array[] = [];
  let from = 0;
  while (from < n) {
    let to = from;
    let pairs = 0;
    while (to < n && (to === from || pairs + p.byShift[order[to]!]!.length <= maxPairs)) pairs += p.byShift[order[to++]!]!.length;
    const marks = new Uint8Array(total);
    for (let i = from; i < to; i++) for (const pair of p.byShift[order[i]!]!) marks[pair] = 1;
    windows.push(marks);
    if (to >= n) break;
    from = Math.max(from + 1, from + Math.floor((to - from) / 2));
  }
  return windows;
}

/**
 * Windows of volunteers: the volunteers in an order of the pass's own (seeded, so every run gives
 * the same), cut into runs whose candidate pairs number at most `maxPairs` (at least one
 * volunteer); as marks per pair. Empty when one window would hold every pair. Freeing whole
 * volunteers lets a window trade shifts across the horizon, which their hours caps and rest
 * rules tie together; windows of time free whole days instead.
 */
export function volunteerWindows(p: Prepared, maxPairs: number, pass: number): Uint8Array[] {
  const n = p.sub.volunteers.length;
  const total = p.candShift.length;
  if (total <= maxPairs) return [];
  const order = seededShuffle(
    Array.from({ length: n }, (_, v) => v),
    (pass + 1) * 0x9e3779b9,
  );
  return packWindows(total, order, (v) => p.byVolunteer[v]!, maxPairs);
}

/** Volunteers in `order`, each with their pairs `pairsOf(v)` whole, packed into windows of at most `maxPairs` of `total` pairs (one with more alone), as marks per pair. */
function packWindows(total: number, order: readonly number[], pairsOf: (v: number) => readonly number[], maxPairs: number): Uint8Array[] {
  const windows: Uint8Array[] = [];
  let marks = new Uint8Array(total);
  let pairs = 0;
  for (const v of order) {
    const mine = pairsOf(v);
    if (pairs > 0 && pairs + mine.length > maxPairs) {
      windows.push(marks);
      marks = new Uint8Array(total);
      pairs = 0;
    }
    for (const pair of mine) marks[pair] = 1;
    pairs += mine.length;
  }
  if (pairs > 0) windows.push(marks);
  return windows;
}

/** `items` shuffled in place (Fisher-Yates) by a seeded mulberry32: the same seed, the same order. */
function seededShuffle<T>(items: T[], seed: number): T[] {
  const random = seededRandom(seed);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** A level of wishes that windows can meet better: an avoided shift held, hours short of min_hours, a preferred shift not held. */
export type UnmetWish = 'avoided' | 'short' | 'preferred';

/**
 * Windows for a level of wishes: the volunteers whose wish schedule `x` leaves unmet (heads, in
 * a seeded order of the pass), each with the volunteers who could give way to it: those holding
 * a slot kind the head could take (short of min_hours: any of its candidates; preferred: the
 * ones it prefers), or, for an avoided shift it holds, those who could take that shift over.
 * Whole volunteers, at most `maxPairs` candidate pairs a window; a pass's windows take the heads
 * in turn until every head has been in one. As marks per pair; empty when one window would hold
 * every pair or every wish is met.
 */
export function wishWindows(p: Prepared, x: Uint8Array, goals: SoftGoals, kind: UnmetWish, maxPairs: number, pass: number): Uint8Array[] {
  const total = p.candShift.length;
  if (total <= maxPairs) return [];
  const n = p.sub.volunteers.length;
  const hours = newHours(p, x);
  // The pairs through which a head's wish could be met: the slot kinds it would take, or the avoided ones it holds.
  const opening = (pair: number): boolean =>
    kind === 'avoided' ? goals.avoided[pair] === 1 && x[pair] === 1 : x[pair] === 0 && (kind === 'short' || goals.preferred[pair] === 1);
  const unmet = (v: number): boolean => (kind === 'short' ? shortAt(goals, v, hours[v]!) > SHORT_EPS : p.byVolunteer[v]!.some(opening));
  const heads = seededShuffle(Array.from({ length: n }, (_, v) => v).filter(unmet), (pass + 1) * 0x9e3779b9);
  const windows: Uint8Array[] = [];
  let marks = new Uint8Array(total);
  let pairs = 0;
  // Every volunteer here has pairs, and a window holds all of a volunteer's or none.
  const take = (v: number): boolean => {
    const mine = p.byVolunteer[v]!;
    if (marks[mine[0]!] === 1) return true;
    // A volunteer alone may exceed the size: a window holds at least one.
    if (pairs > 0 && pairs + mine.length > maxPairs) return false;
    for (const pair of mine) marks[pair] = 1;
    pairs += mine.length;
    return true;
  };
  for (const head of heads) {
    if (!take(head)) {
      windows.push(marks);
      marks = new Uint8Array(total);
      pairs = 0;
      take(head);
    }
    for (const pair of p.byVolunteer[head]!) {
      if (!opening(pair)) continue;
      for (const other of p.byShift[p.candShift[pair]!]!) {
        const v = p.candVolunteer[other]!;
        if (v !== head && (kind === 'avoided' || x[other] === 1)) take(v);
      }
    }
  }
  if (pairs > 0) windows.push(marks);
  return windows;
}

/**
 * Windows of the pairs where `guide` (a fractional schedule: an LP's optimum read as pairs) and
 * schedule `x` disagree: each volunteer's such pairs whole, volunteers by their first group (so
 * those who can trade shifts share a window) and by index within it, ascending on even passes
 * and descending on odd ones (so the windows' edges move), packed in that order into windows of
 * at most `maxPairs` (a volunteer with more has a window alone), as marks per pair.
 */
export function guidedWindows(p: Prepared, x: ArrayLike<number>, guide: ArrayLike<number>, maxPairs: number, pass: number): Uint8Array[] {
  const total = p.candShift.length;
  const mine = new Map<number, number[]>();
  for (let pair = 0; pair < total; pair++) {
    if (Math.abs(guide[pair]! - x[pair]!) <= RINS_TOL) continue;
    const v = p.candVolunteer[pair]!;
    const list = mine.get(v);
    if (list) list.push(pair);
    else mine.set(v, [pair]);
  }
  const groupOf = (v: number): string => p.sub.volunteers[v]!.groups[0] ?? '';
  const order = [...mine.keys()].sort((a, b) => {
    const ga = groupOf(a);
    const gb = groupOf(b);
    if (ga !== gb) return ga < gb ? -1 : 1;
    return pass % 2 === 0 ? a - b : b - a;
  });
  return packWindows(total, order, (v) => mine.get(v)!, maxPairs);
}

/**
 * Windows for fairness: the sum of squared hours is the busiest volunteers' above all, so each
 * window holds the `heads` busiest of schedule `x` (whose hours it can lower) and others drawn in
 * a seeded order of the pass (who can take hours, or trade shifts to free them), up to `maxPairs`
 * candidate pairs; `count` windows, as marks per pair. Empty when one window would hold every pair.
 */
export function busyWindows(p: Prepared, x: Uint8Array, o: { maxPairs: number; heads: number; count: number }, pass: number): Uint8Array[] {
  const total = p.candShift.length;
  if (total <= o.maxPairs) return [];
  const load = loadsOf(p, x);
  const busiest = Array.from({ length: p.sub.volunteers.length }, (_, v) => v)
    .filter((v) => p.byVolunteer[v]!.length > 0)
    .sort((a, b) => load[b]! - load[a]! || a - b);
  const heads = busiest.slice(0, o.heads);
  const windows: Uint8Array[] = [];
  for (let w = 0; w < o.count; w++) {
    const marks = new Uint8Array(total);
    let pairs = 0;
    const take = (v: number): void => {
      for (const pair of p.byVolunteer[v]!) marks[pair] = 1;
      pairs += p.byVolunteer[v]!.length;
    };
    heads.forEach(take);
    for (const v of seededShuffle(busiest.slice(o.heads), (pass * o.count + w + 1) * 0x9e3779b9)) if (pairs + p.byVolunteer[v]!.length <= o.maxPairs) take(v);
    windows.push(marks);
  }
  return windows;
}
