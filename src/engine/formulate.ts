// Writes a subproblem as one integer linear program that serves every objective level (the
// contract's order): coverage (most filled slots, class by class from the highest priority),
// staffing (most fully staffed slot kinds) and fairness (least sum of squared hours, as a convex
// piecewise-linear function of each volunteer's hours). Phases only change the objective and the
// bounds of the rows that fix the levels already solved. Each rule writes its own rows
// (src/rules): headcount (groups.ts), hours, spacing cliques, shifts per day.
//
// Columns: x_v<i>_s<j> (binary, one per candidate pair), lock_v<i>_s<j> (locked assignments:
// integer variables fixed to 1), full_s<j> (binary: slot kind j fully staffed), seg_v<i>_k<k>
// (continuous: the k-th piece of volunteer i's hours). i and j are request indexes; in a
// subproblem of several groups a slot kind is s<j>_g<k>, k the group's place in the subproblem.
// Rows: head_s<j> (headcount), hours_v<i> (max_hours), clique_v<i>_c<k> (at most one of a set of
// mutually conflicting shifts: overlap or rest), day_v<i>_d<n> (shifts starting on day n),
// staff_s<j> (full only when every slot is filled), fair_v<i> (hours = sum of pieces), cover_fix
// (one per priority class: cover_fix_p<n> when there are several) and staff_fix.
// The volunteers' wishes (soft-goals.ts) add, only where some pair or volunteer has them and
// after everything else (so the model without them is a prefix): short_v<i> (continuous: hours
// short of min_hours) with its row min_v<i>, and the hold rows avoid_fix, short_fix, pref_fix.
// Without wishes the model is exactly the one before them.
import { dailyRows } from '../rules/daily.js';
import { headcountRows } from '../rules/groups.js';
import { gcd, hoursRows } from '../rules/hours.js';
import type { Placement } from '../rules/model.js';
import type { RowContext } from '../rules/rows.js';
import { spacingRows } from '../rules/spacing.js';
import { loadsOf, rowContext, staffable, type Prepared } from './candidates.js';
import { MipModel, type Objective } from './mip-model.js';
import { softGoals, type SoftGoals } from './soft-goals.js';

export interface Formulation {
  model: MipModel;
  numPairs: number;
  /** Column of full_s per subproblem shift (-1 when the shift needs no new volunteer). */
  fullCol: Int32Array;
  /** Per volunteer: its piece columns with their breakpoints (hours) and slopes (PieceShape). */
  pieces: Array<{ cols: number[] } & PieceShape>;
  /** Per slot kind: its headcount row (-1 where it has no candidate). */
  headRow: Int32Array;
  /**
   * For a subproblem with several priority classes or groups (2.2): the coverage levels' own
   * model, the full model's first columns (pairs, locks) and rows (every rule's rows, so the
   * headcount rows keep their indexes) plus one hold row per class. Without the staffing and
   * fairness columns its LPs solve several times faster (20,829 pairs: 2.7 s against 14 s).
   */
  cover?: { model: MipModel; fixRows: number[] };
  /** Per priority class (highest first, as Prepared.classes): its coverage objective and the row that holds it. */
  coverage: Array<{ priority: number; objective: Objective; fixRow: number }>;
  staffFixRow: number;
  staffing: Objective;
  fairness: Objective;
  /** The levels of wishes the subproblem has (objective levels 3 to 6: previous assignments, then the volunteers' wishes): each its objective and hold row. */
  wishes: Wishes;
}

export interface WishLevel {
  objective: Objective;
  fixRow: number;
}

