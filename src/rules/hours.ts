// The max_hours rule: a volunteer's hours (locked assignments included) never pass max_hours
// through a new assignment. Owns the one tolerance every hours comparison uses, the MIP row,
// the explanation, the raise_max_hours relaxation and the lock warning.
import type { Detail, Warning } from '../types/schema-types.js';
import { formatHours } from '../input/format.js';
import { displayName, type Lock, type Problem } from '../input/problem.js';
import type { CappedEntries } from '../input/entry-caps.js';
import type { RuleShift, RuleVolunteer } from './model.js';
import type { RowContext } from './rows.js';
import { lockPointer } from './lock-pointer.js';

/** Hours are sums of shift lengths: two sums equal within this are equal. */
export const HOURS_EPS = 1e-9;

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Whether `hours` more fit on top of `load` under the volunteer's cap. */
export function hoursFit(v: Pick<RuleVolunteer, 'capHours'>, load: number, hours: number): boolean {
  return load + hours <= v.capHours + HOURS_EPS;
}

/** Most of these shifts the hours left allow (shortest first): a bound for one volunteer. */
export function mostWithinHours(left: number, shifts: ReadonlyArray<Pick<RuleShift, 'hours'>>): number {
  const cap = { capHours: left };
  let hours = 0;
  let count = 0;
  for (const s of [...shifts].sort((a, b) => a.hours - b.hours)) {
    if (!hoursFit(cap, hours, s.hours)) break;
    hours += s.hours;
    count++;
  }
  return count;
}

/** MIP rows: one per volunteer whose candidates could together pass what the locks leave. */
export function hoursRows(c: RowContext): void {
  c.volunteers.forEach((v, vi) => {
    const pairs = c.byVolunteer[vi]!;
    const total = pairs.reduce((sum, pair) => sum + c.slots[c.pairSlot[pair]!]!.hours, 0);
    if (!Number.isFinite(v.capHours) || total <= c.remaining[vi]! + HOURS_EPS) return;
    const locks = c.lockCols[vi]!;
    const cols = [...pairs, ...locks.map((l) => l.col)];
    const coefs = [...pairs.map((pair) => c.slots[c.pairSlot[pair]!]!.hours), ...locks.map((l) => l.hours)];
    c.addRow(`hours_${c.vName(vi)}`, -Infinity, c.lockedHours[vi]! + c.remaining[vi]!, cols, coefs);
  });
}

export function hoursDetail(v: RuleVolunteer, load: number, s: RuleShift): { detail: Detail; sentence: string } {
  return {
    detail: { code: 'max_hours', volunteer_id: v.id, assigned_hours: round2(load), max_hours: v.maxHours, shift_hours: round2(s.hours) },
    sentence: `${displayName(v)} has ${formatHours(load)} of ${formatHours(v.maxHours)} hours; this shift needs ${formatHours(s.hours)} more.`,
  };
}

/** The least max_hours with which the volunteer, at `load` hours, takes the shift (rounded up to 2 decimals). */
export function raisedMaxHours(load: number, s: RuleShift): number {
  return Math.ceil((load + s.hours) * 100 - 1e-6) / 100;
}

/** A warning when a volunteer's locked assignments alone pass max_hours (at the lock that passes it). */
export function hoursLockWarning(problem: Problem, vi: number, locks: readonly Lock[], out: CappedEntries<Warning>): void {
  const { volunteers, shifts } = problem;
  const v = volunteers[vi]!;
  let hours = 0;
  for (const lock of locks) {
    hours += shifts[lock.shift]!.hours;
    if (hours > v.capHours + HOURS_EPS) {
      const total = locks.reduce((sum, l) => sum + shifts[l.shift]!.hours, 0);
      out.add('lock_max_hours_exceeded', () => ({
        code: 'lock_max_hours_exceeded',
        message: `Locked assignments give ${displayName(v)} ${formatHours(total)} hours, over max_hours ${formatHours(v.maxHours)}; they are kept and nothing more is added.`,
        pointer: lockPointer(lock),
      }));
      return;
    }
  }
}
