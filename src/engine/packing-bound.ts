// The packing bound on the fairness objective: hours come in shift lengths. Water-filling (and the
// fairness LP, which on one group equals it) lets a volunteer take 7 hours out of 6-hour and
// 2-hour shifts; a real schedule gives them 6 or 8. Here each volunteer's new hours are a
// configuration: which slots they take, counted per slot kind (length, priority class and
// group), only of slot kinds they are a candidate for, within their hours left, no two shifts
// that overlap and one slot of a shift at most. The LP over configurations (each volunteer picks
// a mix of configurations; the slots of each kind taken are at most the open slots, and each
// class fills at least what the coverage levels hold) is solved by column generation: the
// restricted LP starts from the incumbent's configurations (so it is feasible at once), and each
// round prices every kind of volunteer by a knapsack over their candidate shifts in order of
// end (its timeline), or, for a volunteer with too many candidate shifts for that, by a bounded
// knapsack over counts per slot kind that ignores overlaps. Every round gives a valid Lagrangian
// lower bound from the LP's duals, so the bound holds wherever the rounds stop. On the timeline a
// shift follows only the ones that end the volunteer's rest before it starts (the spacing rule);
// daily limits are ignored, and so is staffing but by slot (below). On the festival benchmarks it proves schedules optimal
// that water-filling left 1% off; the rest raised rules-festival-400x300's bound by 1.6%
// (BENCHMARKS.md). Where no model is built (over the MIP limit) it is fairness's only bound. With
// `bySlot` the rows are each shift's slot kinds instead of kinds of slot summed over shifts: the
// LP over configurations of the assignment itself, tighter where volunteers differ in which
// shifts they can take, in more rounds (levels.ts runs it only where no fairness LP follows).
// With `wishes` the LP holds the wishes fairness holds, at the schedule's own values. With
// `staffing` (by slot), it holds staffing at the schedule's count of fully staffed slot kinds, as
// staffing's LP relaxation: where slots stay empty, a schedule cannot leave them anywhere it likes
// (rules-festival-400x300, 6 of 824 empty: 26,487 -> 26,562).
import type { ColumnLp, LpColumn, SolverBackend } from './backends/backend.js';
import { MipModel } from './mip-model.js';
import type { Budget } from './budget.js';
import { staffable, type Prepared } from './candidates.js';
import { gcd } from '../rules/hours.js';
import { piecesValue, type FairnessPieces, type PieceShape } from './formulate.js';
import { filledByClass } from './greedy.js';
import { avoidedCount, preferredCount, previousCount, SHORT_EPS, shortAt, shortfall, type SoftGoals } from './soft-goals.js';
import { restMs } from '../rules/spacing.js';

/** Column generation rounds at most (each: one LP solve and one knapsack per kind of volunteer). */
export const PACKING_ROUNDS = 80;
/** Knapsack work (states x items, summed over rounds) at most: a count of work, not of time, so the bound does not depend on the machine. */
export const PACKING_WORK = 40_000_000;
/** A volunteer whose candidate shifts times loads (grid units) are at most this is priced by the timeline (no overlaps). */
export const TIMELINE_CELLS = 200_000;
/** Configurations added per kind of volunteer and round at most (the best few loads). */
const COLUMNS_PER_TYPE = 3;
const EPS = 1e-7;

/** The wishes' rows, in the levels' order (short: hours, the others: assignments counted). */
const WISH_ROWS = ['previous', 'avoided', 'short', 'preferred'] as const;
type WishRow = (typeof WISH_ROWS)[number];
/** Where a configuration counts its assignments of each counted wish. */
const WISH_INDEX: Record<Exclude<WishRow, 'short'>, number> = { previous: 0, avoided: 1, preferred: 2 };
const WISH_COUNTS = 3;
/** Rows held at least at the schedule's value (the others at most). */
const atLeast = (w: WishRow): boolean => w === 'previous' || w === 'preferred';

/** One volunteer's new assignments: their count per slot kind, and how many keep a previous assignment, are avoided, are preferred. */
interface Configuration {
  counts: Int32Array;
  wish: Float64Array;
}

const configKey = (t: number, c: Configuration): string => `${t}|${c.counts.join(',')}|${c.wish.join(',')}`;

function addWishCounts(wish: Float64Array, goals: SoftGoals, pair: number): void {
  wish[WISH_INDEX.previous]! += goals.previous[pair]!;
  wish[WISH_INDEX.avoided]! += goals.avoided[pair]!;
  wish[WISH_INDEX.preferred]! += goals.preferred[pair]!;
}

/** The wishes as schedule `x` meets them: the values the levels before fairness hold. */
function heldWishes(p: Prepared, goals: SoftGoals, x: ArrayLike<number>): Record<WishRow, number> {
  return { previous: previousCount(goals, x), avoided: avoidedCount(goals, x), short: shortfall(p, goals, x), preferred: preferredCount(goals, x) };
}