export interface Wishes {
  goals: SoftGoals;
  /**
   * The model as it is without wishes (a prefix of the full one: the wishes' columns and rows
   * come last), where coverage and staffing solve, exactly as they would without wishes.
   */
  base?: MipModel;
  /**
   * The wishes' levels' own model: the full model's pairs, locks, rules and staffing, the
   * shortfall columns and rows, and the hold rows of coverage, staffing and the wishes, without
   * the fairness pieces (most of the columns: its LPs and MIPs solve several times faster).
   * `cols`: each of its columns' column in the full model (the first ones are the same);
   * `rows`: the full model's row to this one's, for rows past the staffing rows.
   */
  model?: SubModel;
  /** Level 3: previous assignments kept (most). */
  previous?: WishLevel;
  /**
   * With previous assignments: a cost too small to trade against one slot or one fully staffed
   * shift (it sums to at most PREVIOUS_BIAS) on each pair that keeps one, added to the coverage
   * and staffing MIPs' objectives, so that among the schedules as good for them the MIP's
   * incumbents keep previous assignments (level 3 then has less to repair).
   */
  previousBias?: Float64Array;
  avoided?: WishLevel;
  /** `cols`: short_v per volunteer (-1 where the volunteer wants no more hours or has no candidate). */
  short?: WishLevel & { cols: Int32Array };
  preferred?: WishLevel;
}

const MAX_PIECES = 64;
/** The most the previous assignments' bias adds to an integer objective (see Wishes.previousBias). */
export const PREVIOUS_BIAS = 0.01;

/** The grid (in hours) on which hours are measured: the gcd of shift lengths in minutes. */
export function hourGrid(p: Prepared): number {
  let g = 0;
  for (const s of p.sub.shifts) g = gcd(g, Math.max(1, Math.round(s.hours * 60)));
  for (const v of p.sub.volunteers) for (const l of v.locks) g = gcd(g, Math.max(1, Math.round(l.hours * 60)));
  return Math.max(1, g) / 60;
}

/** What the row builders share: the model, the prepared candidates, names and lock columns. */
interface Build {
  p: Prepared;
  m: MipModel;
  vName: (v: number) => string;
  sName: (s: number) => string;
  /** Per volunteer: its lock columns, their hours and placements. */
  lockCols: Array<Array<{ col: number; hours: number; lock: Placement }>>;
  /** The same, as the rules read it. */
  rules: RowContext;
}

/** s<j>, or s<j>_g<k> in a subproblem of several groups (a shift then has a slot kind per group). */
function slotNamer(p: Prepared): (s: number) => string {
  const { sub } = p;
  if (sub.groups.length <= 1) return (s) => `s${sub.shifts[s]!.index}`;
  const groupIndex = new Map(sub.groups.map((g, k) => [g, k]));
  return (s) => `s${sub.shifts[s]!.index}_g${groupIndex.get(sub.shifts[s]!.group)}`;
}

/**
 * `incumbentLoads` (hours per volunteer of the best schedule so far) places the fairness pieces'
 * fine anchors. Columns and rows are added in a fixed order (pairs, locks, headcount, hours,
 * cliques, staffing, fairness, level rows), so the same subproblem gives the same model.
 */
