// Wall-clock times as spreadsheets write them, MM/DD/YYYY hh:mm AM|PM, read in an IANA time zone
// (daylight saving time included), and time windows built of them: "6/6/2026 8:00 AM - 6/6/2026
// 5:00 PM", or "6/6/2026 10:00 PM - 2:00 AM" within a day, where an end time before the start
// time means the next day. Each reader returns the UTC instant or a message that says what form
// is expected, with an example.
import { clip } from './entry-caps.js';
import { ZoneClock } from './zone-clock.js';

const TIME = /^(\d{1,2}):(\d{2})\s*([AaPp])\.?[Mm]\.?$/;
const DATE_TIME = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}:\d{2}\s*[AaPp]\.?[Mm]\.?)$/;

const quote = (s: string): string => `'${clip(s)}'`;

/** A date and time of day as written, before any time zone. */
interface Wall {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  /** 0 to 23. */
  hour: number;
  minute: number;
}

type Read<T> = T | { error: string };
const failed = <T extends object>(r: Read<T>): r is { error: string } => 'error' in r;

/** hh:mm AM|PM, already matched by TIME, as hours (0-23) and minutes; `base` starts the message. */
function timeOfDay(m: RegExpExecArray, base: string): Read<{ hour: number; minute: number }> {
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  if (hour < 1 || hour > 12) return { error: `${base}: the hour must be 1 to 12 with AM or PM.` };
  if (minute > 59) return { error: `${base}: minutes go up to 59.` };
  return { hour: (hour % 12) + (m[3]!.toLowerCase() === 'p' ? 12 : 0), minute };
}

/** MM/DD/YYYY hh:mm AM|PM as written (no time zone yet). */
function readWall(column: string, value: string): Read<Wall> {
  const base = `${column} ${quote(value)} is not MM/DD/YYYY hh:mm AM|PM`;
  if (value === '') return { error: `${column} is blank; write a date and time such as 6/6/2026 8:00 AM.` };
  const m = DATE_TIME.exec(value);
  if (!m) return { error: `${base}, such as 6/6/2026 8:00 AM.` };
  const [month, day, year] = [m[1], m[2], m[3]].map(Number) as [number, number, number];
  if (month < 1 || month > 12) return { error: `${base}: month ${month} does not exist${day <= 12 ? '' : ' (is the day written first?)'}.` };
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) return { error: `${base}: ${year}-${String(month).padStart(2, '0')} has ${days} days.` };
  const time = timeOfDay(TIME.exec(m[4]!)!, base);
  if (failed(time)) return time;
  return { year, month, day, ...time };
}

/** The instant a wall-clock time names in the clock's zone, or why there is none (the hour the clocks skip). */
function instant(column: string, value: string, wall: Wall, clock: ZoneClock): Read<{ ms: number }> {
  const ms = clock.instant(wall.year, wall.month, wall.day, wall.hour, wall.minute);
  if (ms === undefined) return { error: `${column} ${quote(value)} does not exist in ${clock.zone}: the clocks skip that hour (daylight saving time).` };
  return { ms };
}

const clockOf = (zone: string | ZoneClock): ZoneClock => (typeof zone === 'string' ? new ZoneClock(zone) : zone);

/**
 * Reads MM/DD/YYYY hh:mm AM|PM as a wall-clock time in `zone` (a name, or the request's
 * ZoneClock, which remembers the offsets it has looked up); the UTC instant, or an error message.
 */
export function readWallClock(column: string, value: string, zone: string | ZoneClock): Read<{ ms: number }> {
  const wall = readWall(column, value);
  return failed(wall) ? wall : instant(column, value, wall, clockOf(zone));
}

/** A window as UTC instants, [start, end). */
export interface MsWindow {
  start: number;
  end: number;
}

const WINDOW_EXAMPLE = '6/6/2026 8:00 AM - 6/6/2026 5:00 PM, or 6/6/2026 8:00 AM - 5:00 PM within a day';

