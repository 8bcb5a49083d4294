// A cheap bound for a coverage level of a subproblem that joins several groups: the LP of the
// part of the subproblem where the level is short, instead of the LP of the whole. When a priority
// class has slot kinds below their cheap bound (open slots or candidates), the volunteers who
// could fill them are those having one of their groups; everyone else is replaced by what they
// could at most supply to each slot kind (its open slots, and at most one per outside candidate),
// free of their rules. That is a relaxation of the whole model (of its schedules: its hours rows
// hold a volunteer to the hours their part's shifts make, rules/hours.ts, so its LP may be below
// the whole model's), so its optimum bounds the class:
// when the schedule meets it, the class is proven without the whole model's LP (measured on
// rules-festival-400x300: 85 of 400 volunteers, a few hundred ms against 1.4 s). When it does not,
// the level goes on to the whole model's LP as before.
//
// Columns: x_v<i>_s<j>[_g<k>] for the part's pairs that can matter (slot kinds of this class and
// the higher ones held, where the outside volunteers could not fill the kind alone), lock columns
// of the part's volunteers (fixed at 1), and out_s<j> (what the outside volunteers supply, at most
// min(open slots, outside candidates)). Rows: every rule's rows for the part's pairs (the rules'
// own row builders), one headcount row per slot kind kept (new assignments plus outside supply at
// most the open slots; at least the held value for a class held slot by slot), and one hold row
// per higher class held as a sum.
import { hoursRows } from '../rules/hours.js';
import { spacingRows } from '../rules/spacing.js';
import { dailyRows } from '../rules/daily.js';
import type { RowContext } from '../rules/rows.js';
import type { Placement } from '../rules/model.js';
import type { Prepared } from './candidates.js';
import { filledByClass } from './greedy.js';
import { MipModel, type Objective } from './mip-model.js';

export interface CoveragePart {
  model: MipModel;
  objective: Objective;
  /** Added to the LP's optimum: the class's slots the outside volunteers fill on their own. */
  constant: number;
  /** The groups whose volunteers make the part, and how many volunteers that is. */
  groups: string[];
  volunteers: number;
  /** The subproblem's candidate pair of each of the model's first columns (its x columns), in column order. */
  pairs: number[];
}

/** Open slots a slot kind can have filled: its open slots, or its candidates if fewer. */
const cheapBound = (p: Prepared, slot: number): number => Math.min(p.demand[slot]!, p.byShift[slot]!.length);

/**
 * The part's model for class k (index into p.classes) of the schedule x, where the higher classes
 * are held (slot by slot when `sparse[j]`, else their sum at `held[j]` new assignments); undefined
 * when the class has no short slot kind, or when the part would be the whole subproblem.
 */
