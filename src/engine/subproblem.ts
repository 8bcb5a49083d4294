// Splits a normalized problem into independent subproblems: the connected components of the graph
// whose nodes are groups, joined by every volunteer who can fill more than one. A slot of group g
// takes only volunteers having g, and every rule binds one volunteer's own shifts, so filled
// slots (per priority class), fully staffed slots and the sum of squared hours all split exactly
// by component. With one group per volunteer a component is one group, as in 2.1. The data is
// plain and structured-cloneable: it is what a solver worker receives.
import type { Problem, Volunteer } from '../input/problem.js';
import { placement, type Placement } from '../rules/model.js';
import { openPrevious } from '../rules/previous.js';
import type { RowSlot } from '../rules/rows.js';

export interface SubVolunteer extends Volunteer {
  /** Locked assignments of this volunteer, in any shift (they use time, rest, days and hours). */
  locks: Placement[];
  /** Previous assignments that can still hold: the shift (request index) and the groups whose slot may keep it (objective level 3). */
  previous: Array<{ shift: number; groups: string[] }>;
}

/** A slot kind: one group of one shift the component covers. */
export interface SubShift extends RowSlot {
  /** Headcount the shift requires of this group. */
  required: number;
  /** Locks filling slots of this group in this shift. */
  locked: number;
}

export interface Subproblem {
  /** The component's groups in order of first appearance among the shifts, joined by ' + ' (its name in diagnostics). */
  group: string;
  groups: string[];
  volunteers: SubVolunteer[];
  /** Slot kinds with a headcount > 0, by shift request order, then the shift's required_groups order. */
  shifts: SubShift[];
}

/** Union-find over group names. */
class Components {
  private readonly parent = new Map<string, string>();

  find(g: string): string {
    let root = g;
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root)!;
    if (!this.parent.has(g)) this.parent.set(g, g);
    let node = g;
    while (node !== root) {
      const next = this.parent.get(node)!;
      this.parent.set(node, root);
      node = next;
    }
    return root;
  }

  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(rb, ra);
  }
}

/**
 * One subproblem per component that some shift requires and some volunteer belongs to, in order
 * of first appearance among the shifts.
 */
export function decompose(problem: Problem): Subproblem[] {
  const components = new Components();
  const members = new Set<string>();
  for (const v of problem.volunteers) {
    for (const g of v.groups) {
      members.add(g);
      components.union(v.groups[0]!, g);
    }
  }
  const locksOf = new Map<number, Placement[]>();
  const lockedCount = new Map<string, number>();
  for (const lock of problem.locks) {
    const s = problem.shifts[lock.shift]!;
    const lockPlacement = placement(s, lock.group, true);
    const list = locksOf.get(lock.volunteer);
    if (list) list.push(lockPlacement);
    else locksOf.set(lock.volunteer, [lockPlacement]);
    const key = `${s.index}\u0000${lock.group}`;
    if (lock.group !== null) lockedCount.set(key, (lockedCount.get(key) ?? 0) + 1);
  }
  const previousOf = openPrevious(problem);
  const byRoot = new Map<string, Subproblem>();
  for (const s of problem.shifts) {
    for (const [group, required] of s.required) {
      if (required <= 0 || !members.has(group)) continue;
      const root = components.find(group);
      let sub = byRoot.get(root);
      if (!sub) {
        sub = { group: '', groups: [], volunteers: [], shifts: [] };
        byRoot.set(root, sub);
      }
      if (!sub.groups.includes(group)) sub.groups.push(group);
      // Written out, not spread from ruleShift(s): in V8 a spread with more properties after it
      // gives every object a hidden class of its own (see placement in src/rules/model.ts).
      const locked = lockedCount.get(`${s.index}\u0000${group}`) ?? 0;
      sub.shifts.push({ index: s.index, id: s.id, start: s.start, end: s.end, hours: s.hours, priority: s.priority, day: s.day, group, required, locked });
    }
  }
  for (const v of problem.volunteers) {
    const sub = byRoot.get(components.find(v.groups[0]!));
    // Object.assign, not a spread, for the same reason: one hidden class for all volunteers.
    if (sub) sub.volunteers.push(Object.assign({}, v, { locks: locksOf.get(v.index) ?? [], previous: previousOf.get(v.index) ?? [] }));
  }
  for (const sub of byRoot.values()) sub.group = sub.groups.join(' + ');
  return [...byRoot.values()];
}

/** A volunteer of one group with no rule but max_hours (warm-up and tests build subproblems by hand). */
export function plainVolunteer(index: number, id: string, group: string, capHours: number): SubVolunteer {
  return {
    index,
    id,
    name: id,
    group,
    groups: [group],
    maxHours: Number.isFinite(capHours) ? capHours : 999,
    capHours,
    available: null,
    unavailable: [],
    restHours: 0,
    maxShiftsPerDay: Infinity,
    preferred: [],
    avoided: [],
    minHours: 0,
    locks: [],
    previous: [],
  };
}

/** A slot kind of priority 1 whose day is its UTC day (see plainVolunteer). */
export function plainSlot(index: number, id: string, group: string, start: number, end: number, required: number, locked = 0): SubShift {
  return { index, id, start, end, hours: (end - start) / 3_600_000, priority: 1, day: Math.floor(start / 86_400_000), group, required, locked };
}
