// An independent checker of schedule results, written from the contract alone: it imports
// nothing from src/engine or src/rules. Given a request and the result the service returned, it
// verifies the roster, groups (additional groups included), headcounts, availability, rest
// (overlap when the rest is 0), daily limits in the rules' time zone, hours, locks and their
// groups, lock-break warnings, summaries (the wishes met per volunteer: preferred, avoided, hours
// below min_hours) and the result's summary of every objective level, the fairness score, the unfilled list, every conflict's
// counts, that every structured reason is true, and that every suggestion, applied, fills a slot
// without breaking a rule or emptying another slot. It returns the list of violations (empty when
// the result is right), each with a code and the ids it is about, so a test can assert exactly
// which rule broke and where. It lives with the benchmarks, which check every schedule they time;
// the tests use it through test/helpers/schedule-checker.ts, and the exhaustive search of the
// tests reads requests with its readRequest and rule predicates.
import { loadSchemas, type SchemaRegistry } from '../src/input/schema-registry.js';

let registry: SchemaRegistry | undefined;
const schemas = (): SchemaRegistry => (registry ??= loadSchemas());

type Json = Record<string, any>;

/** One broken rule: a stable code, the entities it names, and a readable message. */
export interface Violation {
  code: ViolationCode;
  volunteer?: string;
  shift?: string;
  /** The second shift of an overlap or a rest conflict. */
  other?: string;
  group?: string;
  message: string;
}

export type ViolationCode =
  | 'schema'
  | 'unknown_shift'
  | 'shift_order'
  | 'empty_shift'
  | 'repeated_volunteer'
  | 'unknown_volunteer'
  | 'volunteer_order'
  | 'roster_mismatch'
  | 'roster_order'
  | 'roster_times'
  | 'roster_locked'
  | 'two_slots_one_shift'
  | 'lock_dropped'
  | 'lock_group'
  | 'wrong_group'
  | 'group_not_required'
  | 'over_headcount'
  | 'unavailable'
  | 'rest'
  | 'max_shifts_per_day'
  | 'over_max_hours'
  | 'added_past_locked_hours'
  | 'overlap'
  | 'summary_missing'
  | 'summary_hours'
  | 'summary_shifts'
  | 'summary_count'
  | 'summary_wishes'
  | 'result_summary'
  | 'changes'
  | 'avoided_flag'
  | 'fairness_score'
  | 'unfilled_shifts'
  | 'conflict_count'
  | 'conflict_pair'
  | 'conflict_counts'
  | 'conflict_no_reason'
  | 'false_reason'
  | 'unknown_reason'
  | 'fillable_slot'
  | 'too_many_named'
  | 'false_suggestion'
  | 'lock_warning_missing';

type Names = Omit<Violation, 'code' | 'message'>;
type Fail = (code: ViolationCode, names: Names, message: string) => void;

export interface CheckOptions {
  /** Allow the `time_limit` detail (a solve that stopped before completing). */
  allowIncomplete?: boolean;
}

const HOUR = 3_600_000;
const EPS = 1e-9;
const round2 = (x: number): number => Math.round(x * 100) / 100;

// ---------------------------------------------------------------------------------------------
// The request, read once: volunteers with their groups and rules, shifts with their day and
// priority, and the locks (a pair listed twice kept once).

/** A time window in epoch milliseconds. */
export interface Span {
  start: number;
  end: number;
}

export interface Volunteer {
  id: string;
  /** Request index. */
  i: number;
  group: string;
  /** `group`, then additional_groups (a repeat of `group` ignored). */
  groups: readonly string[];
  maxHours: number;
  /** max_hours, with 999 as unlimited. */
  cap: number;
  /** The union of the available windows (merged, sorted); undefined when always available. */
  available: Span[] | undefined;
  unavailable: Span[];
  /** The volunteer's rest: min_rest_hours, else rules.min_rest_hours, else 0. */
  restHours: number;
  /** max_shifts_per_day, else the rules' value; undefined when there is no limit. */
  maxPerDay: number | undefined;
  /** preferred_shifts and avoid_shifts as given (ids no shift has simply never match). */
  preferred: ReadonlySet<string>;
  avoided: ReadonlySet<string>;
  /** min_hours, 0 when absent. */
  minHours: number;
}

export interface Shift extends Span {
  id: string;
  i: number;
  hours: number;
  priority: number;
  required: Record<string, number>;
  /** The calendar day of the start in the rules' time zone, YYYY-MM-DD. */
  day: string;
}

export interface Lock {
  v: Volunteer;
  s: Shift;
  /** Index in current_assignments (the first, for a repeated pair). */
  index: number;
}

export interface RequestFacts {
  volunteers: Volunteer[];
  shifts: Shift[];
  vById: Map<string, Volunteer>;
  sById: Map<string, Shift>;
  locks: Lock[];
  /** previous_assignments, each distinct pair once (in request order); undefined when the request has none. */
  previous?: Array<{ volunteerId: string; shiftId: string; group?: string }>;
  timezone: string;
}

export const pairKey = (v: string, s: string): string => `${v}\u0000${s}`;
const overlapping = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
/** Minutes east of UTC of an IANA zone at an instant, by Intl's wall clock (not the engine's date code). */
function zoneOffset(ms: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    offsetFormats.set(timeZone, format);
  }
  const n: Record<string, number> = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(n.year ?? 0, (n.month ?? 1) - 1, n.day ?? 1, n.hour ?? 0, n.minute ?? 0);
  return (wall - Math.floor(ms / 60_000) * 60_000) / 60_000;
}

/**
 * A request date-time as an instant: Z or an offset as written; no suffix, a wall-clock time in
 * the request's timezone (the earlier instant at a fall-back hour, as the contract reads it).
 */
function instant(text: string, timeZone: string | undefined): number {
  const withT = text.replace(' ', 'T');
  if (/([Zz]|[+-]\d{2}:\d{2})$/.test(withT)) return Date.parse(withT.toUpperCase());
  const local = Date.parse(`${withT}Z`);
  const candidates = [local - 36 * 3_600_000, local, local + 36 * 3_600_000]
    .map((near) => local - zoneOffset(near, timeZone!) * 60_000)
    .filter((at) => at + zoneOffset(at, timeZone!) * 60_000 === local);
  return Math.min(...candidates);
}

/** A window of the request (times read in its timezone `zone` when they have no suffix) or of the result (UTC). */
const span = (w: Json, zone?: string): Span => ({ start: instant(w.start, zone), end: instant(w.end, zone) });

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** YYYY-MM-DD of an instant in an IANA time zone, by Intl (not the engine's date library). */
function localDay(ms: number, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Windows merged into a sorted union (touching windows join). */
function union(spans: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const w of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && w.start <= last.end) last.end = Math.max(last.end, w.end);
    else out.push({ ...w });
  }
  return out;
}

