// Wall-clock times as spreadsheets write them (the forms of date-forms.ts), read in an IANA time
// zone (daylight saving time included), and time windows built of them: "6/6/2026 8:00 AM -
// 6/6/2026 5:00 PM", "2026-06-06 22:00 - 02:00" within a day, where an end time before the start
// time means the next day. A file's cells are read in the form and day/month order its upload
// settled on (csv-dates.ts); a cell in another form is an error that names the file's form and
// where it was first seen. Each reader returns the UTC instant or a message that says what form
// is expected, with an example in the file's own form.
import type { DateReading, SeenDate } from './csv-dates.js';
import { where } from './csv-dates.js';
import {
  checkTime,
  type DayMonthOrder,
  EVERY_FORM,
  failed,
  type FormKind,
  formText,
  provenOrder,
  type Read,
  readWritten,
  recognize,
  recognizeTime,
  type Wall,
  type Written,
  writeIn,
} from './date-forms.js';
import { clip } from './entry-caps.js';
import { ZoneClock } from './zone-clock.js';

const quote = (s: string): string => `'${clip(s)}'`;

/** The form a file's messages describe: its own, or 12-hour where no cell of the file has a recognizable date. */
const kindOf = (reading: DateReading): FormKind => reading.form?.written.kind ?? 'us12';

/** The order a cell is read in: the upload's, else (undecided) the one the cell proves itself, else month first. */
const orderFor = (w: Written, reading: DateReading): DayMonthOrder => reading.order ?? provenOrder(w) ?? 'month-first';

/** A cell in another form than its file's: what the file uses, where it was first seen, and the cell rewritten in it where that is sure. */
function otherForm(label: string, text: string, w: Written, reading: DateReading, form: SeenDate): string {
  // A stray 24-hour date is read as it proves itself first: the upload's order comes from other files' cells.
  const order = provenOrder(w) ?? orderFor(w, reading);
  const theirs = formText(form.written.kind, reading.order).pattern;
  const wall = readWritten(label, text, w, order);
  // A 24-hour slash date is sure to mean one day only when the order is known or it reads the same both ways.
  const sureOfCell = w.kind !== 'slash24' || reading.order !== undefined || provenOrder(w) !== undefined || w.x === w.y;
  const sureOfFile = form.written.kind !== 'slash24' || reading.order !== undefined || (!failed(wall) && wall.month === wall.day);
  const here = !failed(wall) && sureOfCell && sureOfFile ? `, here ${writeIn(form.written.kind, reading.order ?? 'month-first', wall)}` : '';
  return (
    `${label} ${quote(text)} is written ${formText(w.kind, order).pattern}, but this file writes its dates as ${theirs} ` +
    `(first in ${where(form.at)}: ${quote(form.text)}); write every date of the file in one form${here}.`
  );
}

/** A date-time text of a file as the wall-clock time it means, or a message naming `label`. */
function readDateTime(label: string, text: string, reading: DateReading = {}): Read<{ wall: Wall; written: Written }> {
  const { form } = reading;
  const { pattern, example } = formText(kindOf(reading), reading.order);
  if (text === '') return { error: `${label} is blank; write a date and time such as ${example}.` };
  const written = recognize(text);
  if (!written) {
    return {
      error: form ? `${label} ${quote(text)} is not ${pattern}, such as ${example}.` : `${label} ${quote(text)} is not a date and time; write ${EVERY_FORM}.`,
    };
  }
  if (form && written.kind !== form.written.kind) return { error: otherForm(label, text, written, reading, form) };
  const wall = readWritten(label, text, written, orderFor(written, reading));
  return failed(wall) ? wall : { wall, written };
}

/** The instant a wall-clock time names in the clock's zone, or why there is none (the hour the clocks skip). */
function instant(label: string, text: string, wall: Wall, clock: ZoneClock): Read<{ ms: number }> {
  const ms = clock.instant(wall.year, wall.month, wall.day, wall.hour, wall.minute);
  if (ms === undefined) return { error: `${label} ${quote(text)} does not exist in ${clock.zone}: the clocks skip that hour (daylight saving time).` };
  return { ms: ms + wall.sec * 1000 };
}

const clockOf = (zone: string | ZoneClock): ZoneClock => (typeof zone === 'string' ? new ZoneClock(zone) : zone);

