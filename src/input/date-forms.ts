// The three forms in which spreadsheets write a date and time, and how a cell in one of them is
// read: `M/D/YYYY h:mm AM|PM` (12-hour, month first, as US spreadsheets write it), `M/D/YYYY
// H:MM` (24-hour: Excel's default export in the US and the UK alike, so day and month may come in
// either order) and `YYYY-MM-DD HH:MM` (ISO; seconds and a `T` separator accepted). A cell is
// first recognized by its shape alone (`recognize`); its numbers are checked once the form of its
// file and the day/month order of the upload are known (`readWritten`, see csv-dates.ts).
import { clip } from './entry-caps.js';

/** The forms: 12-hour slash with AM/PM, 24-hour slash, ISO. */
export type FormKind = 'us12' | 'slash24' | 'iso';

/** How a 24-hour slash date orders its first two numbers. */
export type DayMonthOrder = 'month-first' | 'day-first';

/** A date and time as written, recognized by its shape; the numbers are not checked yet. */
export interface Written {
  kind: FormKind;
  year: number;
  /** The first and second number of the date as written: month and day for us12 and iso, either order for slash24. */
  x: number;
  y: number;
  hour: number;
  minute: number;
  /** 0 when the seconds are not written. */
  sec: number;
  /** us12 only. */
  pm?: boolean;
  /** iso only: a time zone written after the time (Z, +02:00), which a wall-clock cell must not carry. */
  zone?: string;
}

/** A date and time of day as it is meant, before any time zone. */
export interface Wall {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  /** 0 to 23. */
  hour: number;
  minute: number;
  sec: number;
}

/** A time of day alone (the end of a window in the short form), as written. */
export interface WrittenTime {
  hour: number;
  minute: number;
  sec: number;
  /** Set when AM or PM is written. */
  pm?: boolean;
}

// Each is anchored and built of runs that cannot overlap (digits, then a separator), so matching takes linear time.
const SLASH = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])\.?[Mm]\.?)?$/;
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt]|\s+)(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])\.?[Mm]\.?)?$/;

const meridiem = (letter: string | undefined): { pm: boolean } | object => (letter === undefined ? {} : { pm: letter.toLowerCase() === 'p' });

/** The form of a date-time text, by shape alone; undefined when it is none of the three. */
export function recognize(text: string): Written | undefined {
  const slash = SLASH.exec(text);
  if (slash) {
    const [, x, y, year, hour, minute, sec, letter] = slash;
    return {
      kind: letter === undefined ? 'slash24' : 'us12',
      year: Number(year),
      x: Number(x),
      y: Number(y),
      hour: Number(hour),
      minute: Number(minute),
      sec: Number(sec ?? 0),
      ...meridiem(letter),
    };
  }
  const iso = ISO.exec(text);
  if (iso) {
    const [, year, month, day, hour, minute, sec, zone] = iso;
    return {
      kind: 'iso',
      year: Number(year),
      x: Number(month),
      y: Number(day),
      hour: Number(hour),
      minute: Number(minute),
      sec: Number(sec ?? 0),
      ...(zone === undefined ? {} : { zone }),
    };
  }
  return undefined;
}

/** A time of day alone, h:mm with AM or PM, or H:MM in 24 hours (seconds accepted); undefined for anything else. */
export function recognizeTime(text: string): WrittenTime | undefined {
  const m = TIME.exec(text);
  if (!m) return undefined;
  return { hour: Number(m[1]), minute: Number(m[2]), sec: Number(m[3] ?? 0), ...meridiem(m[4]) };
}

/** What a message says about a form: its pattern and an example (the day equals the month, so either order reads it). */
export interface FormText {
  pattern: string;
  example: string;
  /** A later time of the same day, for the end of a window example. */
  endExample: string;
  /** A time of day alone: the end of a window in the short form. */
  timePattern: string;
  timeExample: string;
}

export function formText(kind: FormKind, order: DayMonthOrder = 'month-first'): FormText {
  switch (kind) {
    case 'us12':
      return {
        pattern: 'MM/DD/YYYY hh:mm AM|PM',
        example: '6/6/2026 8:00 AM',
        endExample: '6/6/2026 5:00 PM',
        timePattern: 'hh:mm AM|PM',
        timeExample: '5:00 PM',
      };
    case 'slash24':
      return {
        pattern: order === 'day-first' ? 'DD/MM/YYYY HH:MM' : 'MM/DD/YYYY HH:MM',
        example: '6/6/2026 8:00',
        endExample: '6/6/2026 17:00',
        timePattern: 'HH:MM',
        timeExample: '17:00',
      };
    case 'iso':
      return { pattern: 'YYYY-MM-DD HH:MM', example: '2026-06-06 08:00', endExample: '2026-06-06 17:00', timePattern: 'HH:MM', timeExample: '17:00' };
  }
}

/** The three forms, for a message about a cell whose file has no recognized date at all. */
export const EVERY_FORM = 'MM/DD/YYYY hh:mm AM|PM (6/6/2026 8:00 AM), MM/DD/YYYY HH:MM in 24 hours (6/6/2026 19:30) or YYYY-MM-DD HH:MM (2026-06-06 19:30)';