export function formulate(p: Prepared, incumbentLoads?: ArrayLike<number>): Formulation {
  const { sub } = p;
  const m = new MipModel();
  const vName = (v: number): string => `v${sub.volunteers[v]!.index}`;
  const sName = slotNamer(p);
  addLegend(p, m);
  const numPairs = p.candShift.length;
  for (let pair = 0; pair < numPairs; pair++) m.addCol(`x_${vName(p.candVolunteer[pair]!)}_${sName(p.candShift[pair]!)}`, 0, 1, true);
  // Locked assignments: fixed columns, so they count in headcounts, hours and fairness.
  const lockCols = sub.volunteers.map((v, vi) =>
    v.locks.map((lock) => ({ col: m.addCol(`lock_${vName(vi)}_s${lock.index}`, 1, 1, true), hours: lock.hours, lock })),
  );
  const rules = rowContext(p, { lockCols, vName, sName, addRow: (...row) => m.addRow(...row) });
  const b: Build = { p, m, vName, sName, lockCols, rules };
  const headRow = headcountRows(
    rules,
    sub.shifts.map((s) => s.required),
    sub.shifts.map((s) => s.locked),
  );
  hoursRows(rules);
  spacingRows(rules);
  dailyRows(rules);
  const ruleCols = m.numCols;
  const ruleRows = m.numRows;
  const fullCol = addStaffingRows(b);
  const [staffCols, staffRows] = [m.numCols, m.numRows];
  const { pieces, fairCosts, step } = addFairnessPieces(b, incumbentLoads);
  const fullCols = [...fullCol].filter((c) => c >= 0);
  const coverFixRows = p.classes.map((priority, k) =>
    addSumRow(
      m,
      p.classes.length === 1 ? 'cover_fix' : `cover_fix_p${priority}`,
      Array.from({ length: numPairs }, (_, i) => i).filter((pair) => p.slotClass[p.candShift[pair]!] === k),
    ),
  );
  const staffFixRow = addSumRow(m, 'staff_fix', fullCols);
  // The model without wishes ends here; the wishes' columns and rows come after, so it stays a prefix.
  const [baseCols, baseRows] = [m.numCols, m.numRows];
  const goals = softGoals(p);
  const short = goals.uses.short ? addShortfallRows(b, goals) : undefined;
  const wishes = addWishLevels(b, goals, short?.cols);
  const { coverage, ...rest } = objectives(b, fullCols, fairCosts, step);
  if (wishes.previous || wishes.avoided || wishes.short || wishes.preferred) {
    wishes.base = m.prefix(baseCols, baseRows);
    const holds = [...coverFixRows, staffFixRow, ...[wishes.previous, wishes.avoided, wishes.short, wishes.preferred].flatMap((w) => (w ? [w.fixRow] : []))];
    const cols = [...Array.from({ length: staffCols }, (_, j) => j), ...(short ? [...short.cols].filter((c) => c >= 0) : [])];
    const rows = [...Array.from({ length: staffRows }, (_, r) => r), ...(short?.rows ?? []), ...holds];
    wishes.model = subModel(m, cols, rows);
  }
  let cover: Formulation['cover'];
  if (p.classes.length > 1 || sub.groups.length > 1) {
    const { model, rows } = copyRows(m, m.prefix(ruleCols, ruleRows), coverFixRows);
    cover = { model, fixRows: coverFixRows.map((row) => rows.get(row)!) };
  }
  return {
    model: m,
    numPairs,
    headRow,
    ...(cover ? { cover } : {}),
    fullCol,
    pieces,
    staffFixRow,
    wishes,
    coverage: p.classes.map((priority, k) => ({ priority, objective: coverage[k]!, fixRow: coverFixRows[k]! })),
    ...rest,
  };
}

function addLegend(p: Prepared, m: MipModel): void {
  const { sub } = p;
  const sName = slotNamer(p);
  const several = sub.groups.length > 1;
  m.legend.push(
    `${several ? 'groups' : 'group'} ${sub.groups.map((g) => JSON.stringify(g)).join(', ')}: ${sub.volunteers.length} volunteers, ${sub.shifts.length} ${several ? 'slot kinds' : 'shifts'}`,
  );
  sub.volunteers.forEach((v) => m.legend.push(`v${v.index} = volunteer ${JSON.stringify(v.id)}`));
  sub.shifts.forEach((s, i) =>
    m.legend.push(
      `${sName(i)} = shift ${JSON.stringify(s.id)}${several ? ` group ${JSON.stringify(s.group)}` : ''} (${s.hours} h, needs ${s.required}, ${s.locked} locked${s.priority > 1 ? `, priority ${s.priority}` : ''})`,
    ),
  );
}

/** Part of a model: some of its columns and rows, with where each came from. */
export interface SubModel {
  model: MipModel;
  cols: Int32Array;
  rows: Map<number, number>;
}