export interface PackingLimits {
  rounds: number;
  work: number;
  /** Above this many shifts x loads a volunteer is priced by counts per slot kind (default TIMELINE_CELLS). */
  timelineCells?: number;
  /**
   * One row per slot kind of each shift (its open slots), not per kind of slot (length, class and
   * group) summed over shifts: the LP over configurations of the assignment itself, tighter where
   * volunteers can take different shifts of one kind (availability, rest, locks), with more rows
   * and rounds.
   */
  bySlot?: boolean;
  /**
   * The wishes fairness holds (the levels before it): rows for previous assignments kept (at
   * least), avoided shifts (at most), hours short of min_hours (at most) and preferred shifts (at
   * least) at the schedule's own counts, for the levels `uses` says the subproblem has; each
   * wishing volunteer a kind of their own. Left out (the bound without them, still valid) when a
   * wishing volunteer is priced by counts.
   */
  wishes?: SoftGoals;
  /**
   * With `bySlot`: staffing held at the schedule's count of fully staffed slot kinds, relaxed as
   * its LP relaxation (full_k in [0, 1], the slots taken of kind k at least full_k times its
   * headcount, the full_k summing to at least that count). Without it a schedule may leave its
   * empty slots anywhere; staffing held keeps them to few slot kinds, which concentrates hours.
   */
  staffing?: boolean;
  /**
   * With `bySlot`: where the last LP's solution is fractional, solve its columns as a MIP (whole
   * numbers of each configuration, full_k 0 or 1; the restricted master: price-and-branch) from
   * the schedule's own configurations, for PackingOutcome.schedule; at most this many LP
   * iterations without a better solution (PhaseRequest.stallIterations).
   */
  master?: { stallIterations: number };
}

export interface PackingOutcome {
  /** A lower bound on the fairness objective (its tie-breaks aside, which are >= 0). */
  bound: number;
  /** The restricted LP's last objective. */
  lp: number | null;
  rounds: number;
  columns: number;
  /** Kinds of volunteer (same locked hours, hours left, pieces and slot kinds they can take) and of slot (length, class, group). */
  types: number;
  kinds: number;
  /** Column generation converged: the bound is the LP over configurations. */
  converged: boolean;
  /**
   * Not converged, and stopped by the clock (or an LP the clock cut), not by its rounds or work
   * limit: given more time the rounds would go on, where a limit would stop them at the same point.
   * An LP that failed otherwise (ColumnLp.solve does not say why) counts here too: another run
   * is only tried, never trusted.
   */
  clockStopped: boolean;
  /** Its time, from the start to the bound (the MIP over its columns, PackingOutcome.master, included). */
  ms: number;
  /** With PackingLimits.staffing (by slot): the slot kinds fully staffed that the LP holds, of those that can be. */
  staffing?: { held: number; kinds: number };
  /**
   * By slot: the last LP's solution read as candidate pairs (per pair, the share of its kind of
   * volunteer's configurations, weighted by the LP, that take its slot kind): a fractional
   * schedule that guides fairness's windows where no fairness LP runs (levels.ts guidedWindows).
   */
  pairs?: Float64Array;
  /**
   * By slot, where that solution is integral (a whole number of each configuration), or else
   * where PackingLimits.master's MIP over its columns finds a solution better than the schedule
   * bounded: the schedule it describes, each kind of volunteer's configurations handed to its
   * volunteers in order (they can take the same shifts), every pair of a shift outside the LP's
   * rows as in the schedule bounded. Whether it keeps the rules and the levels held is for the
   * caller to check (LevelRunner.takePackingSchedule).
   */
  schedule?: Uint8Array;
  /** Where PackingLimits.master's MIP ran: its objective (null: no solution) and time. */
  master?: { objective: number | null; ms: number };
}

interface VolunteerKind {
  /** Volunteers of this kind. */
  n: number;
  /** Locked hours, hours left (grid units) and the model's pieces. */
  lo: number;
  cap: number;
  shape: PieceShape;
  /** Candidate slot kinds per slot kind (capped by what the hours allow). */
  m: Int32Array;
  /** The price of each load (grid units) looked at so far. */
  costs: number[];
  /** Their candidate shifts in order of end, when pricing by the timeline (undefined: by counts per slot kind). */
  timeline?: Timeline;
  /** A wishing volunteer's own kind: their candidate pair per slot kind of a shift, and the volunteer (for their hours still wanted). */
  wisher?: { pairOf: Map<number, number>; v: number };
}

/**
 * A volunteer's candidate shifts as intervals, by end: a configuration takes at most one slot
 * kind of a shift and no two shifts that overlap. `before[i]`: how many of them end by the time
 * shift i starts (the shifts that can come before it are that prefix).
 */
interface Timeline {
  /** Per shift: its candidate slot kinds (indexes into the subproblem's shifts). */
  slots: number[][];
  units: Int32Array;
  before: Int32Array;
}

