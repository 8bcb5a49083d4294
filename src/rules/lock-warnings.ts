// The warnings for locked assignments. Locks are always kept; each rule a lock breaks becomes a
// warning, both in POST /api/validate and in the schedule result, written by the rule module
// that owns the rule. The work is O(n log n) in the locks whatever their shape.
import type { Warning } from '../types/schema-types.js';
import { displayName, type Lock, type Problem } from '../input/problem.js';
import type { CappedEntries } from '../input/entry-caps.js';
import { availabilityLockWarnings } from './availability.js';
import { dailyLockWarnings } from './daily.js';
import { groupLockWarnings } from './groups.js';
import { hoursLockWarning } from './hours.js';
import { lockPointer } from './lock-pointer.js';
import { spacingLockWarnings } from './spacing.js';
import { previousWarnings } from './previous.js';

/** Adds a warning per rule a locked assignment breaks to `out` (capped per code), and one per previous assignment that can no longer hold. */
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
  groupLockWarnings(problem, out);
  const byVolunteer = new Map<number, Lock[]>();
  for (const lock of locks) {
    const list = byVolunteer.get(lock.volunteer);
    if (list) list.push(lock);
    else byVolunteer.set(lock.volunteer, [lock]);
  }
  for (const [vi, list] of byVolunteer) {
    hoursLockWarning(problem, vi, list, out);
    spacingLockWarnings(problem, vi, list, out);
    dailyLockWarnings(problem, vi, list, out);
  }
  availabilityLockWarnings(problem, out);
  previousWarnings(problem, out);
}
