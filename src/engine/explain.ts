// Says why each (shift, group) is short, as the final schedule stands: for each volunteer of
// the group not in the shift, the rule that keeps them out (at max_hours, in an overlapping
// shift, locked into an overlapping shift), or that nobody (or too few) belong to the group.
// Every reason is true of the result; the checker in test/ verifies each one.
import type { Conflict, Detail, Suggestion } from '../types/schema-types.js';
import { formatHours, formatWindow } from '../input/format.js';
import { displayName, overlaps, type Problem } from '../input/problem.js';

export const MAX_NAMED = 10;

export interface ScheduleState {
  problem: Problem;
  /** Per shift: the volunteers in it (locked or new). */
  shiftVolunteers: Array<Set<number>>;
  /** Per volunteer: shifts in it (locked or new), and which of them are locked. */
  volunteerShifts: number[][];
  lockedPairs: Set<string>;
  hours: number[];
  /** The volunteers of each group (explanations ask per short slot). */
  members: ReadonlyMap<string, Problem['volunteers']>;
}

export const pairKey = (volunteer: number, shift: number): string => `${volunteer}:${shift}`;

type Rule = 'max_hours' | 'overlap' | 'locked_overlap';
const RULE_PHRASE: Record<Rule, string> = { max_hours: 'at max_hours', overlap: 'in overlapping shifts', locked_overlap: 'locked into overlapping shifts' };

interface Blocked {
  volunteer: number;
  rule: Rule;
  /** The overlapping shift, for overlap and locked_overlap. */
  other?: number;
}

/**
 * The rule that keeps volunteer v out of shift s, if any. Only the rule: its detail and
 * sentence are written for the few volunteers a conflict names (describe), not for every
 * member of the group, which on large scarce rosters was most of the explanation's time.
 */
function whyNot(state: ScheduleState, v: number, s: number): Blocked | undefined {
  const { problem } = state;
  const shift = problem.shifts[s]!;
  let overlap: { other: number; locked: boolean } | undefined;
  for (const other of state.volunteerShifts[v]!) {
    if (!overlaps(problem.shifts[other]!, shift)) continue;
    const locked = state.lockedPairs.has(pairKey(v, other));
    if (!overlap || (locked && !overlap.locked)) overlap = { other, locked };
  }
  if (overlap) return { volunteer: v, rule: overlap.locked ? 'locked_overlap' : 'overlap', other: overlap.other };
  const vol = problem.volunteers[v]!;
  if (state.hours[v]! + shift.hours > vol.capHours + 1e-9) return { volunteer: v, rule: 'max_hours' };
  return undefined;
}

/** The detail and the sentence of a named volunteer's rule. */
function describe(state: ScheduleState, s: number, b: Blocked): { detail: Detail; sentence: string } {
  const { problem } = state;
  const vol = problem.volunteers[b.volunteer]!;
  const name = displayName(vol);
  if (b.rule !== 'max_hours') {
    const o = problem.shifts[b.other!]!;
    const sentence =
      b.rule === 'locked_overlap'
        ? `${name} is locked into '${o.id}' ${formatWindow(o.start, o.end)}, which overlaps.`
        : `${name} is in '${o.id}' ${formatWindow(o.start, o.end)}, which overlaps.`;
    return { detail: { code: b.rule, volunteer_id: vol.id, shift_id: o.id }, sentence };
  }
  const shift = problem.shifts[s]!;
  const hours = state.hours[b.volunteer]!;
  return {
    detail: {
      code: 'max_hours',
      volunteer_id: vol.id,
      assigned_hours: Math.round(hours * 100) / 100,
      max_hours: vol.maxHours,
      shift_hours: Math.round(shift.hours * 100) / 100,
    },
    sentence: `${name} has ${formatHours(hours)} of ${formatHours(vol.maxHours)} hours; this shift needs ${formatHours(shift.hours)} more.`,
  };
}

/** Relevance: closest to fitting first (least extra hours needed), then request order. */
function relevance(state: ScheduleState, s: number, b: Blocked): number {
  if (b.rule !== 'max_hours') return b.rule === 'overlap' ? 1e6 : 2e6;
  const v = state.problem.volunteers[b.volunteer]!;
  return state.hours[b.volunteer]! + state.problem.shifts[s]!.hours - v.capHours;
}

