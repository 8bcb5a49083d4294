// Wall-clock times of one IANA time zone to UTC instants, as @date-fns/tz's TZDate reads them
// (the earlier instant at a fall-back hour; none in a spring-forward gap), at a bounded cost.
// A TZDate asks Intl for the zone's offset several times per date (about 30 us): a CSV upload can
// carry hundreds of thousands of window ends. Here the offsets come from the same source
// (@date-fns/tz's tzOffset), asked once per UTC day touched; on the few days the offset changes,
// the instant of the change is found by bisection, once. One ZoneClock serves one request.
import { tzOffset } from '@date-fns/tz';

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;

export class ZoneClock {
  /** Offset (minutes east of UTC) at 00:00Z of each UTC day asked about. */
  private readonly dayStarts = new Map<number, number>();
  /** The first instant of the new offset, on each day the offset changes. */
  private readonly changes = new Map<number, number>();

  constructor(readonly zone: string) {}

  /** The zone's offset from UTC at an instant, in minutes east (Chicago in winter: -360). */
  offset(ms: number): number {
    if (this.zone === 'UTC') return 0;
    const day = Math.floor(ms / MS_PER_DAY);
    const before = this.dayStart(day);
    const after = this.dayStart(day + 1);
    if (before === after) return before;
    return ms < this.changeOn(day, before) ? before : after;
  }

  /**
   * The instant a wall-clock time names in the zone (month 1-12, hour 0-23): at a fall-back hour
   * the earlier of the two, in a spring-forward gap undefined.
   */
  instant(year: number, month: number, day: number, hour: number, minute: number): number | undefined {
    const local = Date.UTC(year, month - 1, day, hour, minute);
    // The instant lies within 14 hours of `local`; at most one change of offset falls that near.
    let best: number | undefined;
    for (const near of [local - MS_PER_DAY, local, local + MS_PER_DAY]) {
      const at = local - this.offset(near) * MS_PER_MINUTE;
      if (at + this.offset(at) * MS_PER_MINUTE === local && (best === undefined || at < best)) best = at;
    }
    return best;
  }

  private dayStart(day: number): number {
    let offset = this.dayStarts.get(day);
    if (offset === undefined) {
      offset = tzOffset(this.zone, new Date(day * MS_PER_DAY));
      this.dayStarts.set(day, offset);
    }
    return offset;
  }

  /** The first millisecond of `day` whose offset is not `before` (one change a day at most). */
  private changeOn(day: number, before: number): number {
    let change = this.changes.get(day);
    if (change === undefined) {
      let lo = day * MS_PER_DAY; // offset `before`
      let hi = lo + MS_PER_DAY; // offset changed
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (tzOffset(this.zone, new Date(mid)) === before) lo = mid;
        else hi = mid;
      }
      change = hi;
      this.changes.set(day, change);
    }
    return change;
  }
}
