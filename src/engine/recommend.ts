// Who could take a slot of a shift (CONTRACT.md section 14, POST /api/recommendations): in the
// schedule as it stands (published-schedule.ts), the volunteers of the slot's group who are
// free then and pass every rule (no other change), then those kept out by exactly one of their
// own non-locked shifts, who leave it for another volunteer to take (two moves) or, when nobody
// can and it has a lower priority, leave it one short (one move). Ranked as the contract says,
// and each entry applied and re-checked with the rule modules before it is returned. No solver.
import type { FieldError, RecommendationCandidate, RecommendationMove, RecommendationResult } from '../types/schema-types.js';
import { NameSuggester } from '../input/did-you-mean.js';
import { formatHours, formatWindow } from '../input/format.js';
import { displayName, type Problem, type Shift, type Volunteer } from '../input/problem.js';
import { isAvailable } from '../rules/availability.js';
import { dailyFit } from '../rules/daily.js';
import { hasGroup, noMembersDetail } from '../rules/groups.js';
import { hoursFit } from '../rules/hours.js';
import { placement, type Block, type Placement } from '../rules/model.js';
import { conflicts } from '../rules/spacing.js';
import { PublishedSchedule } from './published-schedule.js';

/** What is asked: the body's fields besides `request`. */
export interface RecommendationAsk {
  shiftId: string;
  group?: string;
  replaceVolunteerId?: string;
  limit: number;
}

export type Recommendations = Omit<RecommendationResult, 'warnings'>;

export type RecommendOutcome = { ok: true; result: Recommendations; schedule: PublishedSchedule } | { ok: false; errors: FieldError[] };

/** One change of an entry applied: a volunteer joins a shift in a slot of `group`, or leaves it. */
export interface Change {
  volunteer: number;
  shift: number;
  group: string | null;
  join: boolean;
}

/** A candidate before it is written out: who, in which group, and the shift they leave (with who takes it, if anyone). */
interface Option {
  volunteer: number;
  group: string;
  leave?: { from: Placement; taker?: number };
  preferred: boolean;
  avoided: boolean;
  hoursAfter: number;
}

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The answer, or the field errors of shift_id, group and replace_volunteer_id against the request. */
export function recommend(problem: Problem, ask: RecommendationAsk): RecommendOutcome {
  const s = problem.shifts.find((x) => x.id === ask.shiftId);
  if (!s) {
    const hint = new NameSuggester(problem.shifts.map((x) => x.id)).didYouMean(ask.shiftId);
    return { ok: false, errors: [{ pointer: '/shift_id', code: 'unknown_shift', message: `shift_id '${ask.shiftId}' is not a shift of the request${hint}` }] };
  }
  const schedule = new PublishedSchedule(problem);
  const required = [...s.required].filter(([, n]) => n > 0).map(([g]) => g);
  const target = checkTarget(schedule, s, required, ask);
  if ('errors' in target) return { ok: false, errors: target.errors };
  const { replaced } = target;
  if (replaced) schedule.takeOff(replaced.volunteer, s.index);
  const open = Object.fromEntries(required.map((g) => [g, schedule.open(s.index, g)]));
  const considered = ask.group !== undefined ? [ask.group] : replaced && replaced.group !== null ? [replaced.group] : required.filter((g) => open[g]! > 0);
  const groups = considered.length > 0 ? considered : required;
  const openGroups = groups.filter((g) => open[g]! > 0);
  const options = openGroups.length === 0 ? [] : findOptions(schedule, s, openGroups, replaced?.volunteer);
  const candidates: RecommendationCandidate[] = [];
  for (const option of options) {
    if (candidates.length >= ask.limit) break;
    if (checkApplied(schedule, changesOf(option, s)).length > 0) continue;
    candidates.push(describeOption(schedule, s, option));
  }
  const reasons =
    candidates.length > 0 ? [] : openGroups.length === 0 ? fullReasons(s, groups, schedule, required) : whyNone(schedule, s, openGroups, replaced?.volunteer);
  return {
    ok: true,
    schedule,
    result: {
      shift_id: s.id,
      group: groups.length === 1 ? groups[0]! : null,
      open_slots: open,
      ...(replaced ? { replaced: { volunteer_id: problem.volunteers[replaced.volunteer]!.id, group: replaced.group } } : {}),
      candidates,
      reasons,
    },
  };
}