/** The sentence a coordinator reads for a suggestion. */
export function suggestionSentence(problem: Problem, s: number, suggestion: Suggestion): string {
  const shift = problem.shifts[s]!;
  const byId = (id: string | undefined) => problem.volunteers.find((v) => v.id === id);
  const volunteer = byId(suggestion.volunteer_id);
  const move = suggestion.hand_over ? ` ('${suggestion.hand_over.shift_id}' passing to ${displayName(byId(suggestion.hand_over.volunteer_id)!)})` : '';
  const kept = `${move}, and every slot filled now stays filled`;
  switch (suggestion.code) {
    case 'raise_max_hours':
      return `Raising the max_hours of ${displayName(volunteer!)} from ${formatHours(volunteer!.maxHours)} to ${formatHours(suggestion.max_hours!)} would fill one more slot${kept}.`;
    case 'remove_lock':
      return `Lifting the locked assignment of ${displayName(volunteer!)} to '${suggestion.shift_id}' would fill one more slot${kept}.`;
    default: {
      const n = suggestion.count!;
      return `Adding ${n} volunteer${n === 1 ? '' : 's'} to group '${suggestion.group}', free ${formatWindow(shift.start, shift.end)} with ${formatHours(shift.hours)} hours to give, would fill ${n === 1 ? 'the missing slot' : `the ${n} missing slots`}.`;
    }
  }
}

export function explainShortfall(state: ScheduleState, s: number, group: string, required: number, assigned: number, suggestions: Suggestion[] = []): Conflict {
  const { problem } = state;
  const shift = problem.shifts[s]!;
  const missing = required - assigned;
  const members = state.members.get(group) ?? [];
  const conflict = (reasons: string[], details: Detail[]): Conflict => ({
    shift_id: shift.id,
    group,
    reasons: [...reasons, ...suggestions.map((x) => suggestionSentence(problem, s, x))] as Conflict['reasons'],
    required,
    assigned,
    missing,
    details,
    suggestions,
  });
  if (members.length === 0) {
    suggestions = [{ code: 'add_volunteers', group, count: missing, filled: missing }];
    return conflict([`No volunteer belongs to group '${group}'.`], [{ code: 'no_group_members' }]);
  }
  const blocked: Blocked[] = [];
  let unexplained = 0;
  for (const v of members) {
    if (state.shiftVolunteers[s]!.has(v.index)) continue;
    const why = whyNot(state, v.index, s);
    if (why) blocked.push(why);
    else unexplained++;
  }
  const reasons: string[] = [];
  const details: Detail[] = [];
  if (blocked.length === 0 && unexplained === 0) {
    const inShift = members.length;
    reasons.push(
      `All ${inShift} volunteer${inShift === 1 ? '' : 's'} of group '${group}' ${inShift === 1 ? 'is' : 'are'} in this shift; it needs ${missing} more.`,
    );
    details.push({ code: 'group_too_small', count: inShift });
  }
  blocked.sort((a, b) => relevance(state, s, a) - relevance(state, s, b) || a.volunteer - b.volunteer);
  for (const b of blocked.slice(0, MAX_NAMED)) {
    const { detail, sentence } = describe(state, s, b);
    reasons.push(sentence);
    details.push(detail);
  }
  if (blocked.length > MAX_NAMED) {
    const rest = blocked.slice(MAX_NAMED);
    const counts: Record<string, number> = {};
    for (const b of rest) counts[b.rule] = (counts[b.rule] ?? 0) + 1;
    const rules = (Object.keys(RULE_PHRASE) as Rule[]).filter((r) => counts[r]);
    reasons.push(`And ${rest.length} more: ${rules.map((r) => `${counts[r]} ${RULE_PHRASE[r]}`).join(', ')}.`);
    details.push({ code: 'summary', counts });
  }
  if (unexplained > 0) {
    // Only when the solve stopped before every free volunteer was placed; never after completion.
    reasons.push(
      `${unexplained} volunteer${unexplained === 1 ? '' : 's'} of group '${group}' could still take this shift; the solver stopped at its time limit before placing them.`,
    );
    details.push({ code: 'time_limit', count: unexplained });
  }
  return conflict(reasons, details);
}
