// The normalized scheduling problem: what both the JSON and the CSV inputs become, and the only
// input the engine sees. Times are epoch milliseconds, caps are numbers (Infinity for 999),
// and everything keeps its request order, which the engine uses as its final tie-break.
import type { ScheduleRequest } from '../types/schema-types.js';
import { parseDateTime } from './utc-datetime.js';
import { ZoneClock } from './zone-clock.js';

/** max_hours of exactly this value means unlimited. */
export const UNLIMITED_HOURS = 999;
/** The largest max_hours accepted (the schema's maximum): past it, 999 says "unlimited". */
export const MAX_HOURS = 100_000;
/** The largest headcount one shift may ask of one group (the schema's maximum). */
export const MAX_HEADCOUNT = 100_000;

/** A time window in epoch milliseconds, half-open: [start, end). */
export interface TimeWindow {
  start: number;
  end: number;
}

export interface Volunteer {
  index: number;
  id: string;
  /** Display name; the id where the request gave none. */
  name: string;
  /** The volunteer's own group. */
  group: string;
  /** Every group the volunteer can fill: `group` first, then additional_groups (duplicates of `group` dropped). */
  groups: readonly string[];
  /** max_hours as given (999 kept as 999). */
  maxHours: number;
  /** The cap the engine enforces: Infinity for 999. */
  capHours: number;
  /** The union of the available windows, merged and sorted; null when the volunteer gave none (always available). */
  available: readonly TimeWindow[] | null;
  /** Unavailable windows as given, sorted by start (not merged, so explanations can quote each). */
  unavailable: readonly TimeWindow[];
  /** Least rest between two of the volunteer's shifts, in hours (0: only overlaps conflict). */
  restHours: number;
  /** Most shifts starting on one calendar day of the rules' time zone; Infinity for no limit. */
  maxShiftsPerDay: number;
  /** preferred_shifts as shift request indexes, ascending, each once (unknown ids dropped). */
  preferred: readonly number[];
  /** avoid_shifts, the same way. */
  avoided: readonly number[];
  /** min_hours: a target, never a rule (0 when absent). */
  minHours: number;
}

export interface Shift {
  index: number;
  id: string;
  start: number;
  end: number;
  hours: number;
  /** Group to headcount, in the request's key order; headcounts of 0 included. */
  required: ReadonlyMap<string, number>;
  /** 1 (default) to 5: coverage is maximized class by class, highest first. */
  priority: number;
  /** The calendar day the shift starts on, in the rules' time zone, as days since 1970-01-01. */
  day: number;
}

export interface Lock {
  shift: number;
  volunteer: number;
  /**
   * The group whose slot the lock fills: of the volunteer's groups the shift requires, the first
   * (in the volunteer's order) that still has room after the locks listed before; the first one
   * required when none has room; null when the shift requires none of them.
   */
  group: string | null;
  /** Index in current_assignments of the first listing of the pair. */
  requestIndex: number;
}

/** A previous assignment (previous_assignments): kept unless dropping it fills more (objective level 3). */
export interface PreviousAssignment {
  /** Index in previous_assignments of the first listing of the pair. */
  requestIndex: number;
  shiftId: string;
  volunteerId: string;
  /** Request indexes; null when the request no longer has the id (the assignment is dropped). */
  shift: number | null;
  volunteer: number | null;
  /** The group given, if any: the assignment is then kept only in that group's slot. */
  group: string | null;
}

export interface Rules {
  /** rules.min_rest_hours (default 0). */
  minRestHours: number;
  /** rules.max_shifts_per_day (Infinity when absent). */
  maxShiftsPerDay: number;
  /** The IANA zone whose calendar days max_shifts_per_day counts (default: the request's timezone, else UTC). */
  timezone: string;
}

export interface Problem {
  volunteers: Volunteer[];
  shifts: Shift[];
  /** Distinct locked pairs, in request order. */
  locks: Lock[];
  /** Indexes in current_assignments of pairs listed again (kept once). */
  duplicateLocks: Array<{ requestIndex: number; firstIndex: number }>;
  /**
   * Distinct previous pairs (volunteer, shift), in request order; undefined when the request has
   * no previous_assignments (the result then has no `changes`).
   */
  previous?: PreviousAssignment[];
  /** Indexes in previous_assignments of pairs listed again (kept once). */
  duplicatePrevious?: Array<{ requestIndex: number; firstIndex: number }>;
  rules: Rules;
  /**
   * The IANA zone sentences and warnings write times in: the request's timezone, else
   * rules.timezone, else UTC (for CSV, the upload's timezone field).
   */
  zone: string;
}

