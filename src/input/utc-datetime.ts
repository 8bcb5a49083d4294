// Reads the contract's date-times (RFC 3339): YYYY-MM-DDTHH:MM[:SS[.fff]] followed by Z (UTC) or
// an offset such as -05:00, or, in a request with a top-level timezone, with no suffix at all
// (a wall-clock time in that zone). Explains precisely why a value is not of that form, and never
// invites the fix that moves a local time by appending Z.
import { ZoneClock } from './zone-clock.js';

export const UTC_EXAMPLE = '2026-06-01T08:00:00Z';

// The T may be t or a space (RFC 3339 5.6 allows both); Z may be z.
const FORM = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?([Zz]|[+-]\d{2}:\d{2})?$/;
// The suffix starts with a non-digit, so the fraction's digits and the suffix never compete
// (a `(.*)` there backtracked quadratically on long digit runs).
const LOOSE = /^(\d{4}-\d{1,2}-\d{1,2})[Tt ](\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(\D.*)?$/;

export type DateTimeCode = 'not_utc' | 'invalid_datetime' | 'invalid_date' | 'nonexistent_local_time';
export type UtcParse = { ok: true; ms: number } | { ok: false; code: DateTimeCode; message: string };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function quote(value: string): string {
  return `'${value.length > 40 ? `${value.slice(0, 40)}...` : value}'`;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in a month (1-12) of the proleptic Gregorian calendar, as Date counts them. */
function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/** Epoch milliseconds of a UTC date-time; years 0-99 kept as written (Date.UTC reads them as 1900-1999). */
function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number {
  if (y >= 100) return Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, ms);
  return date.getTime();
}

/** The value written with the offset -05:00: the fix to show. */
function withOffset(date: string, time: string): string {
  return `${date}T${time.length === 5 ? `${time}:00` : time}-05:00`;
}

/** What to do with a time that names no zone: add the request's timezone, or write the offset. */
function noZoneMessage(field: string, value: string, date: string, time: string): string {
  return (
    `${field} ${quote(value)} has no time zone. Add "timezone": "America/Chicago" (the IANA zone the times are in) at the top of the request ` +
    `to read it as a local time, or write it with its UTC offset, e.g. ${withOffset(date, time)} for 5 hours behind UTC.`
  );
}

/**
 * Parses a date-time of the contract's forms; `field` names the value in messages. A value with
 * neither Z nor an offset is read on `clock` (the request's timezone) when there is one, and is
 * an error (not_utc) when there is none.
 */
export function parseDateTime(field: string, value: string, clock?: ZoneClock): UtcParse {
  const m = FORM.exec(value);
  if (m) {
    // Plain arithmetic, no Date round trip and no arrays: this runs for every shift and window.
    const y = Number(m[1]);
    const mo = Number(m[2]);
    const d = Number(m[3]);
    const h = Number(m[4]);
    const mi = Number(m[5]);
    const s = m[6] === undefined ? 0 : Number(m[6]);
    const fraction = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0'));
    const days = mo >= 1 && mo <= 12 ? daysInMonth(y, mo) : 0;
    if (days === 0 || d < 1 || d > days || h > 23 || mi > 59 || s > 59) {
      const why = days > 0 && d > days ? `${MONTHS[mo - 1]} ${y} has ${days} days` : 'a month, day, hour, minute or second is out of range';
      return { ok: false, code: 'invalid_date', message: `${field} ${quote(value)} is not a real date-time: ${why}.` };
    }
    const suffix = m[8];
    if (suffix === undefined) {
      if (!clock) {
        const time = value.slice(11);
        return { ok: false, code: 'not_utc', message: noZoneMessage(field, value, value.slice(0, 10), time) };
      }
      const at = clock.instant(y, mo, d, h, mi);
      if (at === undefined) {
        return {
          ok: false,
          code: 'nonexistent_local_time',
          message: `${field} ${quote(value)} does not exist in ${clock.zone}: the clocks skip that hour (daylight saving time); write the time after the change, or with its UTC offset.`,
        };
      }
      return { ok: true, ms: at + s * 1000 + fraction };
    }
    const utc = utcMs(y, mo, d, h, mi, s, fraction);
    if (suffix === 'Z' || suffix === 'z') return { ok: true, ms: utc };
    const sign = suffix[0] === '-' ? -1 : 1;
    const oh = Number(suffix.slice(1, 3));
    const om = Number(suffix.slice(4, 6));
    if (oh > 23 || om > 59) {
      return {
        ok: false,
        code: 'invalid_datetime',
        message: `${field} ${quote(value)} has the offset ${suffix}, which is not a UTC offset (-23:59 to +23:59).`,
      };
    }
    return { ok: true, ms: utc - sign * (oh * 60 + om) * 60_000 };
  }
  const loose = LOOSE.exec(value);
  if (loose) {
    const suffix = loose[3] ?? '';
    const [y, mo, d] = loose[1]!.split('-');
    const [h, mi] = loose[2]!.split(':');
    const padded = `${y}-${mo!.padStart(2, '0')}-${d!.padStart(2, '0')}T${h!.padStart(2, '0')}:${mi}`;
    if (suffix === '' && padded !== value.slice(0, padded.length).replace(' ', 'T')) {
      return {
        ok: false,
        code: 'invalid_datetime',
        message: `${field} ${quote(value)} must write the month, day and hour with two digits, as in ${padded}.`,
      };
    }
    if (/^\s*[A-Za-z]/.test(suffix) && !/^[Zz]/.test(suffix)) {
      return {
        ok: false,
        code: 'invalid_datetime',
        message: `${field} ${quote(value)} names its zone in words, which a date-time cannot carry; remove ${quote(suffix.trim())} and put "timezone": "America/Chicago" (the IANA zone) at the top of the request, or write the UTC offset, such as ${withOffset(loose[1]!, loose[2]!)}.`,
      };
    }
    if (/^[+-]\d{2}(\d{2})?$/.test(suffix)) {
      return {
        ok: false,
        code: 'invalid_datetime',
        message: `${field} ${quote(value)} has the offset ${suffix}; write offsets with a colon, ${suffix.slice(0, 3)}:${suffix.slice(3) || '00'}, as in 2026-06-01T08:00:00-05:00.`,
      };
    }
  }
  return {
    ok: false,
    code: 'invalid_datetime',
    message: `${field} must be an ISO 8601 date-time, YYYY-MM-DDTHH:MM[:SS[.fff]] with Z or an offset such as -05:00, e.g. ${UTC_EXAMPLE} (found ${quote(value)}).`,
  };
}

/** Parses a date-time that must carry Z or an offset (no request timezone). */
export function parseUtcDateTime(field: string, value: string): UtcParse {
  return parseDateTime(field, value);
}
