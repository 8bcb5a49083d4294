// Reads the contract's date-time form, YYYY-MM-DDTHH:MM[:SS[.fff]]Z (UTC, Z suffix mandatory),
// and explains precisely why a value is not of that form.

export const UTC_EXAMPLE = '2026-06-01T08:00:00Z';

const STRICT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?Z$/;
// The suffix starts with a non-digit, so the fraction's digits and the suffix never compete
// (a `(.*)` there backtracked quadratically on long digit runs).
const LOOSE = /^(\d{4}-\d{1,2}-\d{1,2})[T ](\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(\D.*)?$/;

export type UtcParse = { ok: true; ms: number } | { ok: false; code: 'not_utc' | 'invalid_datetime' | 'invalid_date'; message: string };

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

/** Parses a date-time of the contract's form; `field` names the value in the message. */
export function parseUtcDateTime(field: string, value: string): UtcParse {
  const m = STRICT.exec(value);
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
    return { ok: true, ms: utcMs(y, mo, d, h, mi, s, fraction) };
  }
  const loose = LOOSE.exec(value);
  if (loose) {
    const suffix = loose[3] ?? '';
    if (suffix === '') {
      return {
        ok: false,
        code: 'not_utc',
        message: `${field} must be UTC with a Z suffix, e.g. ${UTC_EXAMPLE} (found ${quote(value)}, which has no time zone).`,
      };
    }
    if (/^[+-]\d{2}(:?\d{2})?$/.test(suffix)) {
      return {
        ok: false,
        code: 'not_utc',
        message: `${field} must be UTC with a Z suffix, e.g. ${UTC_EXAMPLE} (found the offset ${suffix} in ${quote(value)}); convert the time to UTC.`,
      };
    }
    if (suffix === 'z') {
      return { ok: false, code: 'not_utc', message: `${field} must end with an upper-case Z, e.g. ${UTC_EXAMPLE} (found ${quote(value)}).` };
    }
  }
  return {
    ok: false,
    code: 'invalid_datetime',
    message: `${field} must be an ISO 8601 UTC date-time, YYYY-MM-DDTHH:MM[:SS[.fff]]Z, e.g. ${UTC_EXAMPLE} (found ${quote(value)}).`,
  };
}
