// The daily rule: at most max_shifts_per_day shifts starting on one calendar day (of the rules'
// time zone) per volunteer, locked ones included. One MIP row per volunteer and day where their
// candidates could pass what the locks leave. Owns the explanation, the
// raise_max_shifts_per_day relaxation and the lock warning.
import type { Detail, Suggestion, Warning } from '../types/schema-types.js';
import { dayLabel, displayName, type Lock, type Problem } from '../input/problem.js';
import type { CappedEntries } from '../input/entry-caps.js';
import type { RuleShift, RuleVolunteer } from './model.js';
import type { RowContext } from './rows.js';
import { lockPointer } from './lock-pointer.js';

/** Whether one more shift fits on a day the volunteer already has `count` shifts starting on. */
export function dailyFit(v: Pick<RuleVolunteer, 'maxShiftsPerDay'>, count: number): boolean {
  return count + 1 <= v.maxShiftsPerDay;
}

/**
 * Most of these shifts the daily limit leaves room for, after the volunteer's locks on each day
 * (distinct shifts: one slot per shift). A bound for one volunteer.
 */
export function mostWithinDays(v: Pick<RuleVolunteer, 'maxShiftsPerDay'> & { locks: readonly RuleShift[] }, shifts: readonly RuleShift[]): number {
  if (!Number.isFinite(v.maxShiftsPerDay)) return Infinity;
  const byDay = new Map<number, Set<number>>();
  for (const s of shifts) {
    const set = byDay.get(s.day);
    if (set) set.add(s.index);
    else byDay.set(s.day, new Set([s.index]));
  }
  let total = 0;
  for (const [day, set] of byDay) total += Math.min(set.size, Math.max(0, v.maxShiftsPerDay - v.locks.filter((l) => l.day === day).length));
  return total;
}

/** MIP rows: per volunteer and day, new shifts at most the limit minus the locks that day. */
export function dailyRows(c: RowContext): void {
  c.volunteers.forEach((v, vi) => {
    if (!Number.isFinite(v.maxShiftsPerDay)) return;
    const byDay = new Map<number, number[]>();
    for (const pair of c.byVolunteer[vi]!) {
      const day = c.slots[c.pairSlot[pair]!]!.day;
      const list = byDay.get(day);
      if (list) list.push(pair);
      else byDay.set(day, [pair]);
    }
    for (const [day, pairs] of byDay) {
      const locked = v.locks.filter((l) => l.day === day).length;
      const shifts = new Set(pairs.map((pair) => c.slots[c.pairSlot[pair]!]!.index)).size;
      if (shifts + locked <= v.maxShiftsPerDay) continue;
      c.addRow(
        `day_${c.vName(vi)}_d${day}`,
        -Infinity,
        v.maxShiftsPerDay - locked,
        pairs,
        pairs.map(() => 1),
      );
    }
  });
}

export function dailyDetail(v: RuleVolunteer, count: number, s: RuleShift): { detail: Detail; sentence: string } {
  const day = dayLabel(s.day);
  return {
    detail: { code: 'max_shifts_per_day', volunteer_id: v.id, day, count, max_shifts_per_day: v.maxShiftsPerDay },
    sentence: `${displayName(v)} already has ${count} shift${count === 1 ? '' : 's'} on ${day}, their limit of ${v.maxShiftsPerDay} a day.`,
  };
}

/** The relaxation: one more shift a day than the volunteer has that day. */
export function raiseMaxShiftsPerDay(v: RuleVolunteer, count: number): Suggestion {
  return { code: 'raise_max_shifts_per_day', volunteer_id: v.id, max_shifts_per_day: count + 1, filled: 1 };
}

export function raiseMaxShiftsPerDaySentence(v: RuleVolunteer, to: number): string {
  return `Raising the max_shifts_per_day of ${displayName(v)} from ${v.maxShiftsPerDay} to ${to} would fill one more slot`;
}

/** A warning at each lock past the limit on its day. */
export function dailyLockWarnings(problem: Problem, vi: number, list: readonly Lock[], out: CappedEntries<Warning>): void {
  const v = problem.volunteers[vi]!;
  if (!Number.isFinite(v.maxShiftsPerDay)) return;
  const count = new Map<number, number>();
  for (const lock of list) {
    const s = problem.shifts[lock.shift]!;
    const n = (count.get(s.day) ?? 0) + 1;
    count.set(s.day, n);
    if (n <= v.maxShiftsPerDay) continue;
    out.add('lock_max_shifts_per_day', () => ({
      code: 'lock_max_shifts_per_day',
      message: `Locked assignments give ${displayName(v)} more than ${v.maxShiftsPerDay} shift${v.maxShiftsPerDay === 1 ? '' : 's'} starting on ${dayLabel(s.day)} (${problem.rules.timezone}); they are kept and no more are added that day.`,
      pointer: lockPointer(lock),
    }));
  }
}