export function readRequest(request: Json): RequestFacts {
  const rules: Json = request.rules ?? {};
  const timezone: string = rules.timezone ?? request.timezone ?? 'UTC';
  const zone: string | undefined = request.timezone;
  const volunteers: Volunteer[] = (request.volunteers as Json[]).map((v, i) => ({
    id: v.id,
    i,
    group: v.group,
    groups: [...new Set<string>([v.group, ...(v.additional_groups ?? [])])],
    maxHours: v.max_hours,
    cap: v.max_hours === 999 ? Infinity : v.max_hours,
    available: v.available === undefined ? undefined : union((v.available as Json[]).map((w) => span(w, zone))),
    unavailable: ((v.unavailable ?? []) as Json[]).map((w) => span(w, zone)),
    restHours: v.min_rest_hours ?? rules.min_rest_hours ?? 0,
    maxPerDay: v.max_shifts_per_day ?? rules.max_shifts_per_day,
    preferred: new Set<string>(v.preferred_shifts ?? []),
    avoided: new Set<string>(v.avoid_shifts ?? []),
    minHours: v.min_hours ?? 0,
  }));
  const shifts: Shift[] = (request.unassigned_shifts as Json[]).map((s, i) => {
    const { start, end } = span(s, zone);
    return { id: s.id, i, start, end, hours: (end - start) / HOUR, priority: s.priority ?? 1, required: s.required_groups, day: localDay(start, timezone) };
  });
  const vById = new Map(volunteers.map((v) => [v.id, v]));
  const sById = new Map(shifts.map((s) => [s.id, s]));
  const seen = new Set<string>();
  const locks: Lock[] = [];
  ((request.current_assignments ?? []) as Json[]).forEach((a, index) => {
    const key = pairKey(a.volunteer_id, a.shift_id);
    if (seen.has(key)) return;
    seen.add(key);
    locks.push({ v: vById.get(a.volunteer_id)!, s: sById.get(a.shift_id)!, index });
  });
  const facts: RequestFacts = { volunteers, shifts, vById, sById, locks, timezone };
  if (Array.isArray(request.previous_assignments)) {
    const listed = new Set<string>();
    facts.previous = [];
    for (const a of request.previous_assignments as Json[]) {
      const key = pairKey(a.volunteer_id, a.shift_id);
      if (listed.has(key)) continue;
      listed.add(key);
      facts.previous.push({ volunteerId: a.volunteer_id, shiftId: a.shift_id, ...(a.group !== undefined ? { group: a.group } : {}) });
    }
  }
  return facts;
}

/** Whether the shift lies wholly inside the union of the volunteer's available windows. */
const insideAvailable = (v: Volunteer, s: Span): boolean => !v.available || v.available.some((w) => w.start <= s.start && s.end <= w.end);
/** The first unavailable window of the volunteer that the shift overlaps. */
const unavailableWindow = (v: Volunteer, s: Span): Span | undefined => v.unavailable.find((w) => overlapping(w, s));
/** Availability rules out a new assignment of the volunteer to the shift. */
export const excluded = (v: Volunteer, s: Span): boolean => !insideAvailable(v, s) || unavailableWindow(v, s) !== undefined;
/** Two shifts of the volunteer closer than the volunteer's rest (with rest 0: overlapping). */
export function tooClose(v: Volunteer, a: Span, b: Span): boolean {
  const rest = v.restHours * HOUR;
  return b.start < a.end + rest && a.start < b.end + rest;
}

/**
 * The group whose slot each lock fills (by pairKey): per shift, in current_assignments order,
 * the first of the volunteer's groups the shift requires that still has room after the locks
 * before it; when none has room, the first it requires; null when it requires none.
 */
