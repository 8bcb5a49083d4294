// The group rule: a slot of group g takes only a volunteer who has g among their groups (their
// own group or an additional one), one slot per shift per volunteer, and a shift's slots of g
// never pass its headcount through new assignments. Owns the headcount rows, the explanations
// about the group itself (no_group_members, group_too_small, other_group), the add_group and
// add_volunteers relaxations and the lock warnings about groups and headcounts.
import type { Detail, Suggestion, Warning } from '../types/schema-types.js';
import { formatHours, formatWindow } from '../input/format.js';
import { displayName, type Lock, type Problem } from '../input/problem.js';
import type { CappedEntries } from '../input/entry-caps.js';
import type { Placement, RuleShift, RuleVolunteer } from './model.js';
import type { RowContext } from './rows.js';
import { lockPointer } from './lock-pointer.js';

export function hasGroup(v: Pick<RuleVolunteer, 'groups'>, group: string): boolean {
  return v.groups.includes(group);
}

/**
 * MIP rows: per slot kind, new assignments plus the locks filling it at most the headcount (or
 * the locks, if more). Returns each slot kind's row (-1 where it has no candidate).
 */
export function headcountRows(c: RowContext, slotRequired: ArrayLike<number>, slotLocked: ArrayLike<number>): Int32Array {
  const slotOf = new Map(c.slots.map((s, i) => [`${s.index}\u0000${s.group}`, i]));
  const lockColsOfSlot: number[][] = c.slots.map(() => []);
  c.lockCols.forEach((locks) => {
    for (const { col, lock } of locks) {
      const s = slotOf.get(`${lock.index}\u0000${lock.group}`);
      if (s !== undefined) lockColsOfSlot[s]!.push(col);
    }
  });
  const rows = new Int32Array(c.slots.length).fill(-1);
  c.slots.forEach((_, si) => {
    if (c.bySlot[si]!.length === 0) return;
    const cols = [...c.bySlot[si]!, ...lockColsOfSlot[si]!];
    rows[si] = c.addRow(
      `head_${c.sName(si)}`,
      -Infinity,
      Math.max(slotRequired[si]!, slotLocked[si]!),
      cols,
      cols.map(() => 1),
    );
  });
  return rows;
}

/** `near`: a group with members whose name is close to `group`, named as the likely intent. */
export function noMembersDetail(group: string, near?: string): { detail: Detail; sentence: string } {
  const hint = near === undefined ? '' : ` Did you mean '${near}', a group volunteers have?`;
  return { detail: { code: 'no_group_members' }, sentence: `No volunteer belongs to group '${group}'.${hint}` };
}

/** Asking for `group` (an existing group) instead of the conflict's memberless one: `filled` of its members are free then. */
export function renameGroup(group: string, filled: number): Suggestion {
  return { code: 'rename_group', group, filled };
}

export function renameGroupSentence(group: string, filled: number): string {
  return `Asking for group '${group}' here instead would fill ${filled === 1 ? 'one slot' : `${filled} slots`} with its volunteers who are free then, and every slot filled now stays filled.`;
}

export function tooSmallDetail(group: string, inShift: number, missing: number): { detail: Detail; sentence: string } {
  return {
    detail: { code: 'group_too_small', count: inShift },
    sentence: `All ${inShift} volunteer${inShift === 1 ? '' : 's'} of group '${group}' ${inShift === 1 ? 'is' : 'are'} in this shift; it needs ${missing} more.`,
  };
}

/** A volunteer of the group who is in the shift already, filling a slot of another group. */
export function otherGroupDetail(v: RuleVolunteer, other: Placement): { detail: Detail; sentence: string } {
  const filling = other.group ?? '';
  return {
    detail: { code: 'other_group', volunteer_id: v.id, filling_group: filling },
    sentence: `${displayName(v)} is in this shift already, filling a slot of group '${filling}'.`,
  };
}

/** The relaxation for a volunteer of another group who could take the slot as things stand. */
export function addGroup(v: RuleVolunteer, group: string): Suggestion {
  return { code: 'add_group', volunteer_id: v.id, group, filled: 1 };
}

export function addGroupSentence(v: RuleVolunteer, group: string): string {
  return `Letting ${displayName(v)} also work in group '${group}' (they are free then) would fill one more slot`;
}

export function addVolunteers(group: string, count: number): Suggestion {
  return { code: 'add_volunteers', group, count, filled: count };
}

/** `zone`: the IANA zone the sentence writes times in (Problem.zone). */
export function addVolunteersSentence(s: RuleShift, group: string, count: number, zone: string): string {
  return `Adding ${count} volunteer${count === 1 ? '' : 's'} to group '${group}', free ${formatWindow(s.start, s.end, zone)} with ${formatHours(s.hours)} hours to give, would fill ${count === 1 ? 'the missing slot' : `the ${count} missing slots`}.`;
}

/** Locks to a shift that requires none of the volunteer's groups, and locks past a headcount, per (shift, group). */
export function groupLockWarnings(problem: Problem, out: CappedEntries<Warning>): void {
  const { volunteers, shifts, locks } = problem;
  const keyOf = (lock: Lock): string => `${lock.shift}\u0000${lock.group}`;
  const total = new Map<string, number>();
  for (const lock of locks) if (lock.group !== null) total.set(keyOf(lock), (total.get(keyOf(lock)) ?? 0) + 1);
  const lockedCount = new Map<string, number>();
  for (const lock of locks) {
    const v = volunteers[lock.volunteer]!;
    const s = shifts[lock.shift]!;
    if (lock.group === null) {
      const groups = v.groups.length === 1 ? `group '${v.group}'` : `any of the groups ${v.groups.map((g) => `'${g}'`).join(', ')}`;
      out.add('lock_group_not_required', () => ({
        code: 'lock_group_not_required',
        message: `The locked assignment of ${displayName(v)} to '${s.id}' is kept, but '${s.id}' requires no volunteer of ${groups}, so it fills no slot.`,
        pointer: lockPointer(lock),
      }));
      continue;
    }
    const { group } = lock;
    const key = keyOf(lock);
    const count = (lockedCount.get(key) ?? 0) + 1;
    lockedCount.set(key, count);
    if (count === s.required.get(group)! + 1) {
      out.add('lock_headcount_exceeded', () => ({
        code: 'lock_headcount_exceeded',
        message: `'${s.id}' has ${total.get(key)} locked volunteers of group '${group}' but requires ${s.required.get(group)}; all are kept and no more of the group are added.`,
        pointer: lockPointer(lock),
        // About the shift, not the volunteer of the lock that passed the headcount.
        id: s.id,
      }));
    }
  }
}