/**
 * Reads a date-time cell as a wall-clock time in `zone` (a name, or the request's ZoneClock,
 * which remembers the offsets it has looked up), in the form and order `reading` gives (without
 * one: any form, a 24-hour slash date month first unless it proves otherwise); the UTC instant,
 * or an error message.
 */
export function readWallClock(label: string, text: string, zone: string | ZoneClock, reading: DateReading = {}): Read<{ ms: number }> {
  const read = readDateTime(label, text, reading);
  return failed(read) ? read : instant(label, text, read.wall, clockOf(zone));
}

/** A window as UTC instants, [start, end). */
export interface MsWindow {
  start: number;
  end: number;
}

function windowExample(kind: FormKind): string {
  const { example, endExample, timeExample } = formText(kind);
  return `${example} - ${endExample}, or ${example} - ${timeExample} within a day`;
}

const isDigit = (text: string, i: number): boolean => i >= 0 && i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57;

/** How many digits run from `from` in direction `step` (+1 or -1), counting at most `max`. */
function digitRun(text: string, from: number, step: 1 | -1, max: number): number {
  let n = 0;
  while (n < max && isDigit(text, from + n * step)) n++;
  return n;
}

/** True when the hyphen at `i` joins the parts of a YYYY-MM-DD date (constant work: runs are counted to a few digits). */
function inIsoDate(text: string, i: number): boolean {
  const before = digitRun(text, i - 1, -1, 5);
  const after = digitRun(text, i + 1, 1, 3);
  const monthOrDay = (n: number): boolean => n === 1 || n === 2;
  // The hyphen after the year: YYYY-M(M)-
  if (before === 4 && monthOrDay(after) && text[i + 1 + after] === '-') return true;
  // The hyphen after the month: YYYY-M(M)-D(D)
  return monthOrDay(before) && monthOrDay(after) && text[i - 1 - before] === '-' && digitRun(text, i - 2 - before, -1, 5) === 4;
}

/**
 * Splits "start - end" at its one separator: a hyphen that is not inside a YYYY-MM-DD date
 * (ISO dates carry hyphens of their own). Undefined when there is not exactly one.
 */
export function splitWindow(text: string): { start: string; end: string } | undefined {
  let at = -1;
  for (let i = text.indexOf('-'); i >= 0; i = text.indexOf('-', i + 1)) {
    if (inIsoDate(text, i)) continue;
    if (at >= 0) return undefined;
    at = i;
  }
  return at < 0 ? undefined : { start: text.slice(0, at).trim(), end: text.slice(at + 1).trim() };
}

/** The windows of a cell, separated by `;` (blank parts skipped), as written; en and em dashes read as hyphens. */
export function windowTexts(value: string): string[] {
  return value
    .replace(/[\u2013\u2014]/g, '-')
    .split(';')
    .map((part) => part.trim())
    .filter((text) => text !== '');
}

/** The end of a window given as a time of day alone, in the start's form: h:mm AM|PM after a 12-hour start, else H:MM. */
function readEndTime(column: string, endText: string, kind: FormKind): Read<{ hour: number; minute: number; sec: number }> | undefined {
  const time = recognizeTime(endText);
  if (!time) return undefined;
  const twelve = kind === 'us12';
  const label = `${column} window end ${quote(endText)}`;
  if (twelve && time.pm === undefined) {
    const as12 = time.hour > 12 && time.hour <= 23 && time.minute <= 59 ? `, here ${time.hour - 12}:${String(time.minute).padStart(2, '0')} PM` : '';
    return { error: `${label} has no AM or PM, and the start is written with them; write the end the same way${as12 || ', such as 5:00 PM'}.` };
  }
  if (!twelve && time.pm !== undefined) {
    const hour = (time.hour % 12) + (time.pm ? 12 : 0);
    const as24 =
      time.hour >= 1 && time.hour <= 12 && time.minute <= 59
        ? `, here ${kind === 'iso' ? String(hour).padStart(2, '0') : hour}:${String(time.minute).padStart(2, '0')}`
        : '';
    return { error: `${label} has AM or PM, and the start is written in 24 hours; write the end the same way${as24}.` };
  }
  return checkTime(time, twelve, `${label} is not ${formText(kind).timePattern}`);
}

/** An end time after midnight, for a message about a window that ends the next day. */
const NIGHT_END: Record<FormKind, string> = { us12: '2:00 AM', slash24: '2:00', iso: '02:00' };

