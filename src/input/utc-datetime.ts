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

/** Parses a date-time of the contract's form; `field` names the value in the message. */
export function parseUtcDateTime(field: string, value: string): UtcParse {
  const m = STRICT.exec(value);
  if (m) {
    const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(m[i]));
    const s = Number(m[6] ?? 0);
    const fraction = Number((m[7] ?? '0').padEnd(3, '0'));
    // setUTCFullYear, unlike Date.UTC, keeps years 0-99 as written.
    const back = new Date(0);
    back.setUTCFullYear(y!, mo! - 1, d);
    back.setUTCHours(h!, mi, s, fraction);
    const ms = back.getTime();
    if (mo! < 1 || mo! > 12 || back.getUTCMonth() !== mo! - 1 || back.getUTCDate() !== d! || h! > 23 || mi! > 59 || s > 59) {
      const days = mo! >= 1 && mo! <= 12 ? new Date(Date.UTC(y!, mo, 0)).getUTCDate() : 0;
      const why = days > 0 && d! > days ? `${MONTHS[mo! - 1]} ${y} has ${days} days` : 'a month, day, hour, minute or second is out of range';
      return { ok: false, code: 'invalid_date', message: `${field} ${quote(value)} is not a real date-time: ${why}.` };
    }
    return { ok: true, ms };
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
