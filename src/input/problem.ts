// The normalized scheduling problem: what both the JSON and the CSV inputs become, and the only
// input the engine sees. Times are epoch milliseconds, caps are numbers (Infinity for 999),
// and everything keeps its request order, which the engine uses as its final tie-break.
import type { ScheduleRequest } from '../types/schema-types.js';
import { parseUtcDateTime } from './utc-datetime.js';

/** max_hours of exactly this value means unlimited. */
export const UNLIMITED_HOURS = 999;
/** The largest max_hours accepted (the schema's maximum): past it, 999 says "unlimited". */
export const MAX_HOURS = 100_000;
/** The largest headcount one shift may ask of one group (the schema's maximum). */
export const MAX_HEADCOUNT = 100_000;

export interface Volunteer {
  index: number;
  id: string;
  /** Display name; the id where the request gave none. */
  name: string;
  group: string;
  /** max_hours as given (999 kept as 999). */
  maxHours: number;
  /** The cap the engine enforces: Infinity for 999. */
  capHours: number;
}

export interface Shift {
  index: number;
  id: string;
  start: number;
  end: number;
  hours: number;
  /** Group to headcount, in the request's key order; headcounts of 0 included. */
  required: ReadonlyMap<string, number>;
}

export interface Lock {
  shift: number;
  volunteer: number;
  /** Index in current_assignments of the first listing of the pair. */
  requestIndex: number;
}

export interface Problem {
  volunteers: Volunteer[];
  shifts: Shift[];
  /** Distinct locked pairs, in request order. */
  locks: Lock[];
  /** Indexes in current_assignments of pairs listed again (kept once). */
  duplicateLocks: Array<{ requestIndex: number; firstIndex: number }>;
}

export const MS_PER_HOUR = 3_600_000;

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
  const volunteers: Volunteer[] = request.volunteers.map((v, index) => ({
    index,
    id: v.id,
    name: typeof v.name === 'string' && v.name.trim() !== '' ? v.name : v.id,
    group: v.group,
    maxHours: v.max_hours,
    capHours: v.max_hours === UNLIMITED_HOURS ? Infinity : v.max_hours,
  }));
  const shifts: Shift[] = request.unassigned_shifts.map((s, index) => {
    const start = parseUtcDateTime('start', s.start);
    const end = parseUtcDateTime('end', s.end);
    if (!start.ok || !end.ok) throw new Error(`shift ${index} has an invalid start or end; validate first`);
    return {
      index,
      id: s.id,
      start: start.ms,
      end: end.ms,
      hours: (end.ms - start.ms) / MS_PER_HOUR,
      required: new Map(Object.entries(s.required_groups)),
    };
  });
  return { volunteers, shifts, ...resolveLocks(request, volunteers, shifts) };
}

function resolveLocks(request: ScheduleRequest, volunteers: Volunteer[], shifts: Shift[]): Pick<Problem, 'locks' | 'duplicateLocks'> {
  const shiftById = new Map(shifts.map((s) => [s.id, s.index]));
  const volunteerById = new Map(volunteers.map((v) => [v.id, v.index]));
  const firstIndex = new Map<string, number>();
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
    locks.push({ shift, volunteer, requestIndex });
  });
  return { locks, duplicateLocks };
}