/** The group and the volunteer to replace, checked against the shift and the schedule as it stands. */
function checkTarget(
  schedule: PublishedSchedule,
  s: Shift,
  required: readonly string[],
  ask: RecommendationAsk,
): { errors: FieldError[] } | { replaced?: { volunteer: number; group: string | null } } {
  const { problem } = schedule;
  const errors: FieldError[] = [];
  if (ask.group !== undefined && !required.includes(ask.group)) {
    const hint = new NameSuggester(required).didYouMean(ask.group);
    const asks = required.length === 0 ? 'it requires no volunteer at all' : `it requires ${required.map((g) => `'${g}' (${s.required.get(g)})`).join(', ')}`;
    errors.push({
      pointer: '/group',
      code: 'group_not_required',
      message: `Shift '${s.id}' requires no volunteer of group '${ask.group}'${hint} ${capital(asks)}.`,
    });
  }
  let replaced: { volunteer: number; group: string | null } | undefined;
  if (ask.replaceVolunteerId !== undefined) {
    const found = replacement(problem, schedule, s, ask.replaceVolunteerId);
    if ('error' in found) errors.push(found.error);
    else {
      replaced = found;
      if (ask.group !== undefined && found.group !== null && found.group !== ask.group && required.includes(ask.group))
        errors.push({
          pointer: '/group',
          code: 'group_mismatch',
          message: `replace_volunteer_id '${ask.replaceVolunteerId}' fills a slot of group '${found.group}' in '${s.id}', not '${ask.group}'; leave group out or give '${found.group}'.`,
        });
    }
  }
  return errors.length > 0 ? { errors } : replaced ? { replaced } : {};
}

/** The volunteer named by replace_volunteer_id on the shift, or the error saying who is on it. */
function replacement(problem: Problem, schedule: PublishedSchedule, s: Shift, id: string): { volunteer: number; group: string | null } | { error: FieldError } {
  const on = schedule.on(s.index);
  const hit = on.find((o) => problem.volunteers[o.volunteer]!.id === id);
  if (hit) return { volunteer: hit.volunteer, group: hit.group };
  const names = on.map((o) => displayName(problem.volunteers[o.volunteer]!));
  const who =
    names.length === 0
      ? `nobody is on '${s.id}' in the schedule as it stands`
      : `on '${s.id}' in the schedule as it stands ${names.length === 1 ? 'is' : 'are'} ${names.slice(0, 10).join(', ')}${names.length > 10 ? ` and ${names.length - 10} more` : ''}`;
  const known = problem.volunteers.some((v) => v.id === id);
  const what = known
    ? `replace_volunteer_id '${id}' is not on '${s.id}' (locked or previous).`
    : `replace_volunteer_id '${id}' is not a volunteer of the request${new NameSuggester(on.map((o) => problem.volunteers[o.volunteer]!.id)).didYouMean(id)}`;
  return { error: { pointer: '/replace_volunteer_id', code: 'not_on_shift', message: `${what} ${capital(who)}.` } };
}

/** Every option, best first (the contract's ranking, then avoided last, fewest hours, request order). */
function findOptions(schedule: PublishedSchedule, s: Shift, openGroups: readonly string[], replaced: number | undefined): Option[] {
  const { roster, problem } = schedule;
  const onShift = new Set(schedule.on(s.index).map((o) => o.volunteer));
  const takers = new Map<string, number | undefined>();
  const options: Option[] = [];
  for (const v of problem.volunteers) {
    if (v.index === replaced || onShift.has(v.index)) continue;
    const group = v.groups.find((g) => openGroups.includes(g));
    if (group === undefined || !isAvailable(v, s)) continue;
    const wish = { preferred: v.preferred.includes(s.index), avoided: v.avoided.includes(s.index) };
    if (roster.fits(v.index, s)) {
      options.push({ volunteer: v.index, group, ...wish, hoursAfter: roster.hours(v.index) + s.hours });
      continue;
    }
    const leave = release(schedule, v, s, takers);
    if (leave) options.push({ volunteer: v.index, group, leave, ...wish, hoursAfter: roster.hours(v.index) + s.hours - leave.from.hours });
  }
  const moves = (o: Option): number => (o.leave === undefined ? 0 : o.leave.taker === undefined ? 1 : 2);
  return options.sort(
    (a, b) =>
      moves(a) - moves(b) ||
      Number(b.preferred) - Number(a.preferred) ||
      Number(a.avoided) - Number(b.avoided) ||
      a.hoursAfter - b.hoursAfter ||
      a.volunteer - b.volunteer,
  );
}