/** The timeline of candidate slot kinds `slots` (subproblem shift indexes), for a volunteer whose shifts need `restMs` between them. */
function timelineOf(sub: Prepared['sub'], slots: readonly number[], unitsOf: (slot: number) => number, restMs: number): Timeline {
  const byShift = new Map<number, number[]>();
  for (const slot of slots) {
    const index = sub.shifts[slot]!.index;
    const list = byShift.get(index);
    if (list) list.push(slot);
    else byShift.set(index, [slot]);
  }
  const shifts = [...byShift.values()].sort((a, b) => sub.shifts[a[0]!]!.end - sub.shifts[b[0]!]!.end || sub.shifts[a[0]!]!.start - sub.shifts[b[0]!]!.start);
  // With rest r, a shift can follow the ones whose end widened by r is at most its start (the
  // spacing rule's conflicts: the widened windows overlap); the order by end stays the same.
  const ends = shifts.map((list) => sub.shifts[list[0]!]!.end + restMs);
  const before = Int32Array.from(shifts, (list) => {
    const start = sub.shifts[list[0]!]!.start;
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! <= start) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  });
  return { slots: shifts, units: Int32Array.from(shifts, (list) => unitsOf(list[0]!)), before };
}

/**
 * The packing bound of subproblem `p` for the incumbent `x` (its configurations start the LP, and
 * its filled slots per class are what every schedule fills at least); undefined when the backend
 * cannot solve such an LP or the shift lengths are not on a grid of minutes.
 */