export type Read<T> = T | { error: string };
export const failed = <T extends object>(r: Read<T>): r is { error: string } => 'error' in r;

const quote = (s: string): string => `'${clip(s)}'`;
const two = (n: number): string => String(n).padStart(2, '0');
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "June 7" for month 6, day 7. */
export const monthDay = (month: number, day: number): string => `${MONTHS[month - 1] ?? `month ${month}`} ${day}`;

/** Hours and minutes in range for the form: 1-12 with AM/PM, else 0-23; the hour as 0-23. */
export function checkTime(t: WrittenTime, twelveHour: boolean, base: string): Read<{ hour: number; minute: number; sec: number }> {
  if (twelveHour && (t.hour < 1 || t.hour > 12)) return { error: `${base}: the hour must be 1 to 12 with AM or PM.` };
  if (!twelveHour && t.hour > 23) return { error: `${base}: the hour must be 0 to 23.` };
  if (t.minute > 59) return { error: `${base}: minutes go up to 59.` };
  if (t.sec > 59) return { error: `${base}: seconds go up to 59.` };
  return { hour: twelveHour ? (t.hour % 12) + (t.pm ? 12 : 0) : t.hour, minute: t.minute, sec: t.sec };
}

/** The month and day a written date means: us12 and iso month first, slash24 in `order`. */
export function monthAndDay(w: Written, order: DayMonthOrder): { month: number; day: number } {
  return w.kind === 'slash24' && order === 'day-first' ? { month: w.y, day: w.x } : { month: w.x, day: w.y };
}

/** The order a 24-hour slash date proves by itself (a number over 12 cannot be a month), if any. */
export function provenOrder(w: Written): DayMonthOrder | undefined {
  if (w.kind !== 'slash24') return undefined;
  const day = (n: number): boolean => n >= 13 && n <= 31;
  const month = (n: number): boolean => n >= 1 && n <= 12;
  if (day(w.x) && month(w.y)) return 'day-first';
  if (month(w.x) && day(w.y)) return 'month-first';
  return undefined;
}

/** True for a 24-hour slash date that reads as two real dates, one in each order (6/7/2026: June 7 or July 6). */
export function ambiguous(w: Written): boolean {
  return w.kind === 'slash24' && w.x !== w.y && w.x >= 1 && w.x <= 12 && w.y >= 1 && w.y <= 12;
}

/**
 * The wall-clock time a written date-time means, its numbers checked, or a message: `column`
 * and the text start it ("Start '2/30/2026 9:00' is not MM/DD/YYYY HH:MM: 2026-02 has 28 days.").
 */
export function readWritten(column: string, text: string, w: Written, order: DayMonthOrder): Read<Wall> {
  const { pattern } = formText(w.kind, order);
  const base = `${column} ${quote(text)} is not ${pattern}`;
  if (w.zone !== undefined) {
    const bare = text.slice(0, text.length - w.zone.length).trim();
    return {
      error: `${column} ${quote(text)} carries a time zone (${w.zone}); write the wall-clock time alone, such as ${clip(bare)}, and name the zone in the upload's timezone field.`,
    };
  }
  const { month, day } = monthAndDay(w, order);
  if (month < 1 || month > 12) {
    // 13/1/2026 9:00 AM: a day-first date where AM/PM dates are month first; say how January 13 is written.
    const swapped = w.kind === 'us12' && day >= 1 && day <= 12 && month <= 31;
    const swap = swapped
      ? `; dates with AM/PM are month first: for ${monthDay(day, month)} write ${day}/${month}${text.slice(text.indexOf('/', text.indexOf('/') + 1))}`
      : '';
    return { error: `${base}: month ${month} does not exist${swap}.` };
  }
  const days = new Date(Date.UTC(w.year, month, 0)).getUTCDate();
  if (day < 1 || day > days) return { error: `${base}: ${w.year}-${two(month)} has ${days} days.` };
  const time = checkTime(w, w.kind === 'us12', base);
  if (failed(time)) return time;
  return { year: w.year, month, day, ...time };
}

/** A wall-clock time written in a form (slash24 in `order`): what a message suggests writing instead. */
export function writeIn(kind: FormKind, order: DayMonthOrder, wall: Wall): string {
  const sec = wall.sec === 0 ? '' : `:${two(wall.sec)}`;
  switch (kind) {
    case 'us12': {
      const hour = wall.hour % 12 === 0 ? 12 : wall.hour % 12;
      return `${wall.month}/${wall.day}/${wall.year} ${hour}:${two(wall.minute)}${sec} ${wall.hour < 12 ? 'AM' : 'PM'}`;
    }
    case 'slash24': {
      const date = order === 'day-first' ? `${wall.day}/${wall.month}` : `${wall.month}/${wall.day}`;
      return `${date}/${wall.year} ${wall.hour}:${two(wall.minute)}${sec}`;
    }
    case 'iso':
      return `${wall.year}-${two(wall.month)}-${two(wall.day)} ${two(wall.hour)}:${two(wall.minute)}${sec}`;
  }
}