export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;
export const DEFAULT_PRIORITY = 1;

/**
 * The calendar day of an instant in `zone` (a name, or a ZoneClock that serves a whole request),
 * as days since 1970-01-01: the UTC day of the instant moved by the zone's offset then.
 */
export function calendarDay(ms: number, zone: string | ZoneClock): number {
  const clock = typeof zone === 'string' ? new ZoneClock(zone) : zone;
  return Math.floor((ms + clock.offset(ms) * 60_000) / MS_PER_DAY);
}

/** A calendar day (days since 1970-01-01) as YYYY-MM-DD. */
export function dayLabel(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Windows sorted by start with overlapping or touching ones joined: their union. */
export function mergeWindows(windows: readonly TimeWindow[]): TimeWindow[] {
  const sorted = [...windows].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: TimeWindow[] = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    if (last && w.start <= last.end) last.end = Math.max(last.end, w.end);
    else out.push({ start: w.start, end: w.end });
  }
  return out;
}

/** Two windows overlap when each starts before the other ends; touching (end == start) is fine. */
export function overlaps(a: Pick<Shift, 'start' | 'end'>, b: Pick<Shift, 'start' | 'end'>): boolean {
  return a.start < b.end && b.start < a.end;
}

export function displayName(v: Pick<Volunteer, 'id' | 'name'>): string {
  return v.name === v.id ? v.id : `${v.name} (${v.id})`;
}

/**
 * Builds the problem from a request that passed validation (validateScheduleRequest): it
 * throws on input that validation would have rejected.
 */
export function normalizeRequest(request: ScheduleRequest): Problem {
  const rules: Rules = {
    minRestHours: request.rules?.min_rest_hours ?? 0,
    maxShiftsPerDay: request.rules?.max_shifts_per_day ?? Infinity,
    timezone: request.rules?.timezone ?? request.timezone ?? 'UTC',
  };
  // Times without Z or an offset are read in the request's timezone (validation saw to it that there is one).
  const reading = request.timezone === undefined ? undefined : new ZoneClock(request.timezone);
  const window = (w: { start: string; end: string }, what: string): TimeWindow => readWindow(w, what, reading);
  const shiftIndex = new Map(request.unassigned_shifts.map((s, i) => [s.id, i]));
  const volunteers: Volunteer[] = request.volunteers.map((v, index) => ({
    index,
    id: v.id,
    name: typeof v.name === 'string' && v.name.trim() !== '' ? v.name : v.id,
    group: v.group,
    groups: [...new Set([v.group, ...(v.additional_groups ?? [])])],
    maxHours: v.max_hours,
    capHours: v.max_hours === UNLIMITED_HOURS ? Infinity : v.max_hours,
    available: v.available ? mergeWindows(v.available.map((w, i) => window(w, `volunteer ${index} available ${i}`))) : null,
    unavailable: (v.unavailable ?? []).map((w, i) => window(w, `volunteer ${index} unavailable ${i}`)).sort((a, b) => a.start - b.start || a.end - b.end),
    restHours: v.min_rest_hours ?? rules.minRestHours,
    maxShiftsPerDay: v.max_shifts_per_day ?? rules.maxShiftsPerDay,
    preferred: shiftIndexes(v.preferred_shifts, shiftIndex),
    avoided: shiftIndexes(v.avoid_shifts, shiftIndex),
    minHours: v.min_hours ?? 0,
  }));
  const clock = new ZoneClock(rules.timezone);
  const shifts: Shift[] = request.unassigned_shifts.map((s, index) => {
    const { start, end } = window(s, `shift ${index}`);
    return {
      index,
      id: s.id,
      start,
      end,
      hours: (end - start) / MS_PER_HOUR,
      required: new Map(Object.entries(s.required_groups)),
      priority: s.priority ?? DEFAULT_PRIORITY,
      day: calendarDay(start, clock),
    };
  });
  const zone = request.timezone ?? request.rules?.timezone ?? 'UTC';
  return { volunteers, shifts, ...resolveLocks(request, volunteers, shifts), ...resolvePrevious(request, volunteers, shifts), rules, zone };
}