export function packingBound(
  p: Prepared,
  f: FairnessPieces,
  x: ArrayLike<number>,
  backend: SolverBackend,
  budget: Budget,
  limits: PackingLimits = { rounds: PACKING_ROUNDS, work: PACKING_WORK },
): PackingOutcome | undefined {
  if (!backend.columnLp) return undefined;
  const started = budget.now();
  const { sub } = p;
  // Slot kinds by (length, class); the grid of lengths in minutes.
  let gridMin = 0;
  for (let i = 0; i < sub.shifts.length; i++) {
    const minutes = sub.shifts[i]!.hours * 60;
    if (Math.abs(minutes - Math.round(minutes)) > 1e-6) return undefined;
    if (p.byShift[i]!.length > 0) gridMin = gcd(gridMin, Math.max(1, Math.round(minutes)));
  }
  if (gridMin === 0) return undefined;
  const grid = gridMin / 60;
  const kindIndex = new Map<string, number>();
  const kindUnits: number[] = [];
  const kindClass: number[] = [];
  const kindOpen: number[] = [];
  const kindOfShift = new Int32Array(sub.shifts.length).fill(-1);
  sub.shifts.forEach((s, i) => {
    const open = Math.min(p.demand[i]!, p.byShift[i]!.length);
    if (open <= 0) return;
    const units = Math.round((s.hours * 60) / gridMin);
    const key = limits.bySlot ? `${i}` : `${units}|${p.slotClass[i]}|${s.group}`;
    let k = kindIndex.get(key);
    if (k === undefined) {
      k = kindUnits.length;
      kindIndex.set(key, k);
      kindUnits.push(units);
      kindClass.push(p.slotClass[i]!);
      kindOpen.push(0);
    }
    kindOpen[k]! += open;
    kindOfShift[i] = k;
  });
  const K = kindUnits.length;
  const C = p.classes.length;
  const filled = filledByClass(p, x);

  // Kinds of volunteer, and the incumbent's configuration of each volunteer.
  const typeIndex = new Map<string, number>();
  const types: VolunteerKind[] = [];
  const incumbent = new Map<string, { type: number; config: Configuration }>();
  const incumbentCount = new Map<string, number>();
  const members: number[][] = [];
  const goals = limits.wishes;
  // The wishes' rows (previous, avoided, short, preferred: the levels this subproblem has).
  const wishNames = goals ? WISH_ROWS.filter((w) => goals.uses[w]) : [];
  let wishesPriced = wishNames.length > 0;
  f.pieces.forEach((shape, v) => {
    if (shape.slopes.length === 0) return;
    const m = new Int32Array(K);
    const config: Configuration = { counts: new Int32Array(K), wish: new Float64Array(WISH_COUNTS) };
    const slots: number[] = [];
    let candidateHours = 0;
    const pairOf = new Map<number, number>();
    let wishes = goals !== undefined && goals.wanted[v]! > SHORT_EPS;
    for (const pair of p.byVolunteer[v]!) {
      const s = p.candShift[pair]!;
      candidateHours += sub.shifts[s]!.hours;
      const k = kindOfShift[s]!;
      if (k < 0) continue;
      m[k]!++;
      slots.push(s);
      pairOf.set(s, pair);
      if (goals && (goals.previous[pair] || goals.avoided[pair] || goals.preferred[pair])) wishes = true;
      if (x[pair]) {
        config.counts[k]!++;
        if (goals) addWishCounts(config.wish, goals, pair);
      }
    }
    const cap = Math.floor(Math.min(p.remaining[v]!, candidateHours) / grid + 1e-9);
    for (let k = 0; k < K; k++) m[k] = Math.min(m[k]!, Math.floor(cap / kindUnits[k]!));
    const lo = p.lockedHours[v]!;
    // By the timeline when its knapsack stays small (shifts x loads), else by counts per slot kind.
    const onTimeline = slots.length * (cap + 1) <= (limits.timelineCells ?? TIMELINE_CELLS);
    // A wishing volunteer's pairs have wishes of their own: they are a kind of volunteer alone.
    const wisher = wishNames.length > 0 && wishes;
    if (wisher && !onTimeline) wishesPriced = false;
    const rest = restMs(sub.volunteers[v]!);
    const key = `${wisher ? `w${v}|` : ''}${lo}|${cap}|${shape.breakpoints.join(',')}|${onTimeline ? `t${rest}|${slots.join(',')}` : m.join(',')}`;
    let t = typeIndex.get(key);
    if (t === undefined) {
      t = types.length;
      typeIndex.set(key, t);
      const timeline = onTimeline ? timelineOf(sub, slots, (slot) => kindUnits[kindOfShift[slot]!]!, rest) : undefined;
      types.push({
        n: 0,
        lo,
        cap,
        shape,
        m,
        costs: [],
        ...(timeline ? { timeline } : {}),
        ...(wisher ? { wisher: { pairOf, v } } : {}),
      });
    }
    types[t]!.n++;
    (members[t] ??= []).push(v);
    const ckey = configKey(t, config);
    if (!incumbent.has(ckey)) incumbent.set(ckey, { type: t, config });
    incumbentCount.set(ckey, (incumbentCount.get(ckey) ?? 0) + 1);
  });
  // Rows of wishes only where every wishing volunteer's configurations say which shifts they hold.
  const wishRows = wishesPriced ? wishNames : [];
  const W = wishRows.length;
  if (types.length === 0) return undefined;
  // Staffing (bySlot: kind k is shift k's slot kind): the kinds that can be fully staffed, as the
  // model's full_s (a headcount above the locks, and at least as many candidates), their
  // headcounts, and how many the schedule staffs fully.
  const staffed: number[] = [];
  const staffedDemand: number[] = [];
  const staffRowOf = new Int32Array(K).fill(-1);
  let staffedHeld = 0;
  if (limits.bySlot && limits.staffing) {
    const taken = new Int32Array(sub.shifts.length);
    for (let pair = 0; pair < p.candShift.length; pair++) if (x[pair]) taken[p.candShift[pair]!]!++;
    sub.shifts.forEach((_, i) => {
      const k = kindOfShift[i]!;
      if (k < 0 || !staffable(p, i)) return;
      staffRowOf[k] = staffed.length;
      staffed.push(k);
      staffedDemand.push(p.demand[i]!);
      if (taken[i]! >= p.demand[i]!) staffedHeld++;
    });
  }
  // One row per such kind (slots taken - headcount x full_k >= 0) and one for their count, where any is held.
  const S = staffedHeld > 0 ? staffed.length : 0;

  // Rows: slot kinds (at most open), classes (at least filled), kinds of volunteer (exactly n),
  // then the wishes at the schedule's own counts (previous and preferred at least, avoided and
  // short at most), then staffing (each kind's row, then the count: at least).
  const T = types.length;
  const staffBase = K + C + T + W;
  const countRow = staffBase + S;
  const R = staffBase + (S > 0 ? S + 1 : 0);
  const rowLower = new Float64Array(R);
  const rowUpper = new Float64Array(R).fill(Infinity);
  for (let k = 0; k < K; k++) {
    rowLower[k] = -Infinity;
    rowUpper[k] = kindOpen[k]!;
  }
  for (let c = 0; c < C; c++) {
    rowLower[K + c] = filled[c]!;
    rowUpper[K + c] = Infinity;
  }
  types.forEach((t, i) => {
    rowLower[K + C + i] = t.n;
    rowUpper[K + C + i] = t.n;
  });
  const held = goals && W > 0 ? heldWishes(p, goals, x) : undefined;
  wishRows.forEach((w, i) => {
    rowLower[K + C + T + i] = atLeast(w) ? held![w] : -Infinity;
    rowUpper[K + C + T + i] = atLeast(w) ? Infinity : held![w] + (w === 'short' ? SHORT_EPS : 0);
  });
  if (S > 0) rowLower[countRow] = staffedHeld;
  /** A configuration's coefficient in wish row `w`, for a volunteer of `type` with `units` new hours on the grid. */
  const wishCoef = (type: VolunteerKind, config: Configuration, units: number, w: WishRow): number =>
    w === 'short' ? (type.wisher ? shortAt(goals!, type.wisher.v, units * grid) : 0) : config.wish[WISH_INDEX[w]]!;
  const seen = new Set<string>();
  // What each LP column is, in the order added (full_k: undefined).
  const made: Array<{ t: number; config: Configuration } | undefined> = [];
  const columnOf = new Map<string, number>();
  const column = (t: number, config: Configuration): LpColumn => {
    columnOf.set(configKey(t, config), made.length);
    made.push({ t, config });
    const type = types[t]!;
    const rows: number[] = [];
    const values: number[] = [];
    const perClass = new Float64Array(C);
    let units = 0;
    for (let k = 0; k < K; k++) {
      const q = config.counts[k]!;
      if (q === 0) continue;
      rows.push(k);
      values.push(q);
      perClass[kindClass[k]!]! += q;
      units += q * kindUnits[k]!;
    }
    for (let c = 0; c < C; c++) {
      if (perClass[c]! === 0) continue;
      rows.push(K + c);
      values.push(perClass[c]!);
    }
    rows.push(K + C + t);
    values.push(1);
    wishRows.forEach((w, i) => {
      const a = wishCoef(type, config, units, w);
      if (a === 0) return;
      rows.push(K + C + T + i);
      values.push(a);
    });
    if (S > 0)
      for (let k = 0; k < K; k++) {
        if (config.counts[k]! === 0 || staffRowOf[k]! < 0) continue;
        rows.push(staffBase + staffRowOf[k]!);
        values.push(config.counts[k]!);
      }
    seen.add(configKey(t, config));
    return { cost: piecesValue(type.shape, type.lo + units * grid), rows, values };
  };
  const first: LpColumn[] = [];
  types.forEach((_, t) => first.push(column(t, { counts: new Int32Array(K), wish: new Float64Array(WISH_COUNTS) })));
  for (const [key, { type, config }] of incumbent) if (!seen.has(key)) first.push(column(type, config));
  // full_k: no cost; at most 1 already, as its row allows no more (a kind's slots taken are at most its headcount).
  const fullColumn: number[] = [];
  for (let j = 0; j < S; j++) {
    fullColumn.push(made.length);
    first.push({ cost: 0, rows: [staffBase + j, countRow], values: [-staffedDemand[j]!, 1] });
    made.push(undefined);
  }

  const lp: ColumnLp = backend.columnLp(rowLower, rowUpper, first);
  const columns = [...first];
  const outcome: PackingOutcome = {
    bound: -Infinity,
    lp: null,
    rounds: 0,
    columns: first.length,
    types: T,
    kinds: K,
    converged: false,
    clockStopped: false,
    ms: 0,
    ...(S > 0 ? { staffing: { held: staffedHeld, kinds: S } } : {}),
  };
  let work = 0;
  let last: Float64Array | undefined;
  try {
    while (outcome.rounds < limits.rounds && !budget.expired()) {
      const solved = lp.solve(budget);
      if (!solved) break;
      last = solved.colValue;
      outcome.rounds++;
      outcome.lp = solved.objective;
      const dual = solved.rowDual;
      // Duals of the right signs (<= 0 for at most, >= 0 for at least) keep the bound valid whatever the LP's accuracy.
      const kindDual = Float64Array.from({ length: K }, (_, k) => Math.min(0, dual[k]!));
      const classDual = Float64Array.from({ length: C }, (_, c) => Math.max(0, dual[K + c]!));
      const staffDual = Float64Array.from({ length: S }, (_, j) => Math.max(0, dual[staffBase + j]!));
      const worth = Float64Array.from(
        { length: K },
        (_, k) => kindDual[k]! + classDual[kindClass[k]!]! + (staffRowOf[k]! >= 0 ? staffDual[staffRowOf[k]!]! : 0),
      );
      const wishDual: Record<WishRow, number> = { previous: 0, avoided: 0, short: 0, preferred: 0 };
      let bound = 0;
      wishRows.forEach((w, i) => {
        wishDual[w] = atLeast(w) ? Math.max(0, dual[K + C + T + i]!) : Math.min(0, dual[K + C + T + i]!);
        bound += wishDual[w] * (atLeast(w) ? rowLower[K + C + T + i]! : rowUpper[K + C + T + i]!);
      });
      const wished = W > 0 ? { goals: goals!, dual: wishDual, grid } : undefined;
      for (let k = 0; k < K; k++) bound += kindDual[k]! * kindOpen[k]!;
      for (let c = 0; c < C; c++) bound += classDual[c]! * filled[c]!;
      if (S > 0) {
        // The count's dual times what it holds, and each full_k at its best in [0, 1] (reduced cost headcount x z_k - w).
        const countDual = Math.max(0, dual[countRow]!);
        bound += countDual * staffedHeld;
        for (let j = 0; j < S; j++) bound += Math.min(0, staffedDemand[j]! * staffDual[j]! - countDual);
      }
      const added: LpColumn[] = [];
      for (let t = 0; t < T && work <= limits.work; t++) {
        const type = types[t]!;
        const priced = type.timeline
          ? priceTimeline(type, type.timeline, worth, kindOfShift, kindUnits, grid, dual[K + C + t]!, type.wisher ? wished : undefined)
          : price(type, worth, kindUnits, grid, dual[K + C + t]!);
        work += priced.work;
        bound += types[t]!.n * Math.min(priced.least, dual[K + C + t]!);
        for (const config of priced.columns) {
          if (!seen.has(configKey(t, config))) added.push(column(t, config));
        }
      }
      if (work > limits.work) break;
      outcome.bound = Math.max(outcome.bound, bound);
      if (added.length === 0) {
        outcome.converged = true;
        break;
      }
      lp.addColumns(added);
      columns.push(...added);
      outcome.columns += added.length;
    }
  } finally {
    lp.dispose();
  }
  outcome.clockStopped = !outcome.converged && outcome.rounds < limits.rounds && work <= limits.work;
  if (limits.bySlot && last) {
    outcome.pairs = pairShares(p, last, made, members, types, kindOfShift);
    // Integral throughout, full_k too (else the schedule may staff fewer slot kinds than held).
    const whole = fullColumn.every((j) => Math.abs(last[j]! - Math.round(last[j]!)) <= 1e-6);
    let schedule = whole ? integralSchedule(p, x, last, made, members, kindOfShift) : undefined;
    if (!schedule && limits.master && !budget.expired()) {
      // The schedule's own configurations are columns: it is the master MIP's start.
      const start = new Float64Array(columns.length);
      for (const [key, n] of incumbentCount) start[columnOf.get(key)!] = n;
      if (S > 0) {
        const taken = new Float64Array(K);
        columns.forEach((c, j) => {
          for (let i = 0; i < c.rows.length; i++) if (c.rows[i]! < K) taken[c.rows[i]!]! += start[j]! * c.values[i]!;
        });
        staffed.forEach((k, j) => {
          const col = fullColumn[j]!;
          start[col] = taken[k]! >= staffedDemand[j]! ? 1 : 0;
        });
      }
      const solved = masterMip(backend, columns, rowLower, rowUpper, start, budget, limits.master.stallIterations);
      outcome.master = { objective: solved.objective, ms: solved.ms };
      if (solved.values) schedule = integralSchedule(p, x, solved.values, made, members, kindOfShift);
    }
    if (schedule) outcome.schedule = schedule;
  }
  outcome.ms = budget.now() - started;
  return Number.isFinite(outcome.bound) ? outcome : undefined;
}

