import { TZDate, tzOffset } from '@date-fns/tz';
import { expect } from 'chai';
import { ZoneClock } from '../../src/input/zone-clock.js';

const DAY = 86_400_000;

/** What TZDate makes of a wall-clock time: the instant, or undefined where the clocks skip it. */
function byTzDate(zone: string, y: number, mo: number, d: number, h: number, mi: number): number | undefined {
  const date = new TZDate(y, mo - 1, d, h, mi, zone);
  return date.getHours() === h && date.getMinutes() === mi && date.getDate() === d ? date.getTime() : undefined;
}

/** The wall-clock time of an instant in a zone, as Intl formats it: the oracle, independent of tzOffset. */
function wallOf(format: Intl.DateTimeFormat, ms: number): string {
  const p = Object.fromEntries(format.formatToParts(ms).map((x) => [x.type, x.value]));
  return `${Number(p.year)}-${Number(p.month)}-${Number(p.day)} ${Number(p.hour)}:${Number(p.minute)}`;
}

const formatOf = (zone: string): Intl.DateTimeFormat =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });

/** UTC days (as Date) whose offset differs from the day before's, between two years. */
function changeDays(zone: string, fromYear: number, toYear: number): Date[] {
  const out: Date[] = [];
  let last = tzOffset(zone, new Date(Date.UTC(fromYear, 0, 1)));
  for (let t = Date.UTC(fromYear, 0, 2); t < Date.UTC(toYear, 0, 1); t += DAY) {
    const offset = tzOffset(zone, new Date(t));
    if (offset !== last) out.push(new Date(t - DAY));
    last = offset;
  }
  return out;
}

const ZONES = [
  'America/Chicago',
  'Europe/Paris',
  'Australia/Lord_Howe', // a 30-minute daylight saving shift
  'Pacific/Chatham', // +12:45 / +13:45
  'America/St_Johns', // -3:30
  'America/Sao_Paulo', // daylight saving until 2019, in the southern summer
  'Africa/Casablanca', // suspended for Ramadan
  'Pacific/Apia', // no change since 2021 (see the skipped day below)
  'Asia/Kolkata',
  'UTC',
];

describe('ZoneClock: wall-clock times as TZDate reads them', function () {
  this.timeout(60_000);

  it('reads every quarter hour of the days around each change of offset, 2024-2027, as the instants Intl shows at that time (the first of two)', () => {
    let compared = 0;
    let gaps = 0;
    let repeats = 0;
    for (const zone of ZONES) {
      const clock = new ZoneClock(zone);
      const format = formatOf(zone);
      for (const changeDay of changeDays(zone, 2024, 2028)) {
        // Every instant, on the quarter hour, of the 30 hours around each local day: which show which wall time.
        const shown = new Map<string, number[]>();
        const from = changeDay.getTime() - 2 * DAY;
        for (let t = from; t < from + 5 * DAY; t += 15 * 60_000) {
          const wall = wallOf(format, t);
          shown.set(wall, [...(shown.get(wall) ?? []), t]);
        }
        for (let k = -1; k <= 1; k++) {
          const day = new Date(changeDay.getTime() + k * DAY);
          const [y, mo, d] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
          for (let minute = 0; minute < 24 * 60; minute += 15) {
            const [h, mi] = [Math.floor(minute / 60), minute % 60];
            const instants = shown.get(`${y}-${mo}-${d} ${h}:${mi}`) ?? [];
            const what = `${zone} ${y}-${mo}-${d} ${h}:${mi}`;
            expect(clock.instant(y, mo, d, h, mi), what).to.equal(instants[0]);
            // TZDate agrees where the time is shown once, and picks one of the instants where it is shown twice.
            const tz = byTzDate(zone, y, mo, d, h, mi);
            if (instants.length === 1) expect(tz, what).to.equal(instants[0]);
            else if (instants.length === 0) expect(tz, what).to.equal(undefined);
            else expect(instants, what).to.include(tz);
            compared++;
            if (instants.length === 0) gaps++;
            if (instants.length > 1) repeats++;
          }
        }
      }
    }
    // The comparison really ran over changes, their gaps and their repeated hours.
    expect(compared).to.be.above(12_000);
    expect(gaps).to.be.above(60);
    expect(repeats).to.be.above(60);
  });

  it('agrees with TZDate on random wall-clock times away from changes, 1970-2040', () => {
    let seed = 12345;
    const next = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    let compared = 0;
    for (const zone of ZONES) {
      const clock = new ZoneClock(zone);
      for (let i = 0; i < 500; i++) {
        const [y, mo, d, h, mi] = [1970 + next(71), 1 + next(12), 1 + next(28), next(24), next(60)];
        const local = Date.UTC(y, mo - 1, d, h, mi);
        if (tzOffset(zone, new Date(local - 2 * DAY)) !== tzOffset(zone, new Date(local + 2 * DAY))) continue;
        expect(clock.instant(y, mo, d, h, mi), `${zone} ${y}-${mo}-${d} ${h}:${mi}`).to.equal(byTzDate(zone, y, mo, d, h, mi));
        compared++;
      }
    }
    expect(compared).to.be.above(4000);
  });

  it('finds no instant for a day a zone skipped (Pacific/Apia, 2011-12-30), and the days around it', () => {
    const clock = new ZoneClock('Pacific/Apia');
    expect(clock.instant(2011, 12, 29, 23, 45)).to.equal(Date.parse('2011-12-30T09:45:00Z'));
    expect([0, 6, 12, 23].map((h) => clock.instant(2011, 12, 30, h, 0))).to.deep.equal([undefined, undefined, undefined, undefined]);
    expect(clock.instant(2011, 12, 31, 0, 0)).to.equal(Date.parse('2011-12-30T10:00:00Z'));
  });

  it('gives the offset tzOffset gives, on both sides of a change to the millisecond', () => {
    const clock = new ZoneClock('America/Chicago');
    const change = Date.UTC(2026, 2, 8, 8); // 2:00 AM CST becomes 3:00 AM CDT
    expect([clock.offset(change - 1), clock.offset(change), clock.offset(change + DAY)]).to.deep.equal([-360, -300, -300]);
    expect(tzOffset('America/Chicago', new Date(change - 1))).to.equal(-360);
    const lordHowe = new ZoneClock('Australia/Lord_Howe');
    const back = Date.UTC(2026, 3, 4, 15); // 2:00 AM +11 becomes 1:30 AM +10:30
    expect([lordHowe.offset(back - 1), lordHowe.offset(back)]).to.deep.equal([660, 630]);
  });

  it('asks Intl about once per UTC day touched, not per time read', () => {
    const clock = new ZoneClock('America/Chicago');
    // Ten thousand times over one week read the offsets of a handful of days.
    for (let i = 0; i < 10_000; i++) clock.instant(2026, 3, 5 + (i % 7), i % 24, i % 60);
    const cached = clock as unknown as { dayStarts: Map<number, number>; changes: Map<number, number> };
    expect(cached.dayStarts.size).to.be.below(12);
    expect(cached.changes.size).to.equal(1);
  });
});