/** Reads one window, "start - end", the end a full date-time or a time of day. */
function readWindow(column: string, text: string, clock: ZoneClock): Read<MsWindow> {
  const dash = text.indexOf('-');
  if (dash < 0 || dash !== text.lastIndexOf('-')) {
    return { error: `${column} window ${quote(text)} is not start - end; write it as ${WINDOW_EXAMPLE}.` };
  }
  const startText = text.slice(0, dash).trim();
  const endText = text.slice(dash + 1).trim();
  const wall = readWall(`${column} window start`, startText);
  if (failed(wall)) return wall;
  const start = instant(`${column} window start`, startText, wall, clock);
  if (endText === '') return { error: `${column} window ${quote(text)} has no end; write it as ${WINDOW_EXAMPLE}.` };
  const timeOnly = TIME.exec(endText);
  if (!timeOnly) {
    if (!DATE_TIME.test(endText)) {
      return {
        error: `${column} window end ${quote(endText)} is not MM/DD/YYYY hh:mm AM|PM nor hh:mm AM|PM; write the window as ${WINDOW_EXAMPLE}.`,
      };
    }
    const end = readWallClock(`${column} window end`, endText, clock);
    if (failed(start)) return start;
    if (failed(end)) return end;
    if (end.ms <= start.ms) {
      return {
        error: `${column} window ${quote(text)} does not end after it starts; a window that ends after midnight ends on the next day's date (or give only the end time, such as 2:00 AM).`,
      };
    }
    return { start: start.ms, end: end.ms };
  }
  const time = timeOfDay(timeOnly, `${column} window end ${quote(endText)} is not hh:mm AM|PM`);
  if (failed(start)) return start;
  if (failed(time)) return time;
  const startMinute = wall.hour * 60 + wall.minute;
  const endMinute = time.hour * 60 + time.minute;
  if (endMinute === startMinute) {
    return { error: `${column} window ${quote(text)} ends when it starts; write a later end time, or an earlier one for a window that ends the next day.` };
  }
  // An end time before the start time is on the next day (the calendar's next day, whatever the month).
  const next = endMinute < startMinute ? new Date(Date.UTC(wall.year, wall.month - 1, wall.day + 1)) : undefined;
  const endWall: Wall = next
    ? { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), ...time }
    : { year: wall.year, month: wall.month, day: wall.day, ...time };
  const end = instant(`${column} window end`, endText, endWall, clock);
  if (failed(end)) {
    return { error: `${column} window ${quote(text)} ends at a time that does not exist in ${clock.zone}: the clocks skip that hour (daylight saving time).` };
  }
  return { start: start.ms, end: end.ms };
}

/** Bad windows of one cell given a message each; past them, one message counts the rest. */
export const WINDOW_ERRORS_PER_CELL = 10;

/**
 * Reads a cell of windows separated by `;` (blank parts skipped). Each bad window gets its own
 * message, up to WINDOW_ERRORS_PER_CELL, then one says how many more there are (a cell can hold
 * hundreds of thousands); a cell with no window at all is an error too (blank means absent, and
 * is not read here).
 */
export function readWindows(column: string, value: string, zone: string | ZoneClock): { windows: MsWindow[] } | { errors: string[] } {
  const clock = clockOf(zone);
  const windows: MsWindow[] = [];
  const errors: string[] = [];
  let bad = 0;
  // En and em dashes, as word processors and spreadsheets write them, read as hyphens.
  for (const part of value.replace(/[\u2013\u2014]/g, '-').split(';')) {
    const text = part.trim();
    if (text === '') continue;
    const w = readWindow(column, text, clock);
    if (!failed(w)) windows.push(w);
    else if (++bad <= WINDOW_ERRORS_PER_CELL) errors.push(w.error);
  }
  if (bad > WINDOW_ERRORS_PER_CELL) {
    const more = (bad - WINDOW_ERRORS_PER_CELL).toLocaleString('en-US');
    errors.push(`${column} has ${more} more bad windows in this cell besides the ${WINDOW_ERRORS_PER_CELL} listed; fix those and upload again.`);
  }
  if (errors.length > 0) return { errors };
  if (windows.length === 0) {
    return { errors: [`${column} ${quote(value)} has no window; write windows such as ${WINDOW_EXAMPLE}, separated by ;, or leave the cell blank.`] };
  }
  return { windows };
}
