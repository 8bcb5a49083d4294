// The pairs (volunteer, slot kind) of a subproblem that could ever be assigned: the slot kind
// still has open slots after its locks, the volunteer has its group and can come then
// (availability), and the rules pass against the volunteer's locks alone (same shift, overlap and
// rest, daily shifts, hours). Everything else is fixed at 0 and never becomes a variable.
import { isAvailable } from '../rules/availability.js';
import { placement, type Placement } from '../rules/model.js';
import { Roster } from '../rules/roster.js';
import type { RowContext } from '../rules/rows.js';
import type { SubShift, Subproblem } from './subproblem.js';

export interface Prepared {
  sub: Subproblem;
  /** Open slots per slot kind: required minus locked, at least 0. */
  demand: Int32Array;
  /** Hours of locked assignments per volunteer. */
  lockedHours: Float64Array;
  /** Hours left under the cap per volunteer after the locks (Infinity when unlimited, 0 at least). */
  remaining: Float64Array;
  /** Candidate pairs, ordered by volunteer then slot kind. */
  candVolunteer: Int32Array;
  candShift: Int32Array;
  /** Candidate pair indexes per slot kind, and per volunteer. */
  byShift: number[][];
  byVolunteer: number[][];
  /** Priority classes present among the slot kinds, highest first; and each slot kind's class (index into it). */
  classes: number[];
  slotClass: Int32Array;
}

/** A roster of the subproblem's volunteers holding their locks: where every schedule starts. */
export function lockedRoster(sub: Subproblem): Roster {
  const roster = new Roster(sub.volunteers);
  sub.volunteers.forEach((v, i) => {
    for (const l of v.locks) roster.add(i, l);
  });
  return roster;
}

const placements = new WeakMap<SubShift, Placement>();

/** Each volunteer's hours under the 0/1 pair vector `x`, locks included. */
export function loadsOf(p: Prepared, x: ArrayLike<number>): Float64Array {
  const loads = Float64Array.from(p.lockedHours);
  for (let pair = 0; pair < p.candShift.length; pair++) if (x[pair]) loads[p.candVolunteer[pair]!]! += p.sub.shifts[p.candShift[pair]!]!.hours;
  return loads;
}

/** A new assignment to a slot kind, as the roster records it (one object per slot kind, reused). */
export function placementOf(s: SubShift): Placement {
  let p = placements.get(s);
  if (!p) {
    p = placement(s, s.group, false);
    placements.set(s, p);
  }
  return p;
}

export function prepare(sub: Subproblem): Prepared {
  const nS = sub.shifts.length;
  const nV = sub.volunteers.length;
  const demand = new Int32Array(nS);
  sub.shifts.forEach((s, i) => (demand[i] = Math.max(0, s.required - s.locked)));
  const lockedHours = new Float64Array(nV);
  const remaining = new Float64Array(nV);
  sub.volunteers.forEach((v, i) => {
    lockedHours[i] = v.locks.reduce((sum, l) => sum + l.hours, 0);
    remaining[i] = Math.max(0, v.capHours - lockedHours[i]);
  });
  const slotsOfGroup = new Map<string, number[]>();
  sub.shifts.forEach((s, i) => {
    const list = slotsOfGroup.get(s.group);
    if (list) list.push(i);
    else slotsOfGroup.set(s.group, [i]);
  });

  const roster = lockedRoster(sub);
  const candVolunteer: number[] = [];
  const candShift: number[] = [];
  const byShift: number[][] = Array.from({ length: nS }, () => []);
  const byVolunteer: number[][] = Array.from({ length: nV }, () => []);
  for (let v = 0; v < nV; v++) {
    const vol = sub.volunteers[v]!;
    // The group rule: the slot kinds of the volunteer's groups (one group's list as it is; no
    // flatMap, which is slow in V8, for every volunteer).
    const slots = vol.groups.length === 1 ? (slotsOfGroup.get(vol.groups[0]!) ?? []) : slotsOfGroups(vol.groups, slotsOfGroup);
    for (const s of slots) {
      if (demand[s] === 0) continue;
      const shift = sub.shifts[s]!;
      if (!isAvailable(vol, shift) || !roster.fits(v, shift)) continue;
      const pair = candShift.length;
      candVolunteer.push(v);
      candShift.push(s);
      byShift[s]!.push(pair);
      byVolunteer[v]!.push(pair);
    }
  }
  const classes = [...new Set(sub.shifts.map((s) => s.priority))].sort((a, b) => b - a);
  const slotClass = Int32Array.from(sub.shifts.map((s) => classes.indexOf(s.priority)));
  return {
    sub,
    demand,
    lockedHours,
    remaining,
    candVolunteer: Int32Array.from(candVolunteer),
    candShift: Int32Array.from(candShift),
    byShift,
    byVolunteer,
    classes,
    slotClass,
  };
}

/**
 * Volunteer `v`'s candidate pair of slot kind `s`, or -1: a binary search of byVolunteer[v], which
 * prepare builds in slot kind order. Local search asks it for swaps; a map of every pair built
 * per call cost more than the searches (rules-festival-400x300's kicks: 0.6 s of 1.6 s).
 */
export function pairAt(p: Prepared, v: number, s: number): number {
  const mine = p.byVolunteer[v]!;
  let lo = 0;
  let hi = mine.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = p.candShift[mine[mid]!]!;
    if (at === s) return mine[mid]!;
    if (at < s) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Whether new assignments can staff slot kind `s` fully: it has open slots after its locks and at
 * least as many candidates (the slot kinds the staffing level counts; the model's full_s).
 */
export function staffable(p: Prepared, s: number): boolean {
  return p.demand[s]! > 0 && p.byShift[s]!.length >= p.demand[s]!;
}

/** The slot kinds of several groups, in slot order. */
function slotsOfGroups(groups: readonly string[], slotsOfGroup: ReadonlyMap<string, number[]>): number[] {
  const slots: number[] = [];
  for (const g of groups) for (const s of slotsOfGroup.get(g) ?? []) slots.push(s);
  return slots.sort((a, b) => a - b);
}

/** The prepared candidates as the rules' row builders read them (see src/rules/rows.ts). */
export function rowContext(p: Prepared, parts: Pick<RowContext, 'lockCols' | 'vName' | 'sName' | 'addRow'>): RowContext {
  return {
    volunteers: p.sub.volunteers,
    slots: p.sub.shifts,
    pairVolunteer: p.candVolunteer,
    pairSlot: p.candShift,
    byVolunteer: p.byVolunteer,
    bySlot: p.byShift,
    lockedHours: p.lockedHours,
    remaining: p.remaining,
    ...parts,
  };
}
