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

/**
 * MIP rows: one per volunteer whose candidates could together pass what the locks leave. The
 * row's limit is the most hours a set of the volunteer's candidate pairs can add up to within
 * what the locks leave (mostReachableHours), not that figure itself: every schedule keeps to
 * both alike, and the LP relaxation keeps closer to the schedules. Measured on an unseen food
 * bank of 400 helpers over 6 weeks with the rules (4-hour shifts, caps of 4 to 16 hours): a
 * helper with 6 hours takes at most one shift, but with the limit 6 the LP gave 1.5 and bounded
 * the second priority class at 35 slots where no schedule fills one; with 4 it bounds it at 0.
 */
export function hoursRows(c: RowContext): void {
  c.volunteers.forEach((v, vi) => {
    const pairs = c.byVolunteer[vi]!;
    const lengths = pairs.map((pair) => c.slots[c.pairSlot[pair]!]!.hours);
    const total = lengths.reduce((sum, hours) => sum + hours, 0);
    if (!Number.isFinite(v.capHours) || total <= c.remaining[vi]! + HOURS_EPS) return;
    const locks = c.lockCols[vi]!;
    const cols = [...pairs, ...locks.map((l) => l.col)];
    const coefs = [...lengths, ...locks.map((l) => l.hours)];
    c.addRow(`hours_${c.vName(vi)}`, -Infinity, c.lockedHours[vi]! + mostReachableHours(lengths, c.remaining[vi]!), cols, coefs);
  });
}

/** The most grid steps mostReachableHours works through per volunteer; past it, the limit is rounded down to the grid alone. */
export const REACHABLE_STEPS = 20_000;
/** The most work (grid steps times the parts of the lengths) mostReachableHours does per volunteer; past it, the same. */
export const REACHABLE_WORK = 2_000_000;

/**
 * The most hours some of these shift lengths (each used at most once) add up to without passing
 * `limit` (a sum a rounding away from it counts as reaching it, and then `limit` itself is the
 * answer): `limit` where there are no lengths, the limit is negative or the lengths are not whole
 * minutes; else a subset sum on the grid of their greatest common divisor (in minutes), down to
 * that grid alone where the limit is more than REACHABLE_STEPS steps of it or the work more than
 * REACHABLE_WORK.
 */
export function mostReachableHours(lengths: readonly number[], limit: number): number {
  if (lengths.length === 0 || !(limit >= 0)) return limit;
  const minutes = lengths.map((hours) => Math.round(hours * 60));
  if (minutes.some((m, i) => m <= 0 || Math.abs(m - lengths[i]! * 60) > 1e-6)) return limit;
  const grid = minutes.reduce((g, m) => gcd(g, m), 0);
  const steps = Math.floor((limit * 60) / grid + HOURS_EPS * 60);
  // `limit` itself where the sum is the limit (within the tolerance), so no round-off comes in.
  const hoursOf = (k: number): number => (k === steps && k * grid >= limit * 60 - 1e-6 ? limit : (k * grid) / 60);
  if (steps > REACHABLE_STEPS) return hoursOf(steps);
  // Which sums of steps some of the lengths make: each distinct length that fits in parts of 1, 2,
  // 4, ... copies (its count in all), each part a 0/1 item, so the pass is bounded by the lengths' count.
  const counts = new Map<number, number>();
  for (const m of minutes) if (m / grid <= steps) counts.set(m / grid, (counts.get(m / grid) ?? 0) + 1);
  const parts = [...counts.values()].reduce((sum, count) => sum + Math.ceil(Math.log2(count + 1)), 0);
  if (steps * parts > REACHABLE_WORK) return hoursOf(steps);
  const reachable = new Uint8Array(steps + 1);
  reachable[0] = 1;
  for (const [size, count] of counts) {
    for (let left = count, part = 1; left > 0; part *= 2) {
      const take = Math.min(part, left);
      left -= take;
      const item = take * size;
      for (let t = steps; t >= item; t--) if (reachable[t - item]) reachable[t] = 1;
      if (reachable[steps]) return hoursOf(steps);
    }
  }
  let best = steps;
  while (!reachable[best]) best--;
  return hoursOf(best);
}

/** Greatest common divisor of two non-negative integers (the grid of hours: here, formulate.ts, packing-bound.ts). */
export function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
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
