// The *render* step for people (CONTRACT.md section 13): the result's roster as a spreadsheet
// opens it (CSV: UTF-8 with BOM, CRLF, times written as the CSV input reads them, in the
// request's zone) and as an RFC 5545 calendar (one VEVENT per assignment, times in UTC). Both
// come from the result's `roster` and `conflicts` and from the prepared problem (names and the
// times of shifts nobody fills); the JSON rendering stays in schedule-service.ts.
import { stringify } from 'csv-stringify/sync';
import ical from 'ical-generator';
import type { Problem } from '../input/problem.js';
import { ZoneClock } from '../input/zone-clock.js';
import type { ScheduleResult } from '../types/schema-types.js';

/** What the exports read of a result: the roster, the empty slots and, when re-planning, the changes. */
export type RenderedResult = Pick<ScheduleResult, 'roster' | 'conflicts' | 'changes'>;

export interface ExportOptions {
  /** The IANA zone Start and End are written in (CSV). */
  zone: string;
  /** Only this volunteer's assignments (and no empty slots). */
  volunteerId?: string;
}

export const CSV_HEADER = ['Shift ID', 'Start', 'End', 'Group', 'Volunteer ID', 'Volunteer Name', 'Locked'] as const;
export const UNFILLED = 'UNFILLED';
/** With previous_assignments, two more columns mark what re-planning changed (CONTRACT.md section 14). */
export const CHANGE_COLUMNS = ['Change', 'Change Reason'] as const;

/** A cell a spreadsheet would read as a formula gets a leading apostrophe (OWASP "CSV injection"). */
export function neutralizeCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** An instant as the CSV input format reads it, `M/D/YYYY h:mm AM`, in the clock's zone. */
export function csvDateTime(ms: number, clock: ZoneClock): string {
  const local = new Date(ms + clock.offset(ms) * 60_000);
  const hour = local.getUTCHours();
  const minute = String(local.getUTCMinutes()).padStart(2, '0');
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${local.getUTCMonth() + 1}/${local.getUTCDate()}/${local.getUTCFullYear()} ${h12}:${minute} ${hour < 12 ? 'AM' : 'PM'}`;
}

/**
 * The roster as CSV: one row per assignment (roster order), then one per empty slot. When the
 * request re-planned a published schedule (the result has `changes`), the columns Change and
 * Change Reason mark each assignment `added` (new: tell the volunteer) or `kept` (a previous
 * assignment kept; blank for a lock that was not one), and a row per previous assignment
 * dropped (`dropped`, with why) follows the assignments, so the file says whom to tell.
 */
export function renderRosterCsv(result: RenderedResult, problem: Problem, options: ExportOptions): string {
  const clock = new ZoneClock(options.zone);
  const names = new Map(problem.volunteers.map((v) => [v.id, v.name]));
  const shifts = new Map(problem.shifts.map((s) => [s.id, s]));
  const { changes } = result;
  const pair = (shiftId: string, volunteerId: string): string => `${shiftId}\u0000${volunteerId}`;
  const added = new Set((changes?.added ?? []).map((a) => pair(a.shift_id, a.volunteer_id)));
  const previous = new Map((problem.previous ?? []).map((a) => [pair(a.shiftId, a.volunteerId), a.group ?? '']));
  const change = (shiftId: string, volunteerId: string): string[] => {
    if (!changes) return [];
    const key = pair(shiftId, volunteerId);
    return [added.has(key) ? 'added' : previous.has(key) ? 'kept' : '', ''];
  };
  const mine = (volunteerId: string): boolean => options.volunteerId === undefined || volunteerId === options.volunteerId;
  const when = (shiftId: string): [string, string] => {
    const shift = shifts.get(shiftId);
    return shift ? [csvDateTime(shift.start, clock), csvDateTime(shift.end, clock)] : ['', ''];
  };
  const rows: string[][] = [];
  for (const entry of result.roster) {
    if (!mine(entry.volunteer_id)) continue;
    rows.push([
      entry.shift_id,
      csvDateTime(Date.parse(entry.start), clock),
      csvDateTime(Date.parse(entry.end), clock),
      entry.group ?? '',
      entry.volunteer_id,
      names.get(entry.volunteer_id) ?? '',
      entry.locked ? 'yes' : 'no',
      ...change(entry.shift_id, entry.volunteer_id),
    ]);
  }
  for (const d of changes?.dropped ?? []) {
    if (!mine(d.volunteer_id)) continue;
    const group = previous.get(pair(d.shift_id, d.volunteer_id)) ?? '';
    rows.push([d.shift_id, ...when(d.shift_id), group, d.volunteer_id, names.get(d.volunteer_id) ?? '', 'no', 'dropped', d.message]);
  }
  if (options.volunteerId === undefined) {
    for (const conflict of result.conflicts) {
      const [start, end] = when(conflict.shift_id);
      for (let slot = 0; slot < conflict.missing; slot++)
        rows.push([conflict.shift_id, start, end, conflict.group, '', UNFILLED, 'no', ...(changes ? ['', ''] : [])]);
    }
  }
  const header = changes ? [...CSV_HEADER, ...CHANGE_COLUMNS] : [...CSV_HEADER];
  return stringify([header, ...rows.map((row) => row.map(neutralizeCell))], { bom: true, record_delimiter: 'windows' });
}

/** The UID of an assignment's event: the same shift and volunteer always give the same UID. */
export function eventUid(shiftId: string, volunteerId: string): string {
  return `${encodeURIComponent(shiftId)}.${encodeURIComponent(volunteerId)}@volunteer-scheduler`;
}

/** The roster as an iCalendar file: one VEVENT per assignment, DTSTART and DTEND in UTC. */
export function renderRosterCalendar(result: RenderedResult, problem: Problem, options: Pick<ExportOptions, 'volunteerId'>): string {
  const names = new Map(problem.volunteers.map((v) => [v.id, v.name]));
  const name = options.volunteerId === undefined ? 'Volunteer roster' : `Volunteer roster: ${names.get(options.volunteerId) ?? options.volunteerId}`;
  const calendar = ical({ name, prodId: { company: 'volunteer-scheduler', product: 'roster', language: 'EN' } });
  for (const entry of result.roster) {
    if (options.volunteerId !== undefined && entry.volunteer_id !== options.volunteerId) continue;
    const person = names.get(entry.volunteer_id) ?? entry.volunteer_id;
    const what = entry.group === null ? entry.shift_id : `${entry.group}: ${entry.shift_id}`;
    calendar.createEvent({
      id: eventUid(entry.shift_id, entry.volunteer_id),
      start: new Date(entry.start),
      end: new Date(entry.end),
      summary: `${what} (${person})`,
      description: `${person} (${entry.volunteer_id}) ${entry.group === null ? 'is locked into' : `fills a ${entry.group} slot of`} shift ${entry.shift_id}${entry.locked ? ' (locked assignment)' : ''}.`,
    });
  }
  return calendar.toString();
}
