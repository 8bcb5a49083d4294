// Finds the rules that locked assignments break. Locks are always kept; each break becomes a
// warning, both in POST /api/validate and in the schedule result. The work is O(n log n) in the
// locks whatever their shape (many locks of one volunteer at one time included): overlapping
// pairs are counted by binary search, and only the warnings that will be listed are written.
import type { Warning } from '../types/schema-types.js';
import { formatHours, formatWindow } from '../input/format.js';
import { displayName, type Lock, type Problem } from '../input/problem.js';
import type { CappedEntries } from '../input/entry-caps.js';

const lockPointer = (lock: Pick<Lock, 'requestIndex'>): string => `/current_assignments/${lock.requestIndex}`;

/** Adds a warning per rule a locked assignment breaks to `out` (capped per code). */
export function lockWarnings(problem: Problem, out: CappedEntries<Warning>): void {
  const { volunteers, shifts, locks } = problem;
  const lockAt = new Map(locks.map((l) => [l.requestIndex, l]));
  for (const dup of problem.duplicateLocks) {
    out.add('duplicate_lock', () => {
      const first = lockAt.get(dup.firstIndex)!;
      return {
        code: 'duplicate_lock',
        message: `current_assignments[${dup.requestIndex}] repeats current_assignments[${dup.firstIndex}] (${displayName(volunteers[first.volunteer]!)} in '${shifts[first.shift]!.id}'); it is kept once.`,
        pointer: lockPointer(dup),
      };
    });
  }
  groupRuleWarnings(problem, out);
  const byVolunteer = new Map<number, Lock[]>();
  for (const lock of locks) {
    const list = byVolunteer.get(lock.volunteer);
    if (list) list.push(lock);
    else byVolunteer.set(lock.volunteer, [lock]);
  }
  for (const [vi, list] of byVolunteer) {
    hoursWarning(problem, vi, list, out);
    overlapWarnings(problem, vi, list, out);
  }
}

/** Group not required, and headcount exceeded, per (shift, group). */
function groupRuleWarnings(problem: Problem, out: CappedEntries<Warning>): void {
  const { volunteers, shifts, locks } = problem;
  const total = new Map<string, number>();
  const keyOf = (lock: Lock): string => `${lock.shift}\u0000${volunteers[lock.volunteer]!.group}`;
  for (const lock of locks) {
    const key = keyOf(lock);
    total.set(key, (total.get(key) ?? 0) + 1);
  }
  const lockedCount = new Map<string, number>();
  for (const lock of locks) {
    const v = volunteers[lock.volunteer]!;
    const s = shifts[lock.shift]!;
    const required = s.required.get(v.group) ?? 0;
    if (required === 0) {
      out.add('lock_group_not_required', () => ({
        code: 'lock_group_not_required',
        message: `The locked assignment of ${displayName(v)} to '${s.id}' is kept, but '${s.id}' requires no volunteer of group '${v.group}', so it fills no slot.`,
        pointer: lockPointer(lock),
      }));
      continue;
    }
    const key = keyOf(lock);
    const count = (lockedCount.get(key) ?? 0) + 1;
    lockedCount.set(key, count);
    if (count === required + 1) {
      out.add('lock_headcount_exceeded', () => ({
        code: 'lock_headcount_exceeded',
        message: `'${s.id}' has ${total.get(key)} locked volunteers of group '${v.group}' but requires ${required}; all are kept and no more of the group are added.`,
        pointer: lockPointer(lock),
      }));
    }
  }
}

function hoursWarning(problem: Problem, vi: number, list: Lock[], out: CappedEntries<Warning>): void {
  const { volunteers, shifts } = problem;
  const v = volunteers[vi]!;
  let hours = 0;
  for (const lock of list) {
    hours += shifts[lock.shift]!.hours;
    if (hours > v.capHours + 1e-9) {
      const total = list.reduce((sum, l) => sum + shifts[l.shift]!.hours, 0);
      out.add('lock_max_hours_exceeded', () => ({
        code: 'lock_max_hours_exceeded',
        message: `Locked assignments give ${displayName(v)} ${formatHours(total)} hours, over max_hours ${formatHours(v.maxHours)}; they are kept and nothing more is added.`,
        pointer: lockPointer(lock),
      }));
      return;
    }
  }
}

/**
 * One warning per overlapping pair of a volunteer's locks. Sorted by start, the locks that
 * overlap lock i are exactly those after it that start before it ends (durations are positive),
 * found by binary search; pairs past the cap are counted without being written.
 */
function overlapWarnings(problem: Problem, vi: number, list: Lock[], out: CappedEntries<Warning>): void {
  const { volunteers, shifts } = problem;
  const v = volunteers[vi]!;
  const chrono = [...list].sort((a, b) => shifts[a.shift]!.start - shifts[b.shift]!.start || a.requestIndex - b.requestIndex);
  const starts = chrono.map((l) => shifts[l.shift]!.start);
  for (let i = 0; i < chrono.length; i++) {
    const a = shifts[chrono[i]!.shift]!;
    const end = firstAtOrAfter(starts, a.end, i + 1);
    for (let j = i + 1; j < end; j++) {
      if (out.full('lock_overlap')) {
        out.addUnlisted('lock_overlap', end - j);
        break;
      }
      const b = shifts[chrono[j]!.shift]!;
      const later = Math.max(chrono[i]!.requestIndex, chrono[j]!.requestIndex);
      out.add('lock_overlap', () => ({
        code: 'lock_overlap',
        message: `${displayName(v)} is locked into '${a.id}' (${formatWindow(a.start, a.end)}) and '${b.id}' (${formatWindow(b.start, b.end)}), which overlap; both are kept.`,
        pointer: lockPointer({ requestIndex: later }),
      }));
    }
  }
}

/** The first index >= from whose value is >= target, in an ascending array. */
function firstAtOrAfter(sorted: number[], target: number, from: number): number {
  let lo = from;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
