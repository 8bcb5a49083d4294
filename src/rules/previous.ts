// Previous assignments (CONTRACT.md section 14): a schedule already published, kept unless
// dropping one lets more slots be filled or more shifts be fully staffed (objective level 3).
// This module owns what is about them outside the optimization: which ones can still hold
// (against the request and the locks, through the rule modules), the warning for each one that
// cannot, the slot kinds a holding one may be kept in, and the result's `changes` (kept,
// dropped with why, added), read off the final schedule.
import type { ScheduleResult, Warning } from '../types/schema-types.js';
import { displayName, type PreviousAssignment, type Problem, type Shift, type Volunteer } from '../input/problem.js';
import type { CappedEntries } from '../input/entry-caps.js';
import { formatWindow } from '../input/format.js';
import { unavailability } from './availability.js';
import { placement, type Block } from './model.js';
import { Roster } from './roster.js';
import { blockDetail } from './block-detail.js';

export type Changes = NonNullable<ScheduleResult['changes']>;
export type DropReason = Changes['dropped'][number]['reason'];

/** Why a previous assignment is not in the schedule: a reason code, its sentence and, for overlap and rest, the shift too close. */
export interface Drop {
  reason: DropReason;
  message: string;
  other?: string;
}

/**
 * What becomes of one previous assignment before the engine runs: locked (the pair is also in
 * current_assignments), open (it may be kept, in a slot of one of `groups`), or dropped (it can
 * no longer hold).
 */
export type Standing = { kind: 'locked' } | { kind: 'open'; groups: string[] } | { kind: 'dropped'; drop: Drop };

export const previousPointer = (a: Pick<PreviousAssignment, 'requestIndex'>): string => `/previous_assignments/${a.requestIndex}`;

