// Says why each (shift, group) is short, as the final schedule stands: for each volunteer of the
// group not in the shift, the rule that keeps them out (asked of the one roster state, answered
// and worded by the rule module that owns it), or that nobody (or too few) belong to the group.
// It also finds add_group suggestions: volunteers of other groups free then, who may be in
// another subproblem. Every reason is true of the result; the checker in test/ verifies each one.
import type { Conflict, Detail, Suggestion } from '../types/schema-types.js';
import { NameSuggester } from '../input/did-you-mean.js';
import { formatHours } from '../input/format.js';
import { displayName, type Problem, type Shift } from '../input/problem.js';
import { extendAvailabilitySentence } from '../rules/availability.js';
import { raiseMaxShiftsPerDaySentence } from '../rules/daily.js';
import {
  addGroup,
  addGroupSentence,
  addVolunteers,
  addVolunteersSentence,
  hasGroup,
  noMembersDetail,
  renameGroup,
  renameGroupSentence,
  tooSmallDetail,
} from '../rules/groups.js';
import type { Block } from '../rules/model.js';
import type { Roster } from '../rules/roster.js';
import { reduceRestSentence, spacingCode } from '../rules/spacing.js';
import { MAX_PER_KIND } from './suggest.js';
import { blockDetail } from '../rules/block-detail.js';

export const MAX_NAMED = 10;
/** Volunteers of other groups examined per short slot for add_group, in request order. */
export const ADD_GROUP_SCAN = 500;

export interface ScheduleState {
  problem: Problem;
  /** The final schedule, locks included, over the request's volunteers. */
  roster: Roster;
  /** The volunteers who have each group (their own or an additional one). */
  members: ReadonlyMap<string, Problem['volunteers']>;
  /**
   * Whether to look for add_group suggestions: only when some volunteer of the request has
   * additional_groups (a roster that works with several roles per person), so a 2.1 request's
   * result stays as it was.
   */
  offerAddGroup: boolean;
  /** For each group without members asked about so far, the closest group that has members (or none). */
  nearGroups?: Map<string, string | undefined>;
}

/** The detail codes a blocked volunteer is counted under, in the order a summary lists them. */
type Code = 'max_hours' | 'overlap' | 'locked_overlap' | 'higher_priority' | 'rest' | 'max_shifts_per_day' | 'unavailable' | 'other_group';
const RULE_PHRASE: Record<Code, string> = {
  max_hours: 'at max_hours',
  overlap: 'in overlapping shifts',
  locked_overlap: 'locked into overlapping shifts',
  higher_priority: 'in overlapping shifts of higher priority',
  rest: 'short of rest',
  max_shifts_per_day: 'at their daily limit',
  unavailable: 'unavailable then',
  other_group: 'in this shift for another group',
};

interface Blocked {
  volunteer: number;
  block: Block;
  code: Code;
}

function codeOf(block: Block, s: Shift): Code {
  switch (block.rule) {
    case 'same_shift':
      return 'other_group';
    case 'availability':
      return 'unavailable';
    case 'spacing':
      return spacingCode(block.other, s);
    case 'daily':
      return 'max_shifts_per_day';
    case 'hours':
      return 'max_hours';
  }
}

/** The detail and the sentence of a named volunteer's rule, from the rule module that owns it. */
function describe(state: ScheduleState, s: Shift, b: Blocked): { detail: Detail; sentence: string } {
  return blockDetail(state.problem.volunteers[b.volunteer]!, s, b.block, state.problem.zone);
}

/** Relevance: closest to fitting first (least extra hours needed), then the other rules, then request order. */
const RANK: Record<Code, number> = {
  max_hours: 0,
  max_shifts_per_day: 5e5,
  rest: 8e5,
  overlap: 1e6,
  higher_priority: 1.2e6,
  other_group: 1.5e6,
  locked_overlap: 2e6,
  unavailable: 3e6,
};
function relevance(state: ScheduleState, s: Shift, b: Blocked): number {
  if (b.block.rule !== 'hours') return RANK[b.code];
  return b.block.load + s.hours - state.problem.volunteers[b.volunteer]!.capHours;
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
    case 'extend_availability':
      return `${extendAvailabilitySentence(volunteer!, shift, problem.zone)}${kept}.`;
    case 'reduce_rest':
      return `${reduceRestSentence(volunteer!, suggestion.min_rest_hours!)}${kept}.`;
    case 'raise_max_shifts_per_day':
      return `${raiseMaxShiftsPerDaySentence(volunteer!, suggestion.max_shifts_per_day!)}${kept}.`;
    case 'add_group':
      return `${addGroupSentence(volunteer!, suggestion.group!)}${kept}.`;
    case 'add_volunteers':
      return addVolunteersSentence(shift, suggestion.group!, suggestion.count!, problem.zone);
    case 'rename_group':
      return renameGroupSentence(suggestion.group!, suggestion.filled!);
  }
}

/** Names shorter than this are not taken for misspellings (a and b are one edit apart, and unrelated). */
const NEAR_GROUP_MIN_LENGTH = 3;

/** The group with members whose name is closest to `group` (a misspelling of it?), if any is close. */
function nearGroup(state: ScheduleState, group: string): string | undefined {
  if (group.trim().length < NEAR_GROUP_MIN_LENGTH) return undefined;
  state.nearGroups ??= new Map();
  if (!state.nearGroups.has(group)) state.nearGroups.set(group, new NameSuggester(state.members.keys()).closest(group));
  return state.nearGroups.get(group);
}

