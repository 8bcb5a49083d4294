// The schedule as it stands, for questions about it without solving (POST /api/recommendations):
// the request's locked assignments, then its previous assignments that can still hold, placed in
// request order into one Roster, each in the first of its groups with room. A previous
// assignment that no longer fits beside those placed before it (a rule, or its slots taken) is
// left out, with a previous_dropped warning saying why in the rule module's own words.
import type { Warning } from '../types/schema-types.js';
import { CappedEntries, TRUNCATED_CODE, truncatedMessage, WARNINGS_PER_CODE } from '../input/entry-caps.js';
import { formatWindow } from '../input/format.js';
import { displayName, type Problem, type Shift } from '../input/problem.js';
import { placement, type Block } from '../rules/model.js';
import { previousPointer, previousStandings } from '../rules/previous.js';
import { Roster } from '../rules/roster.js';
import { blockDetail } from '../rules/block-detail.js';

/** A volunteer on a shift: the group whose slot they fill (null: a lock filling none) and whether locked. */
export interface Occupant {
  volunteer: number;
  group: string | null;
  locked: boolean;
}

export class PublishedSchedule {
  readonly roster: Roster;
  /** Per shift (request index): who is on it, in the order they were placed. */
  private readonly occupants: Occupant[][];
  /** Per shift: filled slots per group. */
  private readonly filled: Array<Map<string, number>>;
  /** A previous_dropped warning per previous assignment that held on its own but not beside those placed before it (capped per code). */
  private readonly dropped = new CappedEntries<Warning>(WARNINGS_PER_CODE);

  constructor(readonly problem: Problem) {
    const { volunteers, shifts } = problem;
    this.roster = new Roster(volunteers);
    this.occupants = shifts.map(() => []);
    this.filled = shifts.map(() => new Map<string, number>());
    for (const lock of problem.locks) this.take(lock.volunteer, lock.shift, lock.group, true);
    const standings = previousStandings(problem);
    (problem.previous ?? []).forEach((a, i) => {
      const standing = standings[i]!;
      if (standing.kind !== 'open') return;
      const s = shifts[a.shift!]!;
      const v = a.volunteer!;
      const group = standing.groups.find((g) => this.open(s.index, g) > 0);
      const block = group === undefined ? undefined : this.roster.blocker(v, s);
      if (group !== undefined && block === undefined) this.take(v, s.index, group, false);
      else
        this.dropped.add('previous_dropped', () => ({
          code: 'previous_dropped',
          message: `The previous assignment of ${displayName(volunteers[v]!)} to '${s.id}' is left out of the schedule as it stands: ${
            block ? this.blockSentence(v, s, block) : this.fullSentence(s, standing.groups)
          }`,
          pointer: `/request${previousPointer(a)}`,
          id: a.volunteerId,
        }));
    });
  }

  /** The previous_dropped warnings of the previous assignments left out, past the cap one entries_truncated. */
  leftOut(): Warning[] {
    return [...this.dropped.list(), ...this.dropped.overflow((code, more) => ({ code: TRUNCATED_CODE, message: truncatedMessage('warnings', code, more) }))];
  }

  /** Who is on the shift. */
  on(shift: number): readonly Occupant[] {
    return this.occupants[shift]!;
  }

  /** Slots of the group filled in the shift. */
  filledIn(shift: number, group: string): number {
    return this.filled[shift]!.get(group) ?? 0;
  }

  /** Open slots of the group in the shift (0 when full or past its headcount). */
  open(shift: number, group: string): number {
    return Math.max(0, (this.problem.shifts[shift]!.required.get(group) ?? 0) - this.filledIn(shift, group));
  }

  /** Puts the volunteer on the shift, in a slot of `group`. */
  take(volunteer: number, shift: number, group: string | null, locked: boolean): void {
    this.roster.add(volunteer, placement(this.problem.shifts[shift]!, group, locked));
    this.occupants[shift]!.push({ volunteer, group, locked });
    if (group !== null) this.filled[shift]!.set(group, this.filledIn(shift, group) + 1);
  }

  /** Takes the volunteer off the shift (they must be on it); returns what they held. */
  takeOff(volunteer: number, shift: number): Occupant {
    const list = this.occupants[shift]!;
    const at = list.findIndex((o) => o.volunteer === volunteer);
    const [gone] = list.splice(at, 1);
    this.roster.remove(volunteer, this.problem.shifts[shift]!);
    if (gone!.group !== null) this.filled[shift]!.set(gone!.group, this.filledIn(shift, gone!.group) - 1);
    return gone!;
  }

  /** The rule module's sentence for what keeps the volunteer out of the shift as the roster stands. */
  blockSentence(volunteer: number, s: Shift, block: Block): string {
    return blockDetail(this.problem.volunteers[volunteer]!, s, block, this.problem.zone).sentence;
  }

  private fullSentence(s: Shift, groups: readonly string[]): string {
    const which = groups.map((g) => `'${g}'`).join(', ');
    return `the slots of ${groups.length === 1 ? 'group' : 'groups'} ${which} in '${s.id}' (${formatWindow(s.start, s.end, this.problem.zone)}) are all taken by locked assignments and previous assignments listed before it.`;
  }
}