/** previous_assignments as distinct pairs; an unknown id is kept (as null) so the result can say it was dropped. */
function resolvePrevious(request: ScheduleRequest, volunteers: Volunteer[], shifts: Shift[]): Pick<Problem, 'previous' | 'duplicatePrevious'> {
  if (request.previous_assignments === undefined) return {};
  const shiftById = new Map(shifts.map((s) => [s.id, s.index]));
  const volunteerById = new Map(volunteers.map((v) => [v.id, v.index]));
  const firstIndex = new Map<string, number>();
  const previous: PreviousAssignment[] = [];
  const duplicatePrevious: NonNullable<Problem['duplicatePrevious']> = [];
  request.previous_assignments.forEach((a, requestIndex) => {
    const key = JSON.stringify([a.shift_id, a.volunteer_id]);
    const first = firstIndex.get(key);
    if (first !== undefined) {
      duplicatePrevious.push({ requestIndex, firstIndex: first });
      return;
    }
    firstIndex.set(key, requestIndex);
    previous.push({
      requestIndex,
      shiftId: a.shift_id,
      volunteerId: a.volunteer_id,
      shift: shiftById.get(a.shift_id) ?? null,
      volunteer: volunteerById.get(a.volunteer_id) ?? null,
      group: a.group ?? null,
    });
  });
  return { previous, duplicatePrevious };
}

/** Shift ids as request indexes, ascending and each once; an id no shift has is dropped (validation warned). */
function shiftIndexes(ids: readonly string[] | undefined, shiftIndex: ReadonlyMap<string, number>): number[] {
  if (!ids || ids.length === 0) return [];
  const out = new Set<number>();
  for (const id of ids) {
    const i = shiftIndex.get(id);
    if (i !== undefined) out.add(i);
  }
  return [...out].sort((a, b) => a - b);
}

function readWindow(w: { start: string; end: string }, what: string, clock: ZoneClock | undefined): TimeWindow {
  const start = parseDateTime('start', w.start, clock);
  const end = parseDateTime('end', w.end, clock);
  if (!start.ok || !end.ok) throw new Error(`${what} has an invalid start or end; validate first`);
  return { start: start.ms, end: end.ms };
}

function resolveLocks(request: ScheduleRequest, volunteers: Volunteer[], shifts: Shift[]): Pick<Problem, 'locks' | 'duplicateLocks'> {
  const shiftById = new Map(shifts.map((s) => [s.id, s.index]));
  const volunteerById = new Map(volunteers.map((v) => [v.id, v.index]));
  const firstIndex = new Map<string, number>();
  const lockedInto = new Map<string, number>();
  const locks: Lock[] = [];
  const duplicateLocks: Problem['duplicateLocks'] = [];
  (request.current_assignments ?? []).forEach((a, requestIndex) => {
    const shift = shiftById.get(a.shift_id);
    const volunteer = volunteerById.get(a.volunteer_id);
    if (shift === undefined || volunteer === undefined) throw new Error(`current assignment ${requestIndex} names an unknown id; validate first`);
    const key = `${shift}:${volunteer}`;
    const first = firstIndex.get(key);
    if (first !== undefined) {
      duplicateLocks.push({ requestIndex, firstIndex: first });
      return;
    }
    firstIndex.set(key, requestIndex);
    const group = lockGroup(volunteers[volunteer]!, shifts[shift]!, lockedInto);
    if (group !== null) lockedInto.set(`${shift}\u0000${group}`, (lockedInto.get(`${shift}\u0000${group}`) ?? 0) + 1);
    locks.push({ shift, volunteer, group, requestIndex });
  });
  return { locks, duplicateLocks };
}

/** See Lock.group. `lockedInto` counts the locks placed so far per (shift, group). */
function lockGroup(v: Volunteer, s: Shift, lockedInto: ReadonlyMap<string, number>): string | null {
  const required = v.groups.filter((g) => (s.required.get(g) ?? 0) > 0);
  return required.find((g) => (lockedInto.get(`${s.index}\u0000${g}`) ?? 0) < s.required.get(g)!) ?? required[0] ?? null;
}
