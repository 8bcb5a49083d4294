// Small formatters shared by warnings and explanations, so every message writes hours and
// time windows the same way.
import { ZoneClock } from './zone-clock.js';

/** Hours with at most 2 decimals and no trailing zeros: 4, 2.5, 1.33. */
export function formatHours(hours: number): string {
  return String(Math.round(hours * 100) / 100);
}

/**
 * Writes instants as wall-clock times of one IANA zone with its abbreviation ("2026-06-14
 * 09:00-17:00 CDT"), the way sentences and warnings speak to a coordinator. The offsets come from
 * the zone's ZoneClock; the abbreviation of each offset is asked of Intl once.
 */
export class TimeFormat {
  private readonly clock: ZoneClock;
  private readonly names = new Map<number, string>();
  private intl: Intl.DateTimeFormat | undefined;

  constructor(readonly zone: string) {
    this.clock = new ZoneClock(zone);
  }

  /** The date, the time of day and the zone's abbreviation then. */
  private parts(ms: number): { day: string; time: string; abbr: string } {
    const offset = this.clock.offset(ms);
    const iso = new Date(ms + offset * 60_000).toISOString();
    return { day: iso.slice(0, 10), time: iso.slice(11, 16), abbr: this.abbreviation(ms, offset) };
  }

  /** CDT, CET, GMT+2: what en-US calls the zone at that offset (UTC for UTC). */
  private abbreviation(ms: number, offset: number): string {
    if (this.zone === 'UTC') return 'UTC';
    let name = this.names.get(offset);
    if (name === undefined) {
      this.intl ??= new Intl.DateTimeFormat('en-US', { timeZone: this.zone, timeZoneName: 'short' });
      name = this.intl.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value ?? this.zone;
      this.names.set(offset, name);
    }
    return name;
  }

  /**
   * "2026-06-14 09:00-17:00 CDT"; "2026-06-14 22:00 - 2026-06-15 06:00 CDT" across days; the
   * abbreviation after each end when the clocks change in between.
   */
  window(start: number, end: number): string {
    const a = this.parts(start);
    const b = this.parts(end);
    if (a.abbr !== b.abbr) return `${a.day} ${a.time} ${a.abbr} - ${a.day === b.day ? '' : `${b.day} `}${b.time} ${b.abbr}`;
    return a.day === b.day ? `${a.day} ${a.time}-${b.time} ${a.abbr}` : `${a.day} ${a.time} - ${b.day} ${b.time} ${a.abbr}`;
  }
}

const formats = new Map<string, TimeFormat>();

/** The TimeFormat of a zone, made once per zone and thread (zones are few; each caches its offsets). */
export function timeFormat(zone: string): TimeFormat {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new TimeFormat(zone);
    formats.set(zone, format);
  }
  return format;
}

/** "2026-06-06 18:00-22:00 UTC", or "2026-06-06 22:00 - 2026-06-07 06:00 UTC" across days; in `zone` when given. */
export function formatWindow(start: number, end: number, zone = 'UTC'): string {
  return timeFormat(zone).window(start, end);
}

/** An instant as the contract writes UTC date-times: 2026-06-06T08:00:00Z (milliseconds only when not zero). */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
