// Splits a normalized problem into one independent subproblem per group. A volunteer is in
// one group and a slot of group g only takes g's volunteers, so filled slots and the sum of
// squared hours both split exactly by group. The data is plain and structured-cloneable: it
// is what a solver worker receives.
import type { Problem } from '../input/problem.js';

export interface SubVolunteer {
  /** Index in the request's volunteers. */
  index: number;
  id: string;
  /** Cap in hours; Infinity for 999 (unlimited). */
  cap: number;
  /** Locked assignments of this volunteer, in any shift (they use time and hours). */
  locks: Array<{ shift: number; shiftId: string; start: number; end: number; hours: number }>;
}

export interface SubShift {
  /** Index in the request's unassigned_shifts. */
  index: number;
  id: string;
  start: number;
  end: number;
  hours: number;
  /** Headcount the shift requires of this group. */
  required: number;
  /** Volunteers of this group locked into the shift. */
  locked: number;
}

export interface Subproblem {
  group: string;
  volunteers: SubVolunteer[];
  /** Shifts that require this group (headcount > 0), in request order. */
  shifts: SubShift[];
}

/** One subproblem per group that some shift requires and some volunteer belongs to, in order of first appearance among the shifts. */
export function decompose(problem: Problem): Subproblem[] {
  const byGroup = new Map<string, Subproblem>();
  const volunteersOf = new Map<string, SubVolunteer[]>();
  const subVolunteer = new Map<number, SubVolunteer>();
  for (const v of problem.volunteers) {
    const sv: SubVolunteer = { index: v.index, id: v.id, cap: v.capHours, locks: [] };
    subVolunteer.set(v.index, sv);
    const list = volunteersOf.get(v.group) ?? [];
    list.push(sv);
    volunteersOf.set(v.group, list);
  }
  const lockedCount = new Map<string, number>();
  for (const lock of problem.locks) {
    const s = problem.shifts[lock.shift]!;
    const v = problem.volunteers[lock.volunteer]!;
    subVolunteer.get(v.index)!.locks.push({ shift: s.index, shiftId: s.id, start: s.start, end: s.end, hours: s.hours });
    const key = `${s.index}\u0000${v.group}`;
    lockedCount.set(key, (lockedCount.get(key) ?? 0) + 1);
  }
  for (const s of problem.shifts) {
    for (const [group, required] of s.required) {
      if (required <= 0) continue;
      const volunteers = volunteersOf.get(group);
      if (!volunteers) continue;
      let sub = byGroup.get(group);
      if (!sub) {
        sub = { group, volunteers, shifts: [] };
        byGroup.set(group, sub);
      }
      sub.shifts.push({
        index: s.index,
        id: s.id,
        start: s.start,
        end: s.end,
        hours: s.hours,
        required,
        locked: lockedCount.get(`${s.index}\u0000${group}`) ?? 0,
      });
    }
  }
  return [...byGroup.values()];
}