/** The columns `cols` and rows `rows` of `m` (each row only over those columns), in that order. */
function subModel(m: MipModel, cols: readonly number[], rows: readonly number[]): SubModel {
  const model = new MipModel();
  model.legend.push(...m.legend);
  const at = new Map<number, number>();
  for (const c of cols) at.set(c, model.addCol(m.colNames[c]!, m.colLower[c]!, m.colUpper[c]!, m.colInteger[c]!));
  const where = new Map<number, number>();
  for (const r of rows) {
    const [from, to] = [m.rowStarts[r]!, m.rowStarts[r + 1]!];
    const entries = Array.from(m.indices.slice(from, to), (c) => at.get(c)!);
    where.set(r, model.addRow(m.rowNames[r]!, m.rowLower[r]!, m.rowUpper[r]!, entries, m.values.slice(from, to)));
  }
  return { model, cols: Int32Array.from(cols), rows: where };
}

/** A prefix of `m` with copies of `rows` of `m` (free), and where each went. */
function copyRows(m: MipModel, model: MipModel, rows: readonly number[]): { model: MipModel; rows: Map<number, number> } {
  const where = new Map<number, number>();
  for (const row of rows) {
    const [from, to] = [m.rowStarts[row]!, m.rowStarts[row + 1]!];
    where.set(row, model.addRow(m.rowNames[row]!, -Infinity, Infinity, m.indices.slice(from, to), m.values.slice(from, to)));
  }
  return { model, rows: where };
}

/** A row whose bounds a level sets later (cover_fix, staff_fix): the plain sum of its columns. */
function addSumRow(m: MipModel, name: string, cols: number[]): number {
  return m.addRow(
    name,
    -Infinity,
    Infinity,
    cols,
    cols.map(() => 1),
  );
}

/** Staffing: full_s may be 1 only when every slot of the shift is filled. Returns full_s per shift. */
function addStaffingRows({ p, m, sName }: Build): Int32Array {
  const fullCol = new Int32Array(p.sub.shifts.length).fill(-1);
  p.sub.shifts.forEach((_, si) => {
    if (!staffable(p, si)) return;
    const col = m.addCol(`full_${sName(si)}`, 0, 1, true);
    fullCol[si] = col;
    const pairs = p.byShift[si]!;
    m.addRow(`staff_${sName(si)}`, 0, Infinity, [...pairs, col], [...pairs.map(() => 1), -p.demand[si]!]);
  });
  return fullCol;
}

/**
 * One volunteer's price of hours: piece k runs from breakpoints[k] to breakpoints[k + 1] at
 * slopes[k] (increasing), from 0 hours; none (both empty) for a volunteer with no candidate pair.
 */
export interface PieceShape {
  breakpoints: readonly number[];
  slopes: readonly number[];
}

/** What the bounds on fairness read of a model: each volunteer's pieces. */
export interface FairnessPieces {
  pieces: readonly PieceShape[];
}

/**
 * Each volunteer's fairness pieces (linesThrough), as the model places them around
 * `incumbentLoads` (addFairnessPieces), and their step: the bounds on fairness price hours by
 * these without building the model.
 */
export function fairnessPieceShapes(p: Prepared, incumbentLoads: ArrayLike<number> | undefined): { pieces: PieceShape[]; step: number } {
  const { sub } = p;
  const grid = hourGrid(p);
  const maxHours = sub.volunteers.map((_, vi) => {
    const candidateHours = p.byVolunteer[vi]!.reduce((total, pair) => total + sub.shifts[p.candShift[pair]!]!.hours, 0);
    return p.lockedHours[vi]! + Math.min(p.remaining[vi]!, candidateHours);
  });
  const longest = Math.max(0, ...sub.shifts.map((s) => s.hours));
  const fineTop = Math.min(Math.max(0, ...maxHours), Math.max(0, ...Array.from(incumbentLoads ?? [])) + longest);
  // The level of min_hours moves a volunteer's load up to their target after the model is built:
  // the pieces of one whose locks leave hours wanted are fine up to it too.
  const fineFor = sub.volunteers.map((v, vi) => (v.minHours > p.lockedHours[vi]! ? Math.max(fineTop, Math.min(v.minHours + longest, maxHours[vi]!)) : fineTop));
  // At most MAX_PIECES fine pieces for anyone.
  const step = grid * Math.max(1, Math.ceil(Math.max(0, ...fineFor) / (MAX_PIECES * grid)));
  const pieces = sub.volunteers.map((_, vi) =>
    p.byVolunteer[vi]!.length === 0 ? { breakpoints: [], slopes: [] } : linesThrough(anchorsUpTo(maxHours[vi]!, step, fineFor[vi]!), grid),
  );
  return { pieces, step };
}