/**
 * An LP solution over configurations (by slot: slot kind k is shift k's) as a value per
 * candidate pair: for a volunteer of kind t, the LP's weight on t's configurations that take the
 * pair's slot kind, divided by how many volunteers are of kind t.
 */
function pairShares(
  p: Prepared,
  values: Float64Array,
  made: ReadonlyArray<{ t: number; config: Configuration } | undefined>,
  members: readonly number[][],
  types: readonly VolunteerKind[],
  kindOfShift: Int32Array,
): Float64Array {
  const taken = types.map(() => new Map<number, number>());
  values.forEach((weight, j) => {
    const m = made[j];
    if (!m || weight <= EPS) return;
    const counts = m.config.counts;
    const into = taken[m.t]!;
    for (let k = 0; k < counts.length; k++) if (counts[k]! > 0) into.set(k, (into.get(k) ?? 0) + weight * counts[k]!);
  });
  const out = new Float64Array(p.candShift.length);
  members.forEach((vs, t) => {
    const n = types[t]!.n;
    for (const v of vs)
      for (const pair of p.byVolunteer[v]!) {
        const k = kindOfShift[p.candShift[pair]!]!;
        if (k >= 0) out[pair] = Math.min(1, (taken[t]!.get(k) ?? 0) / n);
      }
  });
  return out;
}