/**
 * The one non-locked shift of the volunteer whose giving up lets them take s: the first (by
 * start) that another volunteer can take over, else the first of lower priority than s (left one
 * short); undefined when there is none.
 */
function release(schedule: PublishedSchedule, v: Volunteer, s: Shift, takers: Map<string, number | undefined>): Option['leave'] {
  let short: Placement | undefined;
  for (const t of schedule.roster.placements(v.index)) {
    if (t.locked || t.index === s.index || !schedule.roster.fits(v.index, s, t)) continue;
    const taker = takerFor(schedule, t, takers);
    if (taker !== undefined) return { from: t, taker };
    if (short === undefined && t.priority < s.priority) short = t;
  }
  return short ? { from: short } : undefined;
}

/**
 * The volunteer who would take over a slot of t's group from whoever leaves it: of the group's
 * volunteers free then who pass every rule, those who prefer t first, avoid it last, then the
 * fewest hours and request order. The same for every candidate leaving t (the leaver is on t, so
 * never their own taker): found once per (shift, group).
 */
function takerFor(schedule: PublishedSchedule, t: Placement, takers: Map<string, number | undefined>): number | undefined {
  const key = `${t.index}\u0000${t.group}`;
  if (takers.has(key)) return takers.get(key);
  const { roster, problem } = schedule;
  let best: Volunteer | undefined;
  const rank = (w: Volunteer): [number, number, number] => [w.preferred.includes(t.index) ? 0 : 1, w.avoided.includes(t.index) ? 1 : 0, roster.hours(w.index)];
  for (const w of problem.volunteers) {
    if (t.group === null || !hasGroup(w, t.group) || !isAvailable(w, t) || !roster.fits(w.index, t)) continue;
    if (best === undefined || before(rank(w), rank(best))) best = w;
  }
  takers.set(key, best?.index);
  return best?.index;
}

const before = (a: readonly number[], b: readonly number[]): boolean => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
};

/** The changes an option makes: the candidate joins s; with a leave, they leave it and the taker (if any) joins it. */
export function changesOf(option: Pick<Option, 'volunteer' | 'group' | 'leave'>, s: Shift): Change[] {
  const changes: Change[] = [{ volunteer: option.volunteer, shift: s.index, group: option.group, join: true }];
  const leave = option.leave;
  if (leave) {
    changes.push({ volunteer: option.volunteer, shift: leave.from.index, group: leave.from.group, join: false });
    if (leave.taker !== undefined) changes.push({ volunteer: leave.taker, shift: leave.from.index, group: leave.from.group, join: true });
  }
  return changes;
}

/**
 * The rules the changes break, applied to the schedule as it stands, each checked by its rule
 * module for every placement the changes add: the group, one slot per shift, the headcount of the
 * slots they touch, availability, overlap and rest, the daily limit and max_hours. A break the
 * locks had already is not the changes': only pairs and totals with a new placement count. Only
 * non-locked placements may be left. Empty when the changes break nothing.
 */
export function checkApplied(schedule: PublishedSchedule, changes: readonly Change[]): string[] {
  const { roster, problem } = schedule;
  const broken: string[] = [];
  const slots = new Map<string, { shift: number; group: string; delta: number }>();
  for (const c of changes) {
    if (c.group === null) continue;
    const key = `${c.shift}\u0000${c.group}`;
    const slot = slots.get(key) ?? { shift: c.shift, group: c.group, delta: 0 };
    slot.delta += c.join ? 1 : -1;
    slots.set(key, slot);
  }
  for (const { shift, group, delta } of slots.values()) {
    const s = problem.shifts[shift]!;
    const count = schedule.filledIn(shift, group) + delta;
    if (delta > 0 && count > (s.required.get(group) ?? 0))
      broken.push(`'${s.id}' would have ${count} of group '${group}' for ${s.required.get(group) ?? 0} slots`);
  }
  for (const volunteer of new Set(changes.map((c) => c.volunteer))) {
    const v = problem.volunteers[volunteer]!;
    const mine = changes.filter((c) => c.volunteer === volunteer);
    const left = new Set<number>();
    for (const c of mine.filter((x) => !x.join)) {
      const held = roster.holding(volunteer, c.shift);
      if (!held || held.locked) broken.push(`${v.id} cannot leave '${problem.shifts[c.shift]!.id}': ${held ? 'it is locked' : 'they are not on it'}`);
      left.add(c.shift);
    }
    const joined = mine.filter((x) => x.join).map((c) => placement(problem.shifts[c.shift]!, c.group, false));
    const after = [...roster.placements(volunteer).filter((p) => !left.has(p.index)), ...joined];
    for (const n of joined) broken.push(...placementBreaks(v, n, after, problem));
  }
  return broken;
}