/**
 * The pieces over `anchors` (0 first, on the grid of hours, at least one grid step apart, the last
 * at or above the volunteer's most hours): the most of the lines through the squares of a and of
 * a + grid, for each anchor a but the last (which only ends the last piece). Hours are whole grid
 * steps (hourGrid), and on the grid such a line is the square at those two points and below it at
 * every other one (the square is convex), so the pieces price every load at most its square, and
 * exactly at each anchor but the last and one grid step past it. Two lines of anchors a < b meet
 * at (a + b + grid) / 2, one grid step past a where b = a + grid: where the anchors are one grid
 * step apart these are the chords between them, exact at every load. Between anchors d apart they
 * fall short of a square by up to (d^2 - grid^2) / 4; chords overstate it by up to d^2 / 4, and the
 * fairness bound would then bound the pieces, not the squares: on m-wishes-scarce-200x400 the
 * levels after the model was built loaded an unlimited volunteer to 59 hours, between anchors 58
 * and 60, priced 3,482 by the chord.
 */
export function linesThrough(anchors: readonly number[], grid: number): PieceShape {
  const last = anchors.length - 1;
  const breakpoints = [0];
  const slopes: number[] = [];
  for (let k = 0; k < last; k++) {
    slopes.push(2 * anchors[k]! + grid);
    breakpoints.push(k + 1 < last ? (anchors[k]! + anchors[k + 1]! + grid) / 2 : anchors[last]!);
  }
  return { breakpoints, slopes };
}

/** The model's price of `h` hours (linesThrough: the square on the grid, or below it). */
export function piecesValue({ breakpoints, slopes }: PieceShape, h: number): number {
  let total = 0;
  for (let k = 0; k < slopes.length; k++) {
    const a = breakpoints[k]!;
    if (h <= a) break;
    total += slopes[k]! * (Math.min(breakpoints[k + 1]!, h) - a);
  }
  const last = breakpoints[slopes.length] ?? 0;
  // Past the last breakpoint (never in a schedule: the model stops there): keep the last slope.
  if (h > last && slopes.length > 0) total += slopes[slopes.length - 1]! * (h - last);
  return total;
}

/**
 * How far the pieces price the loads of `x` below their squares (volunteers with pieces): 0 where
 * every load is at a point where the pieces are exact (each anchor and one grid step past it: every
 * load on the grid where the anchors are one grid step apart). The fairness level reports its value
 * with this added: the schedule's sum of squares.
 */
export function squaresShortfall(p: Prepared, f: FairnessPieces, x: ArrayLike<number>): number {
  const loads = loadsOf(p, x);
  let total = 0;
  f.pieces.forEach((shape, v) => {
    if (shape.slopes.length > 0) total += loads[v]! * loads[v]! - piecesValue(shape, loads[v]!);
  });
  return total;
}

/**
 * Fairness: hours as a sum of pieces with increasing slopes (fairnessPieceShapes, linesThrough),
 * exact on the grid of shift lengths (where 64 pieces reach: at each anchor and one grid step past
 * it, where they do not) up to where loads actually are (the incumbent's busiest
 * volunteer plus one long shift; for a volunteer with min_hours, up to that target plus one long
 * shift), with anchors twice as far apart each time beyond: an unlimited volunteer could take
 * hundreds of hours, but a fair schedule never gives them. Beyond the fine anchors the pieces are
 * below the squares (never above), so the fairness level's bounds bound the sum of squares, and
 * its value is the schedule's squares (fairnessLevel.reportedValue adds what the pieces leave out).
 */