/**
 * The LP's columns as a MIP (every column a whole number; full_k at most 1 by its row), from
 * `start`, within `budget` and at most `stall` LP iterations without a better solution.
 */
function masterMip(
  backend: SolverBackend,
  columns: readonly LpColumn[],
  rowLower: Float64Array,
  rowUpper: Float64Array,
  start: Float64Array,
  budget: Budget,
  stall: number,
): { values?: Float64Array; objective: number | null; ms: number } {
  const model = new MipModel();
  const costs = new Float64Array(columns.length);
  const byRow: Array<{ cols: number[]; coefs: number[] }> = Array.from({ length: rowLower.length }, () => ({ cols: [], coefs: [] }));
  columns.forEach((c, j) => {
    model.addCol(`c${j}`, 0, Infinity, true);
    costs[j] = c.cost;
    c.rows.forEach((r, i) => {
      byRow[r]!.cols.push(j);
      byRow[r]!.coefs.push(c.values[i]!);
    });
  });
  byRow.forEach(({ cols, coefs }, r) => model.addRow(`r${r}`, rowLower[r]!, rowUpper[r]!, cols, coefs));
  const session = backend.open(model);
  try {
    const outcome = session.solve({
      objective: { sense: 'min', costs },
      rowBounds: new Map(),
      start,
      budget,
      absGap: 1e-6,
      relGap: 1e-4,
      stallIterations: stall,
    });
    const ok = outcome.values && (outcome.status === 'optimal' || outcome.status === 'feasible' || outcome.status === 'timedout');
    return { ...(ok ? { values: outcome.values! } : {}), objective: ok ? outcome.objective : null, ms: outcome.ms };
  } finally {
    session.dispose();
  }
}