/** What a new placement n of v breaks among v's placements `after` (n included). */
function placementBreaks(v: Volunteer, n: Placement, after: readonly Placement[], problem: Problem): string[] {
  const out: string[] = [];
  const s = problem.shifts[n.index]!;
  if (n.group === null || !hasGroup(v, n.group) || !((s.required.get(n.group) ?? 0) > 0))
    out.push(`${v.id} cannot fill a slot of group '${n.group}' in '${s.id}'`);
  if (!isAvailable(v, s)) out.push(`${v.id} is not available for '${s.id}'`);
  for (const p of after) {
    if (p === n) continue;
    if (p.index === n.index) out.push(`${v.id} would fill two slots of '${s.id}'`);
    else if (conflicts(v, p, n)) out.push(`${v.id} would be in '${p.id}' and '${s.id}', which overlap or leave too little rest`);
  }
  const sameDay = after.filter((p) => p.day === n.day).length;
  if (!dailyFit(v, sameDay - 1)) out.push(`${v.id} would have ${sameDay} shifts on one day, over ${v.maxShiftsPerDay}`);
  const total = after.reduce((sum, p) => sum + p.hours, 0);
  if (!hoursFit(v, total - n.hours, n.hours)) out.push(`${v.id} would have ${formatHours(total)} hours, over max_hours ${formatHours(v.maxHours)}`);
  return out;
}

/** "is in group 'kitchen'" or "can also work in group 'bar'". */
const inGroup = (v: Volunteer, group: string): string => (group === v.group ? `is in group '${group}'` : `can also work in group '${group}'`);

/** "would have 12 of 40 hours", or "would have 12 hours (no max_hours)". */
const wouldHave = (v: Volunteer, hours: number): string =>
  Number.isFinite(v.capHours)
    ? `would have ${formatHours(hours)} of ${formatHours(v.maxHours)} hours`
    : `would have ${formatHours(hours)} hours (no max_hours)`;

/** The entry of an option: moves and sentences. */
function describeOption(schedule: PublishedSchedule, s: Shift, option: Option): RecommendationCandidate {
  const { problem, roster } = schedule;
  const v = problem.volunteers[option.volunteer]!;
  const name = displayName(v);
  const zone = problem.zone;
  const reasons: string[] = [];
  let moves: RecommendationCandidate['moves'] = [];
  const leave = option.leave;
  if (!leave) {
    reasons.push(`${name} ${inGroup(v, option.group)}, free ${formatWindow(s.start, s.end, zone)} and ${wouldHave(v, option.hoursAfter)}.`);
  } else {
    const t = leave.from;
    reasons.push(`${name} ${inGroup(v, option.group)} and ${wouldHave(v, option.hoursAfter)} once they leave '${t.id}'.`);
    const why = schedule.blockSentence(option.volunteer, s, roster.blocker(option.volunteer, s) ?? ({ rule: 'spacing', other: t } satisfies Block));
    const leaves: RecommendationMove = { volunteer_id: v.id, from_shift_id: t.id, to_shift_id: null };
    if (leave.taker === undefined) {
      moves = [leaves];
      reasons.push(
        `${name} leaves '${t.id}' (${formatWindow(t.start, t.end, zone)}) to be free: ${why} Nobody else can take their place there, so '${t.id}' (priority ${t.priority}, lower than the ${s.priority} of '${s.id}') is left one short in group '${t.group}'.`,
      );
    } else {
      const w = problem.volunteers[leave.taker]!;
      moves = [leaves, { volunteer_id: w.id, from_shift_id: null, to_shift_id: t.id }];
      reasons.push(`${name} leaves '${t.id}' (${formatWindow(t.start, t.end, zone)}) to be free: ${why}`);
      reasons.push(
        `${displayName(w)} ${inGroup(w, t.group!)}, free ${formatWindow(t.start, t.end, zone)} and ${wouldHave(w, roster.hours(w.index) + t.hours)}: they take that place in '${t.id}'.`,
      );
    }
  }
  if (option.preferred) reasons.push(`'${s.id}' is among their preferred shifts.`);
  if (option.avoided) reasons.push(`They asked to avoid '${s.id}' (avoid_shifts).`);
  return {
    volunteer_id: v.id,
    name: v.name,
    group: option.group,
    hours_after: Math.round(option.hoursAfter * 100) / 100,
    preferred: option.preferred,
    avoided: option.avoided,
    moves,
    reasons,
  };
}