export function lockGroups(locks: readonly Lock[], groupsOf: (v: Volunteer) => readonly string[] = (v) => v.groups): Map<string, string | null> {
  const placed = new Map<string, number>();
  const out = new Map<string, string | null>();
  for (const { v, s } of locks) {
    const required = groupsOf(v).filter((g) => (s.required[g] ?? 0) > 0);
    const group = required.find((g) => (placed.get(pairKey(s.id, g)) ?? 0) < s.required[g]!) ?? required[0] ?? null;
    if (group !== null) placed.set(pairKey(s.id, group), (placed.get(pairKey(s.id, group)) ?? 0) + 1);
    out.set(pairKey(v.id, s.id), group);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The rules every new assignment keeps. Each reports through `fail`; the same functions check the
// schedule and each suggestion applied to it.

interface Assignment {
  v: Volunteer;
  s: Shift;
  group: string | null;
  locked: boolean;
}

/** A new assignment fills a slot of one of the volunteer's groups that the shift requires. */
function groupRule(a: Assignment, fail: Fail): void {
  if (a.locked) return;
  if (a.group === null || !a.v.groups.includes(a.group))
    fail(
      'wrong_group',
      { volunteer: a.v.id, shift: a.s.id, group: a.group ?? undefined },
      `${a.v.id} added to ${a.s.id} for group ${a.group}, not one of theirs`,
    );
  else if (!((a.s.required[a.group] ?? 0) > 0))
    fail('group_not_required', { volunteer: a.v.id, shift: a.s.id, group: a.group }, `${a.v.id} added to ${a.s.id}, which does not require group ${a.group}`);
}

/** Per shift: one slot per volunteer, and no group past its headcount with new assignments. */
function shiftRules(s: Shift, list: readonly Assignment[], fail: Fail): void {
  const byGroup = new Map<string, { all: number; added: number }>();
  const seen = new Set<string>();
  for (const a of list) {
    groupRule(a, fail);
    if (seen.has(a.v.id)) fail('two_slots_one_shift', { volunteer: a.v.id, shift: s.id }, `${a.v.id} fills two slots of ${s.id}`);
    seen.add(a.v.id);
    if (a.group === null) continue;
    const c = byGroup.get(a.group) ?? { all: 0, added: 0 };
    c.all++;
    if (!a.locked) c.added++;
    byGroup.set(a.group, c);
  }
  for (const [g, c] of byGroup) {
    const required = s.required[g] ?? 0;
    if (c.added > 0 && c.all > required)
      fail('over_headcount', { shift: s.id, group: g }, `${s.id} group ${g}: ${c.all} volunteers for ${required} slots with ${c.added} added`);
  }
}

/** Per volunteer: availability, rest and overlaps, the daily limit and hours, for new assignments. */
function volunteerRules(v: Volunteer, mine: readonly Assignment[], fail: Fail): void {
  for (const a of mine) {
    if (a.locked) continue;
    if (!insideAvailable(v, a.s)) fail('unavailable', { volunteer: v.id, shift: a.s.id }, `${v.id} added to ${a.s.id}, outside their available windows`);
    else if (unavailableWindow(v, a.s))
      fail('unavailable', { volunteer: v.id, shift: a.s.id }, `${v.id} added to ${a.s.id}, which overlaps an unavailable window`);
  }
  for (let i = 0; i < mine.length; i++) {
    for (let j = i + 1; j < mine.length; j++) {
      const [a, b] = [mine[i]!, mine[j]!];
      if (a.locked && b.locked) continue;
      if (overlapping(a.s, b.s)) fail('overlap', { volunteer: v.id, shift: a.s.id, other: b.s.id }, `${v.id} is in overlapping ${a.s.id} and ${b.s.id}`);
      else if (tooClose(v, a.s, b.s))
        fail('rest', { volunteer: v.id, shift: a.s.id, other: b.s.id }, `${v.id} is in ${a.s.id} and ${b.s.id}, less than ${v.restHours} h apart`);
    }
  }
  if (v.maxPerDay !== undefined) {
    const days = new Map<string, Assignment[]>();
    for (const a of mine) days.set(a.s.day, [...(days.get(a.s.day) ?? []), a]);
    for (const [day, list] of days) {
      const added = list.find((a) => !a.locked);
      if (added && list.length > v.maxPerDay)
        fail(
          'max_shifts_per_day',
          { volunteer: v.id, shift: added.s.id },
          `${v.id} has ${list.length} shifts starting on ${day}, over ${v.maxPerDay}, with additions`,
        );
    }
  }
  const total = mine.reduce((t, a) => t + a.s.hours, 0);
  const lockedHours = mine.reduce((t, a) => t + (a.locked ? a.s.hours : 0), 0);
  if (mine.some((a) => !a.locked)) {
    if (total > v.cap + 1e-6) fail('over_max_hours', { volunteer: v.id }, `${v.id} has ${total} h over max_hours ${v.maxHours} with additions`);
    if (lockedHours > v.cap + 1e-6) fail('added_past_locked_hours', { volunteer: v.id }, `${v.id} locked over max_hours yet got more`);
  }
}

// ---------------------------------------------------------------------------------------------

/** The assignments of a result: the pairs of assigned_shifts, with the groups of the roster. */
interface Schedule {
  byShift: Map<string, Assignment[]>;
  byVolunteer: Map<string, Assignment[]>;
  hours: Map<string, number>;
}

export function checkSchedule(request: Json, result: Json, options: CheckOptions = {}): Violation[] {
  const problems: Violation[] = [];
  const fail: Fail = (code, names, message) => {
    const named: Names = {};
    for (const [key, x] of Object.entries(names) as Array<[keyof Names, string | undefined]>) if (x !== undefined) named[key] = x;
    if (problems.length < 50) problems.push({ code, ...named, message });
  };
  const validate = schemas().validator('schedule-result');
  if (!validate(result)) fail('schema', {}, `schema: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  const facts = readRequest(request);
  const schedule = readSchedule(facts, result, fail);
  for (const s of facts.shifts) shiftRules(s, schedule.byShift.get(s.id)!, fail);
  for (const v of facts.volunteers) volunteerRules(v, schedule.byVolunteer.get(v.id)!, fail);
  checkSummaries(facts, schedule, result, fail);
  checkConflicts(facts, schedule, result, options, fail);
  checkLockWarnings(facts, result, fail);
  return problems;
}

/** assigned_shifts, the roster and the locks, read and checked against each other. */
function readSchedule(facts: RequestFacts, result: Json, fail: Fail): Schedule {
  const inShift = readAssignedShifts(facts, result, fail);
  const lockGroup = lockGroups(facts.locks);
  const rosterGroup = readRoster(facts, result, inShift, lockGroup, fail);
  for (const { v, s } of facts.locks) {
    if (!inShift.get(s.id)?.includes(v.id)) fail('lock_dropped', { volunteer: v.id, shift: s.id }, `locked assignment ${v.id} -> ${s.id} was not kept`);
  }
  const byShift = new Map<string, Assignment[]>(facts.shifts.map((s) => [s.id, []]));
  const byVolunteer = new Map<string, Assignment[]>(facts.volunteers.map((v) => [v.id, []]));
  for (const s of facts.shifts) {
    for (const vid of new Set(inShift.get(s.id) ?? [])) {
      const v = facts.vById.get(vid);
      if (!v) continue;
      const key = pairKey(vid, s.id);
      const locked = lockGroup.has(key);
      // A pair the roster lacks (reported) is given the group the rules would give it.
      const inferred = locked ? lockGroup.get(key)! : (v.groups.find((g) => (s.required[g] ?? 0) > 0) ?? v.group);
      const a: Assignment = { v, s, group: rosterGroup.has(key) ? rosterGroup.get(key)! : inferred, locked };
      byShift.get(s.id)!.push(a);
      byVolunteer.get(vid)!.push(a);
    }
  }
  const hours = new Map(facts.volunteers.map((v) => [v.id, byVolunteer.get(v.id)!.reduce((t, a) => t + a.s.hours, 0)]));
  return { byShift, byVolunteer, hours };
}

/** assigned_shifts: known ids, request order, no empty lists, no duplicates. */
function readAssignedShifts(facts: RequestFacts, result: Json, fail: Fail): Map<string, string[]> {
  const inShift = new Map<string, string[]>();
  let lastShift = -1;
  for (const [sid, list] of Object.entries(result.assigned_shifts as Record<string, string[]>)) {
    const s = facts.sById.get(sid);
    if (!s) {
      fail('unknown_shift', { shift: sid }, `assigned_shifts names unknown shift ${sid}`);
      continue;
    }
    if (!/^\d+$/.test(sid) && s.i < lastShift) fail('shift_order', { shift: sid }, `assigned_shifts not in request order at ${sid}`);
    lastShift = Math.max(lastShift, s.i);
    if (list.length === 0) fail('empty_shift', { shift: sid }, `assigned_shifts lists ${sid} with no volunteer`);
    if (new Set(list).size !== list.length) fail('repeated_volunteer', { shift: sid }, `assigned_shifts ${sid} repeats a volunteer`);
    const order = list.map((v) => facts.vById.get(v)?.i ?? -1);
    if (order.some((i) => i < 0)) fail('unknown_volunteer', { shift: sid }, `assigned_shifts ${sid} names an unknown volunteer`);
    if (order.some((i, k) => k > 0 && i < order[k - 1]!)) fail('volunteer_order', { shift: sid }, `assigned_shifts ${sid} volunteers not in request order`);
    inShift.set(sid, list);
  }
  return inShift;
}

/**
 * The roster: one entry per pair of assigned_shifts, in shift then volunteer request order, with
 * the shift's times, the lock flag, and for a lock the group the lock rule gives. Returns the
 * group of each pair (the first entry's, where a pair is listed twice).
 */
function readRoster(
  facts: RequestFacts,
  result: Json,
  inShift: Map<string, string[]>,
  lockGroup: Map<string, string | null>,
  fail: Fail,
): Map<string, string | null> {
  const groups = new Map<string, string | null>();
  let last: [number, number] = [-1, -1];
  for (const e of (result.roster ?? []) as Json[]) {
    const [v, s] = [facts.vById.get(e.volunteer_id), facts.sById.get(e.shift_id)];
    const at: Names = { volunteer: e.volunteer_id, shift: e.shift_id };
    if (!v || !s || !inShift.get(s.id)?.includes(v.id)) {
      fail('roster_mismatch', at, `roster lists ${e.volunteer_id} in ${e.shift_id}, which assigned_shifts does not`);
      continue;
    }
    const key = pairKey(v.id, s.id);
    if (groups.has(key)) fail('two_slots_one_shift', { ...at, group: e.group }, `roster lists ${v.id} in ${s.id} twice`);
    else groups.set(key, e.group);
    if (s.i < last[0] || (s.i === last[0] && v.i < last[1])) fail('roster_order', at, `roster not in shift then volunteer request order at ${v.id} in ${s.id}`);
    last = [s.i, v.i];
    if (Date.parse(e.start) !== s.start || Date.parse(e.end) !== s.end) fail('roster_times', at, `roster times of ${s.id} are ${e.start}-${e.end}`);
    if (e.locked !== lockGroup.has(key)) fail('roster_locked', at, `roster says ${v.id} in ${s.id} is${e.locked ? '' : ' not'} locked`);
    else if (e.locked && e.group !== lockGroup.get(key))
      fail('lock_group', { ...at, group: e.group ?? undefined }, `the lock of ${v.id} in ${s.id} fills group ${lockGroup.get(key)}, not ${e.group}`);
  }
  for (const [sid, list] of inShift) {
    for (const vid of list) if (!groups.has(pairKey(vid, sid))) fail('roster_mismatch', { volunteer: vid, shift: sid }, `roster lacks ${vid} in ${sid}`);
  }
  return groups;
}

/** Each volunteer's hours and chronological shifts, and the fairness score. */
function checkSummaries(facts: RequestFacts, schedule: Schedule, result: Json, fail: Fail): void {
  for (const v of facts.volunteers) {
    const summary = result.volunteers[v.id];
    if (!summary) {
      fail('summary_missing', { volunteer: v.id }, `volunteers lacks ${v.id}`);
      continue;
    }
    const total = schedule.hours.get(v.id)!;
    if (Math.abs(summary.assigned_hours - round2(total)) > EPS)
      fail('summary_hours', { volunteer: v.id }, `${v.id} assigned_hours ${summary.assigned_hours} != ${total}`);
    const chrono = schedule.byVolunteer
      .get(v.id)!
      .map((a) => a.s)
      .sort((a, b) => a.start - b.start || a.end - b.end || a.i - b.i)
      .map((s) => s.id);
    if (JSON.stringify(summary.assigned_shifts) !== JSON.stringify(chrono))
      fail('summary_shifts', { volunteer: v.id }, `${v.id} assigned_shifts ${JSON.stringify(summary.assigned_shifts)} != ${JSON.stringify(chrono)}`);
    const wishes = wishesMet(v, chrono, total);
    const given = { preferred_assigned: summary.preferred_assigned, avoided_assigned: summary.avoided_assigned, hours_below_min: summary.hours_below_min };
    if (JSON.stringify(given) !== JSON.stringify({ ...wishes, hours_below_min: round2(wishes.hours_below_min) }))
      fail('summary_wishes', { volunteer: v.id }, `${v.id} wishes met ${JSON.stringify(given)} != ${JSON.stringify(wishes)}`);
  }
  checkResultSummary(facts, schedule, result, fail);
  if (Object.keys(result.volunteers).length !== facts.volunteers.length) fail('summary_count', {}, 'volunteers map size differs from the request');
  const all = facts.volunteers.map((v) => schedule.hours.get(v.id)!);
  const mean = all.reduce((a, b) => a + b, 0) / Math.max(1, all.length);
  const expected = mean > 0 ? Math.round((all.reduce((a, h) => a + (h - mean) ** 2, 0) / all.length / (mean * mean)) * 1e4) / 1e4 : 0;
  if (Math.abs(result.fairness_score - expected) > EPS) fail('fairness_score', {}, `fairness_score ${result.fairness_score} != ${expected}`);
}

/** One volunteer's wishes met by their shifts (locks included): hours_below_min unrounded. */
function wishesMet(v: Volunteer, shiftIds: readonly string[], hours: number) {
  return {
    preferred_assigned: shiftIds.filter((id) => v.preferred.has(id)).length,
    avoided_assigned: shiftIds.filter((id) => v.avoided.has(id)).length,
    hours_below_min: Math.max(0, v.minHours - hours),
  };
}

/**
 * The value of every objective level: slots demanded and filled (per shift and group, at most
 * the headcount; per priority class too), shifts with every group full, previous assignments
 * dropped, the wishes summed, and the sum of squares.
 */
function objectiveSummary(facts: RequestFacts, { byShift, byVolunteer, hours }: Schedule) {
  const byPriority: Record<string, { demanded: number; filled: number }> = {};
  let demanded = 0;
  let filled = 0;
  let full = 0;
  for (const s of facts.shifts) {
    let asked = 0;
    let complete = true;
    for (const [g, n] of Object.entries(s.required)) {
      if (!(n > 0)) continue;
      const here = Math.min(n, (byShift.get(s.id) ?? []).filter((a) => a.group === g).length);
      const klass = (byPriority[String(s.priority)] ??= { demanded: 0, filled: 0 });
      klass.demanded += n;
      klass.filled += here;
      asked += n;
      filled += here;
      if (here < n) complete = false;
    }
    demanded += asked;
    if (asked > 0 && complete) full++;
  }
  let avoided = 0;
  let preferred = 0;
  let below = 0;
  let squares = 0;
  for (const v of facts.volunteers) {
    const h = hours.get(v.id) ?? 0;
    const met = wishesMet(
      v,
      byVolunteer.get(v.id)!.map((a) => a.s.id),
      h,
    );
    avoided += met.avoided_assigned;
    preferred += met.preferred_assigned;
    below += met.hours_below_min;
    squares += h * h;
  }
  return {
    demanded_slots: demanded,
    filled_slots: filled,
    filled_by_priority: byPriority,
    fully_staffed_shifts: full,
    previous_dropped: (facts.previous ?? []).filter((a) => !keptPrevious(a, byVolunteer)).length,
    avoided_assigned: avoided,
    hours_below_min: round2(below),
    preferred_assigned: preferred,
    sum_squared_hours: round2(squares),
  };
}

/** Whether the schedule keeps a previous assignment: the volunteer in the shift, in the group it names if it names one (a lock keeps it in any). */
function keptPrevious(a: NonNullable<RequestFacts['previous']>[number], byVolunteer: Schedule['byVolunteer']): boolean {
  const held = byVolunteer.get(a.volunteerId)?.find((x) => x.s.id === a.shiftId);
  return held !== undefined && (a.group === undefined || held.locked || held.group === a.group);
}

/**
 * changes (CONTRACT.md section 14): present exactly when the request has previous_assignments;
 * kept counts the previous pairs the schedule keeps; dropped lists the others in request order,
 * each reason true where this checker can tell (an id gone, the group, availability, the other
 * shift of an overlap or rest kept beside it); added lists every new assignment that does not
 * keep a previous one, in roster order.
 */
function checkChanges(facts: RequestFacts, { byShift, byVolunteer }: Schedule, result: Json, fail: Fail): void {
  const changes = result.changes as Json | undefined;
  if (facts.previous === undefined) {
    if (changes !== undefined) fail('changes', {}, 'changes given for a request without previous_assignments');
    return;
  }
  if (changes === undefined) {
    fail('changes', {}, 'changes missing although the request has previous_assignments');
    return;
  }
  const kept = facts.previous.filter((a) => keptPrevious(a, byVolunteer));
  if (changes.kept !== kept.length) fail('changes', {}, `changes.kept ${changes.kept} != ${kept.length}`);
  const dropped = facts.previous.filter((a) => !keptPrevious(a, byVolunteer));
  const listed = (changes.dropped as Json[]).map((d) => pairKey(d.volunteer_id, d.shift_id));
  const expected = dropped.map((a) => pairKey(a.volunteerId, a.shiftId));
  if (JSON.stringify(listed) !== JSON.stringify(expected)) fail('changes', {}, `changes.dropped ${JSON.stringify(listed)} != ${JSON.stringify(expected)}`);
  for (const d of changes.dropped as Json[]) {
    const v = facts.vById.get(d.volunteer_id);
    const s = facts.sById.get(d.shift_id);
    const wrong = (why: string): void => {
      fail('changes', { volunteer: d.volunteer_id, shift: d.shift_id }, `dropped ${d.volunteer_id} -> ${d.shift_id}: reason ${d.reason} ${why}`);
    };
    if ((d.reason === 'volunteer_removed') !== (v === undefined)) wrong('does not match whether the volunteer is in the request');
    else if (v !== undefined && (d.reason === 'shift_removed') !== (s === undefined)) wrong('does not match whether the shift is in the request');
    if (!v || !s) continue;
    const previous = facts.previous.find((a) => a.volunteerId === v.id && a.shiftId === s.id)!;
    const groups = (previous.group === undefined ? v.groups : v.groups.filter((g) => g === previous.group)).filter((g) => (s.required[g] ?? 0) > 0);
    if ((d.reason === 'group_not_required') !== (groups.length === 0)) wrong('does not match the groups the shift requires');
    if (d.reason === 'unavailable' && !excluded(v, s)) wrong('but the volunteer is available then');
    if (d.reason === 'overlap' || d.reason === 'rest') {
      const other = byVolunteer.get(v.id)!.find((x) => x.s.id === d.other_shift_id);
      if (!other || !tooClose(v, other.s, s)) wrong(`but ${d.other_shift_id} is not a shift of theirs too close to it`);
      else if ((d.reason === 'overlap') !== overlapping(other.s, s))
        wrong(`but ${d.other_shift_id} ${overlapping(other.s, s) ? 'overlaps' : 'does not overlap'}`);
    }
  }
  const wasPrevious = new Map(facts.previous.map((a) => [pairKey(a.volunteerId, a.shiftId), a]));
  const added: string[] = [];
  for (const s of facts.shifts) {
    for (const a of byShift.get(s.id) ?? []) {
      const previous = wasPrevious.get(pairKey(a.v.id, s.id));
      if (!a.locked && (previous === undefined || !keptPrevious(previous, byVolunteer))) added.push(`${pairKey(a.v.id, s.id)}\u0000${a.group}`);
    }
  }
  const given = (changes.added as Json[]).map((x) => `${pairKey(x.volunteer_id, x.shift_id)}\u0000${x.group}`);
  if (JSON.stringify(given) !== JSON.stringify(added)) fail('changes', {}, `changes.added ${JSON.stringify(given)} != ${JSON.stringify(added)}`);
}

function checkResultSummary(facts: RequestFacts, schedule: Schedule, result: Json, fail: Fail): void {
  checkChanges(facts, schedule, result, fail);
  const expected = objectiveSummary(facts, schedule);
  const given = result.summary ?? {};
  for (const [key, value] of Object.entries(expected)) {
    const ok = key === 'filled_by_priority' ? JSON.stringify(sortedKeys(given[key] ?? {})) === JSON.stringify(sortedKeys(value as Json)) : given[key] === value;
    if (!ok) fail('result_summary', {}, `summary.${key} ${JSON.stringify(given[key])} != ${JSON.stringify(value)}`);
  }
}

const sortedKeys = (o: Json): Json => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

// ---------------------------------------------------------------------------------------------
// Conflicts: the short (shift, group) pairs, their counts, their reasons and their suggestions.

/** One short (shift, group) pair and the volunteers it concerns. */
interface Short {
  s: Shift;
  g: string;
  required: number;
  assigned: number;
  /** Volunteers having g among their groups. */
  members: Volunteer[];
  /** Those of them not in s. */
  out: Volunteer[];
}

/** Everything the conflict checks read. */
interface ConflictContext {
  facts: RequestFacts;
  schedule: Schedule;
  options: CheckOptions;
}

const countIn = (list: readonly Assignment[], g: string): number => list.filter((a) => a.group === g).length;
const assignmentOf = (schedule: Schedule, v: Volunteer, s: Shift): Assignment | undefined => schedule.byVolunteer.get(v.id)!.find((a) => a.s === s);

function shortPairs(facts: RequestFacts, schedule: Schedule): Short[] {
  const membersOf = new Map<string, Volunteer[]>();
  for (const v of facts.volunteers) for (const g of v.groups) membersOf.set(g, [...(membersOf.get(g) ?? []), v]);
  const pairs: Short[] = [];
  for (const s of facts.shifts) {
    const list = schedule.byShift.get(s.id)!;
    for (const [g, required] of Object.entries(s.required)) {
      const assigned = countIn(list, g);
      if (!(required > 0) || assigned >= required) continue;
      const members = membersOf.get(g) ?? [];
      pairs.push({ s, g, required, assigned, members, out: members.filter((v) => !list.some((a) => a.v === v)) });
    }
  }
  return pairs;
}

function checkConflicts(facts: RequestFacts, schedule: Schedule, result: Json, options: CheckOptions, fail: Fail): void {
  const pairs = shortPairs(facts, schedule);
  const expectedUnfilled = facts.shifts.filter((s) => pairs.some((p) => p.s === s)).map((s) => s.id);
  if (JSON.stringify(result.unfilled_shifts) !== JSON.stringify(expectedUnfilled))
    fail('unfilled_shifts', {}, `unfilled_shifts ${JSON.stringify(result.unfilled_shifts)} != ${JSON.stringify(expectedUnfilled)}`);
  if (result.conflicts.length !== pairs.length)
    fail('conflict_count', {}, `${result.conflicts.length} conflicts for ${pairs.length} short (shift, group) pairs`);
  const ctx: ConflictContext = { facts, schedule, options };
  pairs.forEach((p, k) => {
    const c = result.conflicts[k];
    if (!c) return;
    const at: Names = { shift: p.s.id, group: p.g };
    if (c.shift_id !== p.s.id || c.group !== p.g) {
      fail('conflict_pair', at, `conflict ${k} is ${c.shift_id}/${c.group}, expected ${p.s.id}/${p.g}`);
      return;
    }
    if (c.required !== p.required || c.assigned !== p.assigned || c.missing !== p.required - p.assigned)
      fail('conflict_counts', at, `conflict ${p.s.id}/${p.g} counts wrong`);
    if (!(c.reasons.length >= 1)) fail('conflict_no_reason', at, `conflict ${p.s.id}/${p.g} has no reason`);
    for (const d of c.details as Json[]) {
      if (!Object.hasOwn(DETAIL_CHECKS, d.code)) {
        fail('unknown_reason', at, `${p.s.id}/${p.g}: unknown detail code ${d.code}`);
        continue;
      }
      const why = detailFalse(d, p, ctx);
      if (why) fail('false_reason', { ...at, volunteer: d.volunteer_id }, `${p.s.id}/${p.g}: ${d.code} ${d.volunteer_id ?? ''}: ${why}`);
      // A named volunteer who asked to avoid the shift is marked so, and only such a one.
      const avoids = d.volunteer_id !== undefined && facts.vById.get(d.volunteer_id)?.avoided.has(p.s.id) === true;
      if ((d.avoided === true) !== avoids || (d.avoided !== undefined && d.avoided !== true))
        fail('avoided_flag', { ...at, volunteer: d.volunteer_id }, `${p.s.id}/${p.g}: ${d.volunteer_id} avoided is ${d.avoided}, the request says ${avoids}`);
    }
    // Every member outside the shift is kept out by some rule (no slot left while someone is free).
    if (!options.allowIncomplete) {
      for (const v of p.out) {
        if (!keptOut(v, p.s, schedule)) fail('fillable_slot', { ...at, volunteer: v.id }, `${p.s.id}/${p.g}: ${v.id} could fill it but was not placed`);
      }
    }
    for (const sug of c.suggestions as Json[]) {
      const why = suggestionFalse(sug, p, ctx);
      if (why) fail('false_suggestion', { ...at, volunteer: sug.volunteer_id }, `${p.s.id}/${p.g}: ${sug.code} ${sug.volunteer_id ?? ''}: ${why}`);
    }
    const named = (c.details as Json[]).filter((d) => d.volunteer_id !== undefined).length;
    if (named > 10) fail('too_many_named', at, `${p.s.id}/${p.g}: names ${named} volunteers, over 10`);
  });
}

/** Some rule keeps the volunteer out of the shift as the schedule stands. */
function keptOut(v: Volunteer, s: Shift, schedule: Schedule): boolean {
  const mine = schedule.byVolunteer.get(v.id)!;
  const sameDay = mine.filter((a) => a.s.day === s.day).length;
  return (
    excluded(v, s) ||
    mine.some((a) => tooClose(v, a.s, s)) ||
    (v.maxPerDay !== undefined && sameDay + 1 > v.maxPerDay) ||
    schedule.hours.get(v.id)! + s.hours > v.cap + EPS
  );
}

/** The per-volunteer rule codes a summary may count. */
const RULE_CODES = new Set(['max_hours', 'overlap', 'locked_overlap', 'higher_priority', 'rest', 'max_shifts_per_day', 'unavailable', 'other_group']);

/** A detail about volunteer v: undefined when true, else why it is false. */
type VolunteerDetailCheck = (d: Json, v: Volunteer, p: Short, ctx: ConflictContext) => string | undefined;
type DetailCheck = (d: Json, p: Short, ctx: ConflictContext) => string | undefined;

/** The volunteer's assignment to the detail's shift_id, which must overlap the short shift. */
function overlappingAssignment(d: Json, v: Volunteer, p: Short, ctx: ConflictContext): Assignment | string {
  const o = ctx.facts.sById.get(d.shift_id);
  const a = o && assignmentOf(ctx.schedule, v, o);
  if (!a) return `not in ${d.shift_id}`;
  if (!overlapping(o, p.s)) return `${d.shift_id} does not overlap`;
  return a;
}

const VOLUNTEER_DETAILS: Record<string, VolunteerDetailCheck> = {
  max_hours: (d, v, p, { schedule }) => {
    const hours = schedule.hours.get(v.id)!;
    if (!(hours + p.s.hours > v.cap + EPS)) return 'not at max_hours';
    if (d.assigned_hours !== round2(hours) || d.max_hours !== v.maxHours || d.shift_hours !== round2(p.s.hours)) return 'hours in the detail wrong';
    return undefined;
  },
  overlap: (d, v, p, ctx) => {
    const a = overlappingAssignment(d, v, p, ctx);
    if (typeof a === 'string') return a;
    if (a.locked) return 'the assignment is locked (locked_overlap)';
    return a.s.priority > p.s.priority ? 'the shift has a higher priority (higher_priority)' : undefined;
  },
  locked_overlap: (d, v, p, ctx) => {
    const a = overlappingAssignment(d, v, p, ctx);
    if (typeof a === 'string') return a;
    return a.locked ? undefined : 'the assignment is not locked';
  },
  higher_priority: (d, v, p, ctx) => {
    const a = overlappingAssignment(d, v, p, ctx);
    if (typeof a === 'string') return a;
    if (a.locked) return 'the assignment is locked (locked_overlap)';
    if (!(a.s.priority > p.s.priority)) return `priority ${a.s.priority} is not higher than ${p.s.priority}`;
    return d.priority === a.s.priority ? undefined : `priority ${d.priority} != ${a.s.priority}`;
  },
  rest: (d, v, p, { facts, schedule }) => {
    const o = facts.sById.get(d.shift_id);
    const a = o && assignmentOf(schedule, v, o);
    if (!a) return `not in ${d.shift_id}`;
    if (overlapping(a.s, p.s) || !tooClose(v, a.s, p.s)) return `${d.shift_id} is not within the rest`;
    const gap = round2(Math.max(p.s.start - a.s.end, a.s.start - p.s.end) / HOUR);
    if (d.locked !== a.locked || d.min_rest_hours !== v.restHours || d.rest_hours !== gap)
      return `locked/min_rest_hours/rest_hours should be ${a.locked}/${v.restHours}/${gap}`;
    return undefined;
  },
  max_shifts_per_day: (d, v, p, { schedule }) => {
    const count = schedule.byVolunteer.get(v.id)!.filter((a) => a.s.day === p.s.day).length;
    if (v.maxPerDay === undefined || count < v.maxPerDay) return `${count} shifts on ${p.s.day}, limit ${v.maxPerDay}`;
    if (d.day !== p.s.day || d.count !== count || d.max_shifts_per_day !== v.maxPerDay) return `day/count/max should be ${p.s.day}/${count}/${v.maxPerDay}`;
    return undefined;
  },
  unavailable: (d, v, p) => {
    if (d.window === undefined) return insideAvailable(v, p.s) ? 'the shift is inside the available windows' : undefined;
    const w = span(d.window);
    if (!v.unavailable.some((u) => u.start === w.start && u.end === w.end)) return 'not an unavailable window of the volunteer';
    return overlapping(w, p.s) ? undefined : 'the window does not overlap the shift';
  },
};

const DETAIL_CHECKS: Record<string, DetailCheck> = {
  no_group_members: (_d, p) => (p.members.length > 0 ? `the group has ${p.members.length}` : undefined),
  group_too_small: (d, p) =>
    p.out.length > 0 ? `${p.out.length} members are not in the shift` : d.count !== p.members.length ? `count ${d.count} != ${p.members.length}` : undefined,
  other_group: (d, p, { facts, schedule }) => {
    const v = facts.vById.get(d.volunteer_id);
    const a = v && assignmentOf(schedule, v, p.s);
    if (!v?.groups.includes(p.g)) return 'not a member of the group';
    if (!a || a.group === p.g) return 'not in the shift for another group';
    return d.filling_group === a.group ? undefined : `fills ${a.group}, not ${d.filling_group}`;
  },
  summary: (d) => {
    const bad = Object.keys(d.counts ?? {}).filter((k) => !RULE_CODES.has(k));
    return bad.length > 0 ? `counts keys ${bad.join(', ')} are not rule codes` : undefined;
  },
  time_limit: (_d, _p, { options }) => (options.allowIncomplete ? undefined : 'time_limit detail in a completed solve'),
  ...Object.fromEntries(
    Object.entries(VOLUNTEER_DETAILS).map(([code, check]): [string, DetailCheck] => [
      code,
      (d, p, ctx) => {
        const v = ctx.facts.vById.get(d.volunteer_id);
        if (!v?.groups.includes(p.g)) return 'not a member of the group';
        if (!p.out.includes(v)) return 'already in the shift';
        return check(d, v, p, ctx);
      },
    ]),
  ),
};

const detailFalse = (d: Json, p: Short, ctx: ConflictContext): string | undefined => DETAIL_CHECKS[d.code]!(d, p, ctx);

// ---------------------------------------------------------------------------------------------
// Suggestions: each applied to the request and the schedule (the volunteer added to the short
// shift in its group, the change made, a hand-over where given) must break no rule, fill a slot
// of the pair, and leave every other slot filled.

/** The volunteer as the suggestion would make them, or why the suggestion is no such change. */
type Relax = (sug: Json, v: Volunteer, p: Short, facts: RequestFacts) => Volunteer | string;

const RELAXATIONS: Record<string, Relax> = {
  raise_max_hours: (sug, v) =>
    Number.isFinite(v.cap) && sug.max_hours > v.cap ? { ...v, maxHours: sug.max_hours, cap: sug.max_hours === 999 ? Infinity : sug.max_hours } : 'not a raise',
  remove_lock: (sug, v, _p, facts) => (facts.locks.some((l) => l.v === v && l.s.id === sug.shift_id) ? v : `${v.id} is not locked into ${sug.shift_id}`),
  reduce_rest: (sug, v) => (sug.min_rest_hours < v.restHours ? { ...v, restHours: sug.min_rest_hours } : 'not a reduction'),
  raise_max_shifts_per_day: (sug, v) =>
    v.maxPerDay !== undefined && sug.max_shifts_per_day > v.maxPerDay ? { ...v, maxPerDay: sug.max_shifts_per_day } : 'not a raise',
  add_group: (sug, v, p) =>
    sug.group !== p.g ? `group ${sug.group} is not ${p.g}` : v.groups.includes(p.g) ? 'already in the group' : { ...v, groups: [...v.groups, p.g] },
  extend_availability: (sug, v) => {
    if (!sug.window) return 'no window';
    const w = span(sug.window);
    const cut = (u: Span): Span[] => [
      { start: u.start, end: Math.min(u.end, w.start) },
      { start: Math.max(u.start, w.end), end: u.end },
    ];
    return {
      ...v,
      available: v.available && union([...v.available, w]),
      unavailable: v.unavailable.flatMap((u) => (overlapping(u, w) ? cut(u).filter((x) => x.start < x.end) : [u])),
    };
  },
};

/**
 * rename_group: the conflict's group has no members; asking for sug.group (which some volunteers
 * have) instead, at least sug.filled of them could each take the slot as things stand.
 */
function renameGroupFalse(sug: Json, p: Short, ctx: ConflictContext): string | undefined {
  const missing = p.required - p.assigned;
  if (p.members.length > 0) return 'the group has members';
  if (!Number.isInteger(sug.filled) || sug.filled < 1 || sug.filled > missing) return `filled ${sug.filled} is not 1 to ${missing}`;
  const free = [...ctx.facts.vById.values()].filter(
    (v) =>
      v.groups.includes(sug.group) &&
      !assignmentOf(ctx.schedule, v, p.s) &&
      applied({ code: 'add_group' }, { ...v, groups: [...v.groups, p.g] }, p, ctx) === undefined,
  );
  return free.length >= sug.filled ? undefined : `only ${free.length} members of ${sug.group} are free, not ${sug.filled}`;
}

function suggestionFalse(sug: Json, p: Short, ctx: ConflictContext): string | undefined {
  if (sug.code === 'rename_group') return renameGroupFalse(sug, p, ctx);
  if (sug.code === 'add_volunteers') {
    const missing = p.required - p.assigned;
    return sug.group === p.g && sug.count === missing && sug.filled === missing ? undefined : `should be ${missing} of group ${p.g}`;
  }
  const relax = Object.hasOwn(RELAXATIONS, sug.code) ? RELAXATIONS[sug.code] : undefined;
  const v = ctx.facts.vById.get(sug.volunteer_id);
  if (!relax || !v) return 'unknown code or volunteer';
  const changed = relax(sug, v, p, ctx.facts);
  if (typeof changed === 'string') return changed;
  if (sug.filled !== 1) return `filled ${sug.filled}, but one volunteer fills one slot`;
  return applied(sug, changed, p, ctx);
}

/**
 * The schedule with the suggestion applied, checked where it changed: the shifts the volunteer
 * joins or leaves (their locks regrouped), the volunteer and the hand-over's taker.
 */
function applied(sug: Json, v: Volunteer, p: Short, { facts, schedule }: ConflictContext): string | undefined {
  const leaves = new Set<string>([sug.code === 'remove_lock' ? sug.shift_id : undefined, sug.hand_over?.shift_id].filter((x) => x !== undefined));
  const taker = sug.hand_over && facts.vById.get(sug.hand_over.volunteer_id);
  const handed = sug.hand_over && facts.sById.get(sug.hand_over.shift_id);
  if (sug.hand_over && (!taker || !handed || taker === v || !assignmentOf(schedule, v, handed))) return 'the hand-over names the wrong shift or volunteer';
  const locks = facts.locks.filter((l) => !(l.v.id === v.id && leaves.has(l.s.id)));
  const lockGroup = lockGroups(locks, (x) => (x.id === v.id ? v.groups : x.groups));
  const touched = new Set<Shift>([p.s, ...[...leaves].map((id) => facts.sById.get(id)!), ...facts.locks.filter((l) => l.v.id === v.id).map((l) => l.s)]);
  const after = new Map<Shift, Assignment[]>();
  for (const s of touched) {
    const list = schedule.byShift.get(s.id)!.flatMap((a): Assignment[] => {
      if (a.v.id !== v.id) return [a.locked ? { ...a, group: lockGroup.get(pairKey(a.v.id, s.id))! } : a];
      if (leaves.has(s.id)) return [];
      return [{ ...a, v, group: a.locked ? lockGroup.get(pairKey(v.id, s.id))! : a.group }];
    });
    if (s === handed) list.push({ v: taker, s, group: takerGroup(taker, s, assignmentOf(schedule, v, s)!.group), locked: false });
    if (s === p.s) list.push({ v, s, group: p.g, locked: false });
    after.set(s, list);
  }
  const mineAfter = (x: Volunteer): Assignment[] => [
    ...schedule.byVolunteer.get(x.id)!.filter((a) => !touched.has(a.s)),
    ...[...after.values()].flatMap((list) => list.filter((a) => a.v.id === x.id)),
  ];
  const people = [facts.vById.get(v.id)!, taker].filter((x) => x !== undefined);
  const before = new Set(
    breaks(
      [...touched].map((s) => [s, schedule.byShift.get(s.id)!]),
      people.map((x) => [x, schedule.byVolunteer.get(x.id)!]),
    ),
  );
  // Only what the change breaks counts: a break the schedule already has is reported as itself.
  const broken = breaks(
    [...after],
    people.map((x) => (x.id === v.id ? [v, mineAfter(v)] : [x, mineAfter(x)])),
  ).filter((m) => !before.has(m));
  if (broken.length > 0) return `applied, it breaks a rule: ${broken[0]}`;
  for (const [s, list] of after) {
    for (const [g, required] of Object.entries(s.required)) {
      const was = Math.min(required, countIn(schedule.byShift.get(s.id)!, g));
      const now = Math.min(required, countIn(list, g));
      if (s === p.s && g === p.g ? now <= was : now < was) return `applied, ${s.id}/${g} has ${now} filled, ${was} before`;
    }
  }
  return undefined;
}

/** The messages of the rules the shifts and the volunteers break. */
function breaks(shifts: Array<[Shift, readonly Assignment[]]>, people: Array<[Volunteer, readonly Assignment[]]>): string[] {
  const out: string[] = [];
  const note: Fail = (_code, _names, message) => out.push(message);
  for (const [s, list] of shifts) shiftRules(s, list, note);
  for (const [v, mine] of people) volunteerRules(v, mine, note);
  return out;
}

/** The group a hand-over's taker fills: the one the volunteer leaves, else the taker's first that the shift requires. */
const takerGroup = (taker: Volunteer, s: Shift, left: string | null): string | null =>
  left !== null && taker.groups.includes(left) ? left : (taker.groups.find((g) => (s.required[g] ?? 0) > 0) ?? null);

// ---------------------------------------------------------------------------------------------

/**
 * Lock-break warnings: for each rule, at least as many warnings of its code as there are breaks
 * (entries_truncated naming the code stands for any number more).
 */
function checkLockWarnings(facts: RequestFacts, result: Json, fail: Fail): void {
  const warnings = result.warnings as Json[];
  const expect = (code: string, breaks: Array<{ names: Names; what: string }>): void => {
    const truncated = warnings.some((w) => w.code === 'entries_truncated' && String(w.message).includes(`'${code}'`));
    const listed = truncated ? Infinity : warnings.filter((w) => w.code === code).length;
    for (const b of breaks.slice(listed)) fail('lock_warning_missing', b.names, `${b.what}, no ${code} warning`);
  };
  const lockGroup = lockGroups(facts.locks);
  expect(
    'lock_group_not_required',
    facts.locks
      .filter((l) => lockGroup.get(pairKey(l.v.id, l.s.id)) === null)
      .map((l) => ({ names: { volunteer: l.v.id, shift: l.s.id }, what: `lock ${l.v.id}->${l.s.id}: no group of theirs required` })),
  );
  expect(
    'lock_unavailable',
    facts.locks
      .filter((l) => excluded(l.v, l.s))
      .map((l) => ({ names: { volunteer: l.v.id, shift: l.s.id }, what: `lock ${l.v.id}->${l.s.id}: unavailable then` })),
  );
  const hours: Array<{ names: Names; what: string }> = [];
  const overlaps: typeof hours = [];
  const rests: typeof hours = [];
  const days: typeof hours = [];
  for (const v of facts.volunteers) {
    const mine = facts.locks.filter((l) => l.v === v);
    if (mine.reduce((t, l) => t + l.s.hours, 0) > v.cap + EPS) hours.push({ names: { volunteer: v.id }, what: `${v.id} locked over max_hours` });
    mine.forEach(({ s: b }, j) => {
      const earlier = mine.slice(0, j).map((l) => l.s);
      for (const a of earlier.filter((a) => overlapping(a, b)))
        overlaps.push({ names: { volunteer: v.id, shift: a.id, other: b.id }, what: `${v.id} locked into overlapping shifts` });
      const close = earlier.find((a) => !overlapping(a, b) && tooClose(v, a, b));
      if (close) rests.push({ names: { volunteer: v.id, shift: b.id, other: close.id }, what: `${v.id} locked into shifts closer than their rest` });
      const sameDay = earlier.filter((a) => a.day === b.day).length;
      if (v.maxPerDay !== undefined && sameDay >= v.maxPerDay)
        days.push({ names: { volunteer: v.id, shift: b.id }, what: `${v.id} locked into over ${v.maxPerDay} shifts on ${b.day}` });
    });
  }
  expect('lock_max_hours_exceeded', hours);
  expect('lock_overlap', overlaps);
  expect('lock_rest', rests);
  expect('lock_max_shifts_per_day', days);
}
