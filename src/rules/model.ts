// What every rule reads: a volunteer's rule fields, a shift's times, and a placement (a volunteer
// in a shift, filling a slot of one group, locked or not). The engine's subproblems and the whole
// problem (for explanations) both speak these shapes, so one rule module serves both.
import type { Shift, Volunteer } from '../input/problem.js';

/** The volunteer fields the rules read. */
export type RuleVolunteer = Pick<Volunteer, 'id' | 'name' | 'groups' | 'maxHours' | 'capHours' | 'available' | 'unavailable' | 'restHours' | 'maxShiftsPerDay'>;

/** The shift fields the rules read: `index` is the shift's request index. */
export type RuleShift = Pick<Shift, 'index' | 'id' | 'start' | 'end' | 'hours' | 'priority' | 'day'>;

/** A volunteer in a shift: the shift's fields, the group whose slot it fills, and whether it is locked. */
export interface Placement extends RuleShift {
  group: string | null;
  locked: boolean;
}

/** The rule that keeps a volunteer out of a shift, as the roster stands. */
export type Block =
  /** Already in this shift (filling another group's slot). */
  | { rule: 'same_shift'; other: Placement }
  /** Outside the available windows, or in an unavailable one (`window`). */
  | { rule: 'availability'; window?: { start: number; end: number } }
  /** In a shift that overlaps, or that leaves less than the volunteer's rest. */
  | { rule: 'spacing'; other: Placement }
  /** At the daily limit on the shift's day. */
  | { rule: 'daily'; count: number }
  /** Too few hours left. */
  | { rule: 'hours'; load: number };

/** The rule fields of a shift (or of anything that carries them), copied. */
export function ruleShift(s: RuleShift): RuleShift {
  return { index: s.index, id: s.id, start: s.start, end: s.end, hours: s.hours, priority: s.priority, day: s.day };
}

/**
 * Written out, not spread: in V8 (Node 20) `{ ...shift, group, locked }` gives every object a
 * hidden class of its own, and every read of a placement in the roster's hot paths went slow.
 */
export function placement(s: RuleShift, group: string | null, locked: boolean): Placement {
  return { index: s.index, id: s.id, start: s.start, end: s.end, hours: s.hours, priority: s.priority, day: s.day, group, locked };
}