/** Every slot of the groups asked about is filled: say so, and how to ask about a replacement. */
function fullReasons(s: Shift, groups: readonly string[], schedule: PublishedSchedule, required: readonly string[]): string[] {
  if (required.length === 0) return [`'${s.id}' requires no volunteer: every headcount of its required_groups is 0.`];
  const sentences = groups.map((g) => {
    const n = s.required.get(g)!;
    const filled = schedule.filledIn(s.index, g);
    const over = filled > n ? ` (${filled} locked volunteers hold them)` : '';
    return n === 1 ? `The only slot of group '${g}' in '${s.id}' is filled${over}` : `All ${n} slots of group '${g}' in '${s.id}' are filled${over}`;
  });
  return sentences.length === 1
    ? [`${sentences[0]!}; name replace_volunteer_id to ask who could replace someone.`]
    : [...sentences.map((x) => `${x}.`), 'Name replace_volunteer_id to ask who could replace someone.'];
}

type Kept = 'on_shift' | 'unavailable' | 'overlap' | 'rest' | 'daily' | 'hours';

const KEPT_PHRASES: Record<Kept, (n: number) => string> = {
  on_shift: (n) => `${plural(n, 'is', 'are')} on the shift already`,
  unavailable: (n) => `${plural(n, 'is', 'are')} unavailable then`,
  overlap: (n) => `${plural(n, 'is', 'are')} in an overlapping shift`,
  rest: (n) => `${plural(n, 'would have', 'would have')} too little rest`,
  daily: (n) => `${plural(n, 'is', 'are')} at their daily limit`,
  hours: (n) => `${plural(n, 'has', 'have')} too few hours left`,
};

/** Nobody can take an open slot: per group, how many of its volunteers each rule keeps out, with the first one's reason. */
function whyNone(schedule: PublishedSchedule, s: Shift, openGroups: readonly string[], replaced: number | undefined): string[] {
  const { problem, roster } = schedule;
  const reasons: string[] = [];
  for (const g of openGroups) {
    const members = problem.volunteers.filter((v) => v.index !== replaced && hasGroup(v, g));
    if (members.length === 0) {
      reasons.push(replaced === undefined ? noMembersDetail(g).sentence : `No other volunteer belongs to group '${g}'.`);
      continue;
    }
    const counts = new Map<Kept, { n: number; example: string }>();
    for (const v of members) {
      const block = roster.blocker(v.index, s);
      if (!block) continue;
      const kept = keptBy(block, s);
      const entry = counts.get(kept);
      if (entry) entry.n++;
      else counts.set(kept, { n: 1, example: schedule.blockSentence(v.index, s, block) });
    }
    const open = schedule.open(s.index, g);
    const slots = open === 1 ? 'the open slot' : `the ${open} open slots`;
    const when = `'${s.id}' (${formatWindow(s.start, s.end, problem.zone)})`;
    if (members.length === 1) reasons.push(`The only volunteer of group '${g}' cannot take ${slots} of ${when}:`);
    else {
      const parts = (Object.keys(KEPT_PHRASES) as Kept[]).flatMap((k) => (counts.has(k) ? [KEPT_PHRASES[k](counts.get(k)!.n)] : []));
      reasons.push(`None of the ${members.length} volunteers of group '${g}' can take ${slots} of ${when}: ${parts.join(', ')}.`);
    }
    for (const entry of counts.values()) reasons.push(entry.example);
  }
  return reasons;
}

/** The rule a block stands for in the counts of whyNone. */
function keptBy(block: Block, s: Shift): Kept {
  switch (block.rule) {
    case 'same_shift':
      return 'on_shift';
    case 'availability':
      return 'unavailable';
    case 'spacing':
      return block.other.start < s.end && s.start < block.other.end ? 'overlap' : 'rest';
    case 'daily':
      return 'daily';
    case 'hours':
      return 'hours';
  }
}