/** The previous assignment in words: "the previous assignment of Ana Ruiz (v1) to 'sat-am'". */
function named(problem: Problem, a: PreviousAssignment): string {
  const v = a.volunteer === null ? `'${a.volunteerId}'` : displayName(problem.volunteers[a.volunteer]!);
  return `the previous assignment of ${v} to '${a.shiftId}'`;
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** A drop for the rule that keeps the volunteer out of the shift, as the roster stands (`kept` names what the roster holds). */
function ruleDrop(problem: Problem, a: PreviousAssignment, v: Volunteer, s: Shift, block: Block, kept: string): Drop {
  const what = capital(named(problem, a));
  const why = blockDetail(v, s, block, problem.zone).sentence;
  switch (block.rule) {
    case 'availability':
      return { reason: 'unavailable', message: `${what} is dropped: ${why}` };
    case 'spacing': {
      const overlap = block.other.start < s.end && s.start < block.other.end;
      return { reason: overlap ? 'overlap' : 'rest', message: `${what} is dropped: ${why}`, other: block.other.id };
    }
    case 'daily':
      return { reason: 'max_shifts_per_day', message: `${what} is dropped: ${why.replace(/\.$/, '')} (${kept}).` };
    case 'hours':
      return { reason: 'max_hours', message: `${what} is dropped: ${why.replace(/\.$/, '')} (${kept}).` };
    case 'same_shift':
      // Only a lock can hold the shift before the previous assignments are placed, and a locked pair is 'locked'.
      return { reason: 'headcount', message: `${what} is dropped: the volunteer is in the shift already.` };
  }
}

/** The groups of the shift a previous assignment may fill: the one given, or every one of the volunteer's groups the shift requires. */
function groupsFor(a: PreviousAssignment, v: Volunteer, s: Shift): string[] {
  const wanted = a.group === null ? v.groups : v.groups.includes(a.group) ? [a.group] : [];
  return wanted.filter((g) => (s.required.get(g) ?? 0) > 0);
}

const standingsOf = new WeakMap<Problem, Standing[]>();

/**
 * Each previous assignment's standing, in the order of problem.previous (empty without
 * previous_assignments). Read once per problem: the warnings, the subproblems, the result's
 * changes and the recommendations' schedule all ask.
 */
export function previousStandings(problem: Problem): Standing[] {
  let standings = standingsOf.get(problem);
  if (!standings) {
    standings = readStandings(problem);
    standingsOf.set(problem, standings);
  }
  return standings;
}

function readStandings(problem: Problem): Standing[] {
  const previous = problem.previous ?? [];
  if (previous.length === 0) return [];
  const { volunteers, shifts } = problem;
  const roster = new Roster(volunteers);
  const lockedPairs = new Set<string>();
  const lockedInto = new Map<string, number>();
  for (const lock of problem.locks) {
    roster.add(lock.volunteer, placement(shifts[lock.shift]!, lock.group, true));
    lockedPairs.add(`${lock.volunteer}:${lock.shift}`);
    if (lock.group !== null) lockedInto.set(`${lock.shift}\u0000${lock.group}`, (lockedInto.get(`${lock.shift}\u0000${lock.group}`) ?? 0) + 1);
  }
  return previous.map((a): Standing => {
    if (a.volunteer === null)
      return {
        kind: 'dropped',
        drop: {
          reason: 'volunteer_removed',
          message: `Volunteer '${a.volunteerId}' is no longer in volunteers, so their previous assignment to '${a.shiftId}' is dropped.`,
        },
      };
    const v = volunteers[a.volunteer]!;
    if (a.shift === null)
      return {
        kind: 'dropped',
        drop: {
          reason: 'shift_removed',
          message: `Shift '${a.shiftId}' is no longer in unassigned_shifts, so the previous assignment of ${displayName(v)} to it is dropped.`,
        },
      };
    if (lockedPairs.has(`${a.volunteer}:${a.shift}`)) return { kind: 'locked' };
    const s = shifts[a.shift]!;
    const groups = groupsFor(a, v, s);
    if (groups.length === 0) {
      const asked =
        a.group === null
          ? v.groups.length === 1
            ? `group '${v.group}'`
            : `any of the groups ${v.groups.map((g) => `'${g}'`).join(', ')}`
          : `group '${a.group}'`;
      const mine =
        a.group !== null && !v.groups.includes(a.group) ? `${displayName(v)} is not in group '${a.group}'` : `'${s.id}' requires no volunteer of ${asked}`;
      return { kind: 'dropped', drop: { reason: 'group_not_required', message: `${capital(named(problem, a))} is dropped: ${mine}.` } };
    }
    const away = unavailability(v, s);
    if (away) return { kind: 'dropped', drop: ruleDrop(problem, a, v, s, { rule: 'availability', ...away }, '') };
    const block = roster.blocker(a.volunteer, s);
    if (block) return { kind: 'dropped', drop: ruleDrop(problem, a, v, s, block, 'locked assignments') };
    const open = groups.filter((g) => (lockedInto.get(`${s.index}\u0000${g}`) ?? 0) < s.required.get(g)!);
    if (open.length === 0) {
      const which = groups.map((g) => `'${g}'`).join(', ');
      return {
        kind: 'dropped',
        drop: {
          reason: 'headcount',
          message: `${capital(named(problem, a))} is dropped: the slots of ${groups.length === 1 ? 'group' : 'groups'} ${which} in '${s.id}' are all taken by locked assignments.`,
        },
      };
    }
    return { kind: 'open', groups: open };
  });
}

/** Per volunteer (request index): the shifts and groups their holding previous assignments may be kept in. */
export function openPrevious(problem: Problem, standings = previousStandings(problem)): Map<number, Array<{ shift: number; groups: string[] }>> {
  const out = new Map<number, Array<{ shift: number; groups: string[] }>>();
  (problem.previous ?? []).forEach((a, i) => {
    const standing = standings[i]!;
    if (standing.kind !== 'open') return;
    const list = out.get(a.volunteer!);
    const entry = { shift: a.shift!, groups: standing.groups };
    if (list) list.push(entry);
    else out.set(a.volunteer!, [entry]);
  });
  return out;
}

/** A warning per previous assignment listed twice and per one that can no longer hold (validation and the result). */
export function previousWarnings(problem: Problem, out: CappedEntries<Warning>): void {
  const previous = problem.previous ?? [];
  const at = new Map(previous.map((a) => [a.requestIndex, a]));
  for (const dup of problem.duplicatePrevious ?? []) {
    out.add('duplicate_previous', () => {
      const first = at.get(dup.firstIndex)!;
      return {
        code: 'duplicate_previous',
        message: `previous_assignments[${dup.requestIndex}] repeats previous_assignments[${dup.firstIndex}] ('${first.volunteerId}' in '${first.shiftId}'); it counts once.`,
        pointer: `/previous_assignments/${dup.requestIndex}`,
      };
    });
  }
  previousStandings(problem).forEach((standing, i) => {
    if (standing.kind !== 'dropped') return;
    const a = previous[i]!;
    out.add('previous_dropped', () => ({ code: 'previous_dropped', message: standing.drop.message, pointer: previousPointer(a) }));
  });
}

/** One assignment of the final schedule. */
export interface Placed {
  volunteer: number;
  shift: number;
  group: string | null;
  locked: boolean;
}

/**
 * The result's `changes`: each previous assignment kept or dropped (with why), and each new
 * assignment that was not a previous one. A holding previous assignment the engine left out is
 * explained against the locks and the previous assignments kept: a rule or a full slot there
 * (then no schedule could keep it beside them), else it was replaced to fill more.
 */
export function changesOf(problem: Problem, roster: Roster, placed: readonly Placed[]): Changes {
  const previous = problem.previous ?? [];
  const standings = previousStandings(problem);
  const { volunteers, shifts } = problem;
  const isKept = (a: PreviousAssignment): boolean => {
    const p = roster.holding(a.volunteer!, a.shift!);
    return p !== undefined && (a.group === null || p.group === a.group || p.locked);
  };
  const kept = previous.map((a, i) => standings[i]!.kind === 'locked' || (standings[i]!.kind === 'open' && isKept(a)));
  // Locks and the previous assignments kept, per volunteer and per (shift, group).
  const base = new Roster(volunteers);
  const taken = new Map<string, number>();
  const take = (v: number, shift: number, group: string | null, locked: boolean): void => {
    base.add(v, placement(shifts[shift]!, group, locked));
    if (group !== null) taken.set(`${shift}\u0000${group}`, (taken.get(`${shift}\u0000${group}`) ?? 0) + 1);
  };
  for (const lock of problem.locks) take(lock.volunteer, lock.shift, lock.group, true);
  previous.forEach((a, i) => {
    if (kept[i] && standings[i]!.kind === 'open') take(a.volunteer!, a.shift!, roster.holding(a.volunteer!, a.shift!)!.group, false);
  });
  const dropped: Changes['dropped'] = [];
  previous.forEach((a, i) => {
    if (kept[i]) return;
    const standing = standings[i]!;
    const drop = standing.kind === 'dropped' ? standing.drop : leftOut(problem, a, (standing as { groups: string[] }).groups, base, taken);
    dropped.push({
      shift_id: a.shiftId,
      volunteer_id: a.volunteerId,
      reason: drop.reason,
      message: drop.message,
      ...(drop.other !== undefined ? { other_shift_id: drop.other } : {}),
    });
  });
  const wasPrevious = new Set(previous.flatMap((a) => (a.volunteer !== null && a.shift !== null ? [`${a.volunteer}:${a.shift}`] : [])));
  const added: Changes['added'] = [];
  for (const p of placed) {
    if (p.locked || wasPrevious.has(`${p.volunteer}:${p.shift}`)) continue;
    added.push({ shift_id: shifts[p.shift]!.id, volunteer_id: volunteers[p.volunteer]!.id, group: p.group! });
  }
  // A previous pair kept in another group than the one it named counts as dropped and added.
  previous.forEach((a, i) => {
    if (kept[i] || a.volunteer === null || a.shift === null) return;
    const p = roster.holding(a.volunteer, a.shift);
    if (p && !p.locked) added.push({ shift_id: a.shiftId, volunteer_id: a.volunteerId, group: p.group! });
  });
  if (added.length > 1) {
    const shiftAt = new Map(shifts.map((s) => [s.id, s.index]));
    const volunteerAt = new Map(volunteers.map((v) => [v.id, v.index]));
    added.sort((x, y) => shiftAt.get(x.shift_id)! - shiftAt.get(y.shift_id)! || volunteerAt.get(x.volunteer_id)! - volunteerAt.get(y.volunteer_id)!);
  }
  return { kept: kept.filter(Boolean).length, dropped, added };
}

/** Why the engine left out a previous assignment that could hold on its own (see changesOf). */
function leftOut(problem: Problem, a: PreviousAssignment, groups: readonly string[], base: Roster, taken: ReadonlyMap<string, number>): Drop {
  const v = problem.volunteers[a.volunteer!]!;
  const s = problem.shifts[a.shift!]!;
  const block = base.blocker(a.volunteer!, s);
  if (block && block.rule !== 'same_shift') return ruleDrop(problem, a, v, s, block, 'locked assignments and previous assignments kept');
  const open = groups.filter((g) => (taken.get(`${s.index}\u0000${g}`) ?? 0) < s.required.get(g)!);
  if (open.length === 0) {
    const which = groups.map((g) => `'${g}'`).join(', ');
    return {
      reason: 'headcount',
      message: `${capital(named(problem, a))} is dropped: the slots of ${groups.length === 1 ? 'group' : 'groups'} ${which} in '${s.id}' (${formatWindow(s.start, s.end, problem.zone)}) are all taken by locked assignments and previous assignments kept.`,
    };
  }
  return {
    reason: 'replaced',
    message: `${capital(named(problem, a))} is dropped: its slot or the volunteer's time went to filling more slots or staffing more shifts fully (objective levels 1 and 2 come before keeping previous assignments).`,
  };
}