/** Reads one window, "start - end", the end a full date-time or a time of day in the start's form. */
function readWindow(column: string, text: string, clock: ZoneClock, reading: DateReading): Read<MsWindow> {
  const parts = splitWindow(text);
  if (!parts) return { error: `${column} window ${quote(text)} is not start - end; write it as ${windowExample(kindOf(reading))}.` };
  const from = readDateTime(`${column} window start`, parts.start, reading);
  if (failed(from)) return from;
  const start = instant(`${column} window start`, parts.start, from.wall, clock);
  const kind = from.written.kind;
  if (parts.end === '') return { error: `${column} window ${quote(text)} has no end; write it as ${windowExample(kind)}.` };
  const time = readEndTime(column, parts.end, kind);
  if (time === undefined) {
    if (!recognize(parts.end)) {
      const { pattern, timePattern } = formText(kind, reading.order);
      return { error: `${column} window end ${quote(parts.end)} is not ${pattern} nor ${timePattern}; write the window as ${windowExample(kind)}.` };
    }
    const end = readWallClock(`${column} window end`, parts.end, clock, reading);
    if (failed(start)) return start;
    if (failed(end)) return end;
    if (end.ms <= start.ms) {
      return {
        error: `${column} window ${quote(text)} does not end after it starts; a window that ends after midnight ends on the next day's date (or give only the end time, such as ${NIGHT_END[kind]}).`,
      };
    }
    return { start: start.ms, end: end.ms };
  }
  if (failed(start)) return start;
  if (failed(time)) return time;
  return sameDayEnd(column, text, from.wall, time, clock, start.ms);
}

/** The end of a window given as a time of day: that day, or the next when it is before the start time. */
function sameDayEnd(
  column: string,
  text: string,
  wall: Wall,
  time: { hour: number; minute: number; sec: number },
  clock: ZoneClock,
  startMs: number,
): Read<MsWindow> {
  const startSecond = (wall.hour * 60 + wall.minute) * 60 + wall.sec;
  const endSecond = (time.hour * 60 + time.minute) * 60 + time.sec;
  if (endSecond === startSecond) {
    return { error: `${column} window ${quote(text)} ends when it starts; write a later end time, or an earlier one for a window that ends the next day.` };
  }
  // An end time before the start time is on the next day (the calendar's next day, whatever the month).
  const next = endSecond < startSecond ? new Date(Date.UTC(wall.year, wall.month - 1, wall.day + 1)) : undefined;
  const endWall: Wall = next
    ? { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), ...time }
    : { year: wall.year, month: wall.month, day: wall.day, ...time };
  const end = instant(`${column} window end`, text, endWall, clock);
  if (failed(end)) {
    return { error: `${column} window ${quote(text)} ends at a time that does not exist in ${clock.zone}: the clocks skip that hour (daylight saving time).` };
  }
  return { start: startMs, end: end.ms };
}

/** Bad windows of one cell given a message each; past them, one message counts the rest. */
export const WINDOW_ERRORS_PER_CELL = 10;

/**
 * Reads a cell of windows separated by `;` (blank parts skipped). Each bad window gets its own
 * message, up to WINDOW_ERRORS_PER_CELL, then one says how many more there are (a cell can hold
 * hundreds of thousands); a cell with no window at all is an error too (blank means absent, and
 * is not read here).
 */
export function readWindows(
  column: string,
  value: string,
  zone: string | ZoneClock,
  reading: DateReading = {},
): { windows: MsWindow[] } | { errors: string[] } {
  const clock = clockOf(zone);
  const windows: MsWindow[] = [];
  const errors: string[] = [];
  let bad = 0;
  for (const text of windowTexts(value)) {
    const w = readWindow(column, text, clock, reading);
    if (!failed(w)) windows.push(w);
    else if (++bad <= WINDOW_ERRORS_PER_CELL) errors.push(w.error);
  }
  if (bad > WINDOW_ERRORS_PER_CELL) {
    const more = (bad - WINDOW_ERRORS_PER_CELL).toLocaleString('en-US');
    errors.push(`${column} has ${more} more bad windows in this cell besides the ${WINDOW_ERRORS_PER_CELL} listed; fix those and upload again.`);
  }
  if (errors.length > 0) return { errors };
  if (windows.length === 0) {
    return {
      errors: [`${column} ${quote(value)} has no window; write windows such as ${windowExample(kindOf(reading))}, separated by ;, or leave the cell blank.`],
    };
  }
  return { windows };
}