function addFairnessPieces(
  b: Build,
  incumbentLoads: ArrayLike<number> | undefined,
): { pieces: Formulation['pieces']; fairCosts: Array<[number, number]>; step: number } {
  const { p, m, vName, lockCols } = b;
  const { sub } = p;
  const { pieces: shapes, step } = fairnessPieceShapes(p, incumbentLoads);
  const pieces: Formulation['pieces'] = [];
  const fairCosts: Array<[number, number]> = [];
  sub.volunteers.forEach((_, vi) => {
    const pairs = p.byVolunteer[vi]!;
    const shape = shapes[vi]!;
    const { breakpoints, slopes } = shape;
    if (breakpoints.length === 0) {
      pieces.push({ cols: [], ...shape });
      return;
    }
    const cols: number[] = [];
    slopes.forEach((slope, k) => {
      const col = m.addCol(`seg_${vName(vi)}_k${k}`, 0, breakpoints[k + 1]! - breakpoints[k]!, false);
      cols.push(col);
      fairCosts.push([col, slope]);
    });
    pieces.push({ cols, ...shape });
    const hourCols = [...pairs, ...lockCols[vi]!.map((l) => l.col)];
    const hourCoefs = [...pairs.map((pair) => -sub.shifts[p.candShift[pair]!]!.hours), ...lockCols[vi]!.map((l) => -l.hours)];
    m.addRow(`fair_${vName(vi)}`, 0, 0, [...cols, ...hourCols], [...cols.map(() => 1), ...hourCoefs]);
  });
  return { pieces, fairCosts, step };
}

/**
 * min_hours: short_v >= what the volunteer still wants minus the hours of their new assignments.
 * Minimizing the sum of short_v gives the sum of max(0, wanted - hours); later levels may leave
 * slack in a short_v, never below the true shortfall, so the held sum still bounds the truth.
 */
function addShortfallRows({ p, m, vName }: Build, goals: SoftGoals): { cols: Int32Array; rows: number[] } {
  const cols = new Int32Array(p.sub.volunteers.length).fill(-1);
  const rows: number[] = [];
  p.sub.volunteers.forEach((_, vi) => {
    const wanted = goals.wanted[vi]!;
    const pairs = p.byVolunteer[vi]!;
    if (!(wanted > 0) || pairs.length === 0) return;
    const col = m.addCol(`short_${vName(vi)}`, 0, wanted, false);
    cols[vi] = col;
    rows.push(m.addRow(`min_${vName(vi)}`, wanted, Infinity, [col, ...pairs], [1, ...pairs.map((pair) => p.sub.shifts[p.candShift[pair]!]!.hours)]));
  });
  return { cols, rows };
}

/** The wishes' objectives and hold rows, for the levels the subproblem has. */
function addWishLevels({ p, m }: Build, goals: SoftGoals, shortCols: Int32Array | undefined): Wishes {
  const numPairs = p.candShift.length;
  const pairsWhere = (flags: Uint8Array): number[] => Array.from({ length: numPairs }, (_, i) => i).filter((pair) => flags[pair] === 1);
  const level = (name: string, sense: Objective['sense'], cols: number[]): WishLevel => {
    const fixRow = addSumRow(m, name, cols);
    const costs = new Float64Array(m.numCols);
    for (const c of cols) costs[c] = 1;
    return { objective: { sense, costs }, fixRow };
  };
  const wishes: Wishes = { goals };
  if (goals.uses.previous) {
    const pairs = pairsWhere(goals.previous);
    wishes.previous = level('prev_fix', 'max', pairs);
    wishes.previousBias = new Float64Array(m.numCols);
    for (const pair of pairs) wishes.previousBias[pair] = PREVIOUS_BIAS / (pairs.length + 1);
  }
  if (goals.uses.avoided) wishes.avoided = level('avoid_fix', 'min', pairsWhere(goals.avoided));
  if (shortCols)
    wishes.short = {
      ...level(
        'short_fix',
        'min',
        [...shortCols].filter((c) => c >= 0),
      ),
      cols: shortCols,
    };
  if (goals.uses.preferred) wishes.preferred = level('pref_fix', 'max', pairsWhere(goals.preferred));
  return wishes;
}