/**
 * By slot, an LP solution over configurations that is integral as the schedule it describes
 * (PackingOutcome.schedule); undefined where some configuration's weight is fractional, or a
 * kind's weights do not sum to its volunteers.
 */
function integralSchedule(
  p: Prepared,
  x: ArrayLike<number>,
  values: Float64Array,
  made: ReadonlyArray<{ t: number; config: Configuration } | undefined>,
  members: readonly number[][],
  kindOfShift: Int32Array,
): Uint8Array | undefined {
  const out = Uint8Array.from(x);
  // Every pair of a volunteer of some kind, on a shift the LP has a row for, is the LP's to say.
  for (const vs of members) for (const v of vs) for (const pair of p.byVolunteer[v]!) if (kindOfShift[p.candShift[pair]!]! >= 0) out[pair] = 0;
  const next = members.map(() => 0);
  for (let j = 0; j < values.length; j++) {
    const m = made[j];
    if (!m) continue;
    const weight = Math.round(values[j]!);
    if (Math.abs(values[j]! - weight) > 1e-6) return undefined;
    for (let copy = 0; copy < weight; copy++) {
      const v = members[m.t]![next[m.t]!++];
      if (v === undefined) return undefined;
      for (const pair of p.byVolunteer[v]!) {
        const k = kindOfShift[p.candShift[pair]!]!;
        if (k >= 0 && m.config.counts[k]! > 0) out[pair] = 1;
      }
    }
  }
  return next.every((n, t) => n === members[t]!.length) ? out : undefined;
}

/** What pricing one kind of volunteer gives: the least of cost - worth over its configurations, the configurations to add (counts per slot kind), and the work done. */
interface Priced {
  least: number;
  columns: Configuration[];
  work: number;
}

/** A wishing volunteer's pricing: the wishes' duals (signs kept) and the grid of hours. */
interface Wished {
  goals: SoftGoals;
  dual: Record<WishRow, number>;
  grid: number;
}

/**
 * The loads to look at when a configuration is worth at most `rate` per grid unit: cost - rate *
 * load is convex; past a load where it is >= mu and rising, it stays so, so no configuration of a
 * larger load has a negative reduced cost (and its least is at least mu, which the caller uses).
 */
function reach(type: VolunteerKind, rate: number, mu: number, grid: number, wished?: Wished): { top: number; cost: (units: number) => number } {
  const { costs } = type;
  // Hours short of min_hours, priced by their row's dual (<= 0): convex in the load, as the pieces are.
  const shortPrice = wished && type.wisher ? -wished.dual.short : 0;
  const cost = (units: number): number => {
    while (costs.length <= units) costs.push(piecesValue(type.shape, type.lo + costs.length * grid));
    return costs[units]! + (shortPrice > 0 ? shortPrice * shortAt(wished!.goals, type.wisher!.v, units * grid) : 0);
  };
  let top = 0;
  while (top < type.cap) {
    const here = cost(top) - rate * top;
    const next = cost(top + 1) - rate * (top + 1);
    if (here >= mu && next >= here) break;
    top++;
  }
  return { top, cost };
}

/** From the best worth of each exact load: the least of cost - worth, and the few loads of most negative reduced cost (cost - worth - mu). */
function bestLoads(bestAt: (load: number) => number, top: number, cost: (units: number) => number, mu: number): { least: number; loads: number[] } {
  let least = Infinity;
  const negative: Array<[reduced: number, load: number]> = [];
  for (let load = 0; load <= top; load++) {
    const worth = bestAt(load);
    if (worth === -Infinity) continue;
    const value = cost(load) - worth;
    least = Math.min(least, value);
    if (value - mu < -EPS) negative.push([value - mu, load]);
  }
  negative.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { least, loads: negative.slice(0, COLUMNS_PER_TYPE).map(([, load]) => load) };
}

