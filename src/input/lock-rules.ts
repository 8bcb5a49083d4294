// Finds the rules that locked assignments break. Locks are always kept; each break becomes a
// warning, both in POST /api/validate and in the schedule result.
import type { Warning } from '../types/schema-types.js';
import { formatHours, formatWindow } from './format.js';
import { displayName, overlaps, type Lock, type Problem } from './problem.js';

const lockPointer = (lock: Pick<Lock, 'requestIndex'>): string => `/current_assignments/${lock.requestIndex}`;

export function lockWarnings(problem: Problem): Warning[] {
  const { volunteers, shifts, locks } = problem;
  const warnings: Warning[] = [];

  for (const dup of problem.duplicateLocks) {
    const first = problem.locks.find((l) => l.requestIndex === dup.firstIndex)!;
    warnings.push({
      code: 'duplicate_lock',
      message: `current_assignments[${dup.requestIndex}] repeats current_assignments[${dup.firstIndex}] (${displayName(volunteers[first.volunteer]!)} in '${shifts[first.shift]!.id}'); it is kept once.`,
      pointer: lockPointer(dup),
    });
  }

  // Group not required, and headcount exceeded, per (shift, group).
  const lockedCount = new Map<string, number>();
  for (const lock of locks) {
    const v = volunteers[lock.volunteer]!;
    const s = shifts[lock.shift]!;
    const required = s.required.get(v.group) ?? 0;
    if (required === 0) {
      warnings.push({
        code: 'lock_group_not_required',
        message: `The locked assignment of ${displayName(v)} to '${s.id}' is kept, but '${s.id}' requires no volunteer of group '${v.group}', so it fills no slot.`,
        pointer: lockPointer(lock),
      });
      continue;
    }
    const key = `${lock.shift}\u0000${v.group}`;
    const count = (lockedCount.get(key) ?? 0) + 1;
    lockedCount.set(key, count);
    if (count === required + 1) {
      const total = locks.filter((l) => l.shift === lock.shift && volunteers[l.volunteer]!.group === v.group).length;
      warnings.push({
        code: 'lock_headcount_exceeded',
        message: `'${s.id}' has ${total} locked volunteers of group '${v.group}' but requires ${required}; all are kept and no more of the group are added.`,
        pointer: lockPointer(lock),
      });
    }
  }

  // max_hours and overlaps, per volunteer.
  const byVolunteer = new Map<number, Lock[]>();
  for (const lock of locks) {
    const list = byVolunteer.get(lock.volunteer) ?? [];
    list.push(lock);
    byVolunteer.set(lock.volunteer, list);
  }
  for (const [vi, list] of byVolunteer) {
    const v = volunteers[vi]!;
    let hours = 0;
    let reported = false;
    for (const lock of list) {
      hours += shifts[lock.shift]!.hours;
      if (!reported && hours > v.capHours + 1e-9) {
        reported = true;
        const total = list.reduce((sum, l) => sum + shifts[l.shift]!.hours, 0);
        warnings.push({
          code: 'lock_max_hours_exceeded',
          message: `Locked assignments give ${displayName(v)} ${formatHours(total)} hours, over max_hours ${formatHours(v.maxHours)}; they are kept and nothing more is added.`,
          pointer: lockPointer(lock),
        });
      }
    }
    const chrono = [...list].sort((a, b) => shifts[a.shift]!.start - shifts[b.shift]!.start || a.requestIndex - b.requestIndex);
    for (let i = 0; i < chrono.length; i++) {
      const a = shifts[chrono[i]!.shift]!;
      for (let j = i + 1; j < chrono.length && shifts[chrono[j]!.shift]!.start < a.end; j++) {
        const b = shifts[chrono[j]!.shift]!;
        if (!overlaps(a, b)) continue;
        const later = Math.max(chrono[i]!.requestIndex, chrono[j]!.requestIndex);
        warnings.push({
          code: 'lock_overlap',
          message: `${displayName(v)} is locked into '${a.id}' (${formatWindow(a.start, a.end)}) and '${b.id}' (${formatWindow(b.start, b.end)}), which overlap; both are kept.`,
          pointer: lockPointer({ requestIndex: later }),
        });
      }
    }
  }
  return warnings;
}