/** 0, step, 2 step, ... up to fineTop, then doubling widths, until `top` is covered. */
function anchorsUpTo(top: number, step: number, fineTop: number): number[] {
  const anchors = [0];
  let last = 0;
  let width = step;
  while (last < top - 1e-9) {
    if (last >= fineTop - 1e-9) width *= 2;
    last += width;
    anchors.push(last);
  }
  return anchors;
}

/** The levels' objectives (coverage per priority class); request order is the last tie-break, inside fairness. */
function objectives(
  { p, m }: Build,
  fullCols: number[],
  fairCosts: Array<[number, number]>,
  step: number,
): Pick<Formulation, 'staffing' | 'fairness'> & { coverage: Objective[] } {
  const numPairs = p.candShift.length;
  const coverage = p.classes.map(() => new Float64Array(m.numCols));
  for (let j = 0; j < numPairs; j++) coverage[p.slotClass[p.candShift[j]!]!]![j] = 1;
  const staffing = new Float64Array(m.numCols);
  for (const c of fullCols) staffing[c] = 1;
  const fairness = new Float64Array(m.numCols);
  for (const [col, cost] of fairCosts) fairness[col] = cost;
  // A cost too small to trade against any fairness step.
  const tie = (step * step * 0.01) / Math.max(1, numPairs);
  const nS = p.sub.shifts.length;
  for (let pair = 0; pair < numPairs; pair++) {
    const rank = (p.candVolunteer[pair]! * nS + p.candShift[pair]!) / Math.max(1, p.sub.volunteers.length * nS);
    fairness[pair] = tie * rank;
  }
  return {
    coverage: coverage.map((costs) => ({ sense: 'max', costs })),
    staffing: { sense: 'max', costs: staffing },
    fairness: { sense: 'min', costs: fairness },
  };
}

/** Full column values for a 0/1 assignment of the pairs: a MIP start every phase accepts. */
export function columnValues(f: Formulation, p: Prepared, x: ArrayLike<number>): Float64Array {
  const values = new Float64Array(f.model.numCols);
  for (let j = 0; j < f.model.numCols; j++) if (f.model.colLower[j] === f.model.colUpper[j]) values[j] = f.model.colLower[j]!;
  const filled = new Int32Array(p.sub.shifts.length);
  const hours = Float64Array.from(p.lockedHours);
  for (let pair = 0; pair < f.numPairs; pair++) {
    if (!x[pair]) continue;
    values[pair] = 1;
    filled[p.candShift[pair]!]!++;
    hours[p.candVolunteer[pair]!]! += p.sub.shifts[p.candShift[pair]!]!.hours;
  }
  f.fullCol.forEach((col, s) => {
    if (col >= 0) values[col] = filled[s]! >= p.demand[s]! ? 1 : 0;
  });
  f.pieces.forEach(({ cols, breakpoints }, v) => {
    let left = hours[v]!;
    cols.forEach((col, k) => {
      const len = breakpoints[k + 1]! - breakpoints[k]!;
      values[col] = Math.max(0, Math.min(len, left));
      left -= values[col];
    });
  });
  const short = f.wishes.short;
  if (short) short.cols.forEach((col, v) => col >= 0 && (values[col] = Math.max(0, f.wishes.goals.wanted[v]! - (hours[v]! - p.lockedHours[v]!))));
  return values;
}

/** The fairness objective of an assignment as the model measures it: its pieces' price of hours (at most the sum of squares), and the tie-break. */
export function fairnessObjective(f: Formulation, values: ArrayLike<number>): number {
  let total = 0;
  for (let j = 0; j < f.model.numCols; j++) total += f.fairness.costs[j]! * values[j]!;
  return total;
}