/** Prices a kind of volunteer by counts per slot kind: a bounded knapsack on exact loads (overlaps ignored). */
function price(type: VolunteerKind, worth: Float64Array, kindUnits: readonly number[], grid: number, mu: number): Priced {
  const K = worth.length;
  let rate = 0;
  for (let k = 0; k < K; k++) if (type.m[k]! > 0) rate = Math.max(rate, worth[k]! / kindUnits[k]!);
  const { top, cost } = reach(type, rate, mu, grid);
  // Items: each kind split in powers of two (bounded knapsack as 0/1).
  const itemKind: number[] = [];
  const itemCount: number[] = [];
  for (let k = 0; k < K; k++) {
    let left = Math.min(type.m[k]!, Math.floor(top / kindUnits[k]!));
    for (let q = 1; left > 0; q *= 2) {
      const take = Math.min(q, left);
      itemKind.push(k);
      itemCount.push(take);
      left -= take;
    }
  }
  const width = top + 1;
  const best = new Float64Array(width).fill(-Infinity);
  best[0] = 0;
  const took = new Uint8Array(itemKind.length * width);
  itemKind.forEach((k, i) => {
    const w = itemCount[i]! * kindUnits[k]!;
    const value = itemCount[i]! * worth[k]!;
    for (let load = top; load >= w; load--) {
      const candidate = best[load - w]! + value;
      if (candidate > best[load]! + 1e-12) {
        best[load] = candidate;
        took[i * width + load] = 1;
      }
    }
  });
  const { least, loads } = bestLoads((load) => best[load]!, top, cost, mu);
  const columns = loads.map((load) => {
    const counts = new Int32Array(K);
    let at = load;
    for (let i = itemKind.length - 1; i >= 0; i--) {
      if (took[i * width + at]) {
        counts[itemKind[i]!]! += itemCount[i]!;
        at -= itemCount[i]! * kindUnits[itemKind[i]!]!;
      }
    }
    return { counts, wish: new Float64Array(WISH_COUNTS) };
  });
  return { least, columns, work: width * Math.max(1, itemKind.length) };
}

/**
 * Prices a kind of volunteer by its timeline: the most worth for each exact load over sets of
 * its candidate shifts no two of which overlap, one slot kind of each (a knapsack over the
 * shifts in order of end, each either skipped or taken after the ones that end before it starts).
 */
function priceTimeline(
  type: VolunteerKind,
  timeline: Timeline,
  worth: Float64Array,
  kindOfShift: Int32Array,
  kindUnits: readonly number[],
  grid: number,
  mu: number,
  wished?: Wished,
): Priced {
  const n = timeline.slots.length;
  // Each shift at its slot kind of most worth (a wishing volunteer's pair adds its wishes' duals).
  const pick = new Int32Array(n);
  const value = new Float64Array(n);
  let rate = 0;
  const pairOf = type.wisher?.pairOf;
  const wishWorth = (slot: number): number => {
    if (!wished || !pairOf) return 0;
    const pair = pairOf.get(slot)!;
    const { goals, dual } = wished;
    return dual.previous * goals.previous[pair]! + dual.avoided * goals.avoided[pair]! + dual.preferred * goals.preferred[pair]!;
  };
  timeline.slots.forEach((slots, i) => {
    let best = -Infinity;
    for (const slot of slots) {
      const w = worth[kindOfShift[slot]!]! + wishWorth(slot);
      if (w > best) {
        best = w;
        pick[i] = slot;
      }
    }
    value[i] = best;
    rate = Math.max(rate, best / timeline.units[i]!);
  });
  const { top, cost } = reach(type, rate, mu, grid, wished);
  const width = top + 1;
  // Row r: the first r shifts by end.
  const best = new Float64Array((n + 1) * width).fill(-Infinity);
  best[0] = 0;
  const took = new Uint8Array(n * width);
  for (let i = 0; i < n; i++) {
    const row = (i + 1) * width;
    const from = timeline.before[i]! * width;
    const u = timeline.units[i]!;
    best.copyWithin(row, i * width, row);
    for (let load = u; load <= top; load++) {
      const candidate = best[from + load - u]! + value[i]!;
      if (candidate > best[row + load]! + 1e-12) {
        best[row + load] = candidate;
        took[i * width + load] = 1;
      }
    }
  }
  const { least, loads } = bestLoads((load) => best[n * width + load]!, top, cost, mu);
  const columns = loads.map((load) => {
    const config: Configuration = { counts: new Int32Array(kindUnits.length), wish: new Float64Array(WISH_COUNTS) };
    let at = load;
    let i = n - 1;
    while (i >= 0 && at > 0) {
      if (took[i * width + at]) {
        config.counts[kindOfShift[pick[i]!]!]!++;
        if (wished && pairOf) addWishCounts(config.wish, wished.goals, pairOf.get(pick[i]!)!);
        at -= timeline.units[i]!;
        i = timeline.before[i]! - 1;
      } else i--;
    }
    return config;
  });
  return { least, columns, work: (n + 1) * width };
}