export function coveragePart(p: Prepared, x: ArrayLike<number>, k: number, sparse: readonly boolean[], held: readonly number[]): CoveragePart | undefined {
  const { sub } = p;
  const nS = sub.shifts.length;
  const filled = new Int32Array(nS);
  for (let pair = 0; pair < p.candShift.length; pair++) if (x[pair]) filled[p.candShift[pair]!]!++;
  const groups = new Set<string>();
  for (let t = 0; t < nS; t++) if (p.slotClass[t] === k && filled[t]! < cheapBound(p, t)) groups.add(sub.shifts[t]!.group);
  if (groups.size === 0) return undefined;
  const inPart = sub.volunteers.map((v) => v.groups.some((g) => groups.has(g)));
  const partSize = inPart.filter(Boolean).length;
  if (partSize === sub.volunteers.length) return undefined;

  // Per slot kind: candidates outside the part, and whether the kind needs the part at all.
  const outside = new Int32Array(nS);
  const inside = new Int32Array(nS);
  p.byShift.forEach((pairs, t) => {
    for (const pair of pairs) {
      if (inPart[p.candVolunteer[pair]!]) inside[t]!++;
      else outside[t]!++;
    }
  });
  // A kind the outside candidates could fill alone imposes nothing on the part: any schedule of
  // the part can leave it to them (their supply stands in), so its pairs are dropped.
  const kept = (t: number): boolean => p.slotClass[t]! <= k && inside[t]! > 0 && outside[t]! < cheapBound(p, t);

  const m = new MipModel();
  const several = sub.groups.length > 1;
  const groupIndex = new Map(sub.groups.map((g, i) => [g, i]));
  const sName = (t: number): string => `s${sub.shifts[t]!.index}${several ? `_g${groupIndex.get(sub.shifts[t]!.group)}` : ''}`;
  const vName = (v: number): string => `v${sub.volunteers[v]!.index}`;
  m.legend.push(`coverage of priority ${p.classes[k]}: the part of groups ${[...groups].map((g) => JSON.stringify(g)).join(', ')} (${partSize} volunteers)`);
  const pairVolunteer: number[] = [];
  const pairSlot: number[] = [];
  const pairs: number[] = [];
  const byVolunteer: number[][] = sub.volunteers.map(() => []);
  const bySlot: number[][] = sub.shifts.map(() => []);
  for (let pair = 0; pair < p.candShift.length; pair++) {
    const v = p.candVolunteer[pair]!;
    const t = p.candShift[pair]!;
    if (!inPart[v] || !kept(t)) continue;
    const col = m.addCol(`x_${vName(v)}_${sName(t)}`, 0, 1, true);
    pairVolunteer.push(v);
    pairSlot.push(t);
    pairs.push(pair);
    byVolunteer[v]!.push(col);
    bySlot[t]!.push(col);
  }
  const lockCols: Array<Array<{ col: number; hours: number; lock: Placement }>> = sub.volunteers.map((v, vi) =>
    inPart[vi] ? v.locks.map((lock) => ({ col: m.addCol(`lock_${vName(vi)}_s${lock.index}`, 1, 1, true), hours: lock.hours, lock })) : [],
  );
  const rules: RowContext = {
    volunteers: sub.volunteers,
    slots: sub.shifts,
    pairVolunteer,
    pairSlot,
    byVolunteer,
    bySlot,
    lockedHours: p.lockedHours,
    remaining: p.remaining,
    lockCols,
    vName,
    sName,
    addRow: (...row) => m.addRow(...row),
  };
  hoursRows(rules);
  spacingRows(rules);
  dailyRows(rules);

  const costs: number[] = [];
  let constant = 0;
  const holdCols: number[][] = p.classes.map(() => []);
  const holdConstant = new Float64Array(p.classes.length);
  for (let t = 0; t < nS; t++) {
    const j = p.slotClass[t]!;
    if (j > k) continue;
    const most = cheapBound(p, t);
    if (!kept(t)) {
      // Filled by the outside at most (and, for the held classes, at least as needed).
      const alone = Math.min(most, outside[t]!);
      if (j === k) constant += alone;
      else holdConstant[j] = holdConstant[j]! + alone;
      continue;
    }
    const out = m.addCol(`out_${sName(t)}`, 0, Math.min(most, outside[t]!), false);
    const cols = [...bySlot[t]!, out];
    m.addRow(
      `head_${sName(t)}`,
      j < k && sparse[j] ? most : -Infinity,
      p.demand[t]!,
      cols,
      cols.map(() => 1),
    );
    if (j === k) for (const c of cols) costs[c] = 1;
    else holdCols[j]!.push(...cols);
  }
  for (let j = 0; j < k; j++) {
    if (sparse[j]) continue;
    m.addRow(
      `cover_fix_p${p.classes[j]}`,
      held[j]! - holdConstant[j]!,
      Infinity,
      holdCols[j]!,
      holdCols[j]!.map(() => 1),
    );
  }
  const objective = new Float64Array(m.numCols);
  costs.forEach((c, col) => (objective[col] = c));
  return { model: m, objective: { sense: 'max', costs: objective }, constant, groups: [...groups], volunteers: partSize, pairs };
}

/** Whether each class before k is held slot by slot (filled to its cheap bound), and its new assignments. */
export function heldClasses(p: Prepared, x: ArrayLike<number>, k: number): { sparse: boolean[]; held: number[] } {
  const byClass = filledByClass(p, x);
  const most = p.classes.map(() => 0);
  p.byShift.forEach((_, t) => (most[p.slotClass[t]!]! += cheapBound(p, t)));
  return { sparse: most.slice(0, k).map((m, j) => byClass[j]! >= m), held: byClass.slice(0, k) };
}