/**
 * Asking for `near` instead of the memberless `group`: filled by the members of `near` who could
 * take the shift as things stand (not in it, free then, available, with the hours and the day's
 * room), at most `missing`. None when no such member exists.
 */
function renameGroupSuggestions(state: ScheduleState, s: Shift, near: string, missing: number): Suggestion[] {
  let free = 0;
  for (const v of state.members.get(near) ?? []) {
    if (free === missing) break;
    if (state.roster.holding(v.index, s.index) === undefined && state.roster.blocker(v.index, s) === undefined) free++;
  }
  return free === 0 ? [] : [renameGroup(near, free)];
}

/**
 * Volunteers who do not have the group but could take a slot of it as things stand (free then,
 * available, with the hours and the day's room): each would fill one more slot with the group
 * added. At most MAX_PER_KIND, from the first ADD_GROUP_SCAN such volunteers; none unless
 * state.offerAddGroup.
 */
function addGroupSuggestions(state: ScheduleState, s: Shift, group: string): Suggestion[] {
  const out: Suggestion[] = [];
  if (!state.offerAddGroup) return out;
  let scanned = 0;
  for (const vol of state.problem.volunteers) {
    if (hasGroup(vol, group)) continue;
    if (++scanned > ADD_GROUP_SCAN || out.length === MAX_PER_KIND) break;
    if (state.roster.blocker(vol.index, s) !== undefined) continue;
    // With the group added, a lock of theirs in a shift requiring it could come to fill one of
    // its slots (Lock.group) and take a slot filled now: such a change is not a single one.
    const movesLock = state.roster.placements(vol.index).some((p) => p.locked && (state.problem.shifts[p.index]!.required.get(group) ?? 0) > 0);
    if (!movesLock) out.push(addGroup(vol, group));
  }
  return out;
}

/** Puts add_group suggestions before add_volunteers (the last resort). */
function withAddGroup(suggestions: Suggestion[], extra: Suggestion[]): Suggestion[] {
  if (extra.length === 0) return suggestions;
  const i = suggestions.findIndex((x) => x.code === 'add_volunteers');
  return i < 0 ? [...suggestions, ...extra] : [...suggestions.slice(0, i), ...extra, ...suggestions.slice(i)];
}

export function explainShortfall(state: ScheduleState, s: number, group: string, required: number, assigned: number, suggestions: Suggestion[] = []): Conflict {
  const { problem, roster } = state;
  const shift = problem.shifts[s]!;
  const missing = required - assigned;
  const members = state.members.get(group) ?? [];
  const conflict = (reasons: string[], details: Detail[], items: Suggestion[]): Conflict => ({
    shift_id: shift.id,
    group,
    reasons: [...reasons, ...items.map((x) => suggestionSentence(problem, s, x))] as Conflict['reasons'],
    required,
    assigned,
    missing,
    details,
    suggestions: items,
  });
  if (members.length === 0) {
    // The near spelling first: a typo in the group's name is the likeliest cause.
    const near = nearGroup(state, group);
    const { detail, sentence } = noMembersDetail(group, near);
    const rename = near === undefined ? [] : renameGroupSuggestions(state, shift, near, missing);
    return conflict([sentence], [detail], [...rename, ...withAddGroup([addVolunteers(group, missing)], addGroupSuggestions(state, shift, group))]);
  }
  const blocked: Blocked[] = [];
  let unexplained = 0;
  let inShift = 0;
  for (const v of members) {
    const held = roster.holding(v.index, s);
    if (held && held.group === group) {
      inShift++;
      continue;
    }
    const block = roster.blocker(v.index, shift);
    if (block) blocked.push({ volunteer: v.index, block, code: codeOf(block, shift) });
    else unexplained++;
  }
  const reasons: string[] = [];
  const details: Detail[] = [];
  if (blocked.length === 0 && unexplained === 0) {
    const { detail, sentence } = tooSmallDetail(group, inShift, missing);
    reasons.push(sentence);
    details.push(detail);
  }
  blocked.sort((a, b) => relevance(state, shift, a) - relevance(state, shift, b) || a.volunteer - b.volunteer);
  for (const b of blocked.slice(0, MAX_NAMED)) {
    const { detail, sentence } = describe(state, shift, b);
    // A wish is never a rule: the rule above keeps them out; the wish is why the schedule chose so.
    if (problem.volunteers[b.volunteer]!.avoided.includes(s)) {
      reasons.push(`${sentence} They also asked to avoid this shift (avoid_shifts): a wish the schedule keeps wherever coverage and staffing allow.`);
      details.push({ ...detail, avoided: true });
      continue;
    }
    reasons.push(sentence);
    details.push(detail);
  }
  if (blocked.length > MAX_NAMED) {
    const rest = blocked.slice(MAX_NAMED);
    const counts: Record<string, number> = {};
    for (const b of rest) counts[b.code] = (counts[b.code] ?? 0) + 1;
    const codes = (Object.keys(RULE_PHRASE) as Code[]).filter((r) => counts[r]);
    reasons.push(`And ${rest.length} more: ${codes.map((r) => `${counts[r]} ${RULE_PHRASE[r]}`).join(', ')}.`);
    details.push({ code: 'summary', counts });
  }
  if (unexplained > 0) {
    // Only when the solve stopped before every free volunteer was placed; never after completion.
    reasons.push(
      `${unexplained} volunteer${unexplained === 1 ? '' : 's'} of group '${group}' could still take this shift; the solver stopped at its time limit before placing them.`,
    );
    details.push({ code: 'time_limit', count: unexplained });
  }
  return conflict(reasons, details, withAddGroup(suggestions, addGroupSuggestions(state, shift, group)));
}
