import { expect } from 'chai';
import { parseDateTime, parseUtcDateTime } from '../../src/input/utc-datetime.js';
import { ZoneClock } from '../../src/input/zone-clock.js';

describe('UTC date-times', () => {
  it('reads every date-time of the contract form as the instant ISO 8601 names, and refuses the dates that do not exist', () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const two = (n: number): string => String(n).padStart(2, '0');
    let real = 0;
    let unreal = 0;
    for (let i = 0; i < 5000; i++) {
      const year = String(next(3) === 0 ? next(10_000) : 1900 + next(200)).padStart(4, '0');
      const date = `${year}-${two(next(14))}-${two(next(33))}`;
      const seconds = next(2) ? `:${two(next(61))}${next(2) ? `.${String(next(1000)).slice(0, 1 + next(3))}` : ''}` : '';
      const value = `${date}T${two(next(25))}:${two(next(61))}${seconds}Z`;
      const parsed = parseUtcDateTime('start', value);
      // Date.parse reads the same form, but rolls 02-30 over to March and takes 24:00: the round trip tells.
      const ms = Date.parse(value);
      const exists = !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 13) === value.slice(0, 13);
      if (exists) {
        expect(parsed, value).to.deep.equal({ ok: true, ms });
        real++;
      } else {
        expect(parsed, value).to.include({ ok: false, code: 'invalid_date' });
        unreal++;
      }
    }
    expect(real).to.be.above(1000);
    expect(unreal).to.be.above(1000);
  });

  it('says which month is too short, and keeps years under 100 as written', () => {
    expect(parseUtcDateTime('end', '2024-02-30T00:00Z')).to.deep.equal({
      ok: false,
      code: 'invalid_date',
      message: "end '2024-02-30T00:00Z' is not a real date-time: February 2024 has 29 days.",
    });
    expect(parseUtcDateTime('end', '2026-01-01T23:60Z')).to.deep.include({
      message: "end '2026-01-01T23:60Z' is not a real date-time: a month, day, hour, minute or second is out of range.",
    });
    expect(parseUtcDateTime('start', '0050-03-01T00:00Z')).to.deep.equal({ ok: true, ms: Date.parse('0050-03-01T00:00Z') });
  });
});

describe('date-times with offsets and local times (2.2)', () => {
  it('converts an offset, and reads z, t and a space as RFC 3339 allows', () => {
    expect(parseDateTime('start', '2026-06-01T08:00:00-05:00')).to.deep.equal({ ok: true, ms: Date.parse('2026-06-01T13:00:00Z') });
    expect(parseDateTime('start', '2026-06-01T08:00+05:30')).to.deep.equal({ ok: true, ms: Date.parse('2026-06-01T02:30:00Z') });
    expect(parseDateTime('start', '2026-06-01t08:00:00.5z')).to.deep.equal({ ok: true, ms: Date.parse('2026-06-01T08:00:00.500Z') });
    expect(parseDateTime('start', '2026-06-01 08:00Z')).to.deep.equal({ ok: true, ms: Date.parse('2026-06-01T08:00:00Z') });
  });

  it('refuses a time with no zone when the request has no timezone, and never suggests appending Z', () => {
    const parsed = parseDateTime('end', '2026-06-01T17:00');
    expect(parsed).to.deep.include({ ok: false, code: 'not_utc' });
    const message = (parsed as { message: string }).message;
    expect(message).to.include('"timezone": "America/Chicago"');
    expect(message).to.include('2026-06-01T17:00:00-05:00');
    expect(message).to.not.match(/Z suffix|append/i);
  });

  it('reads a time with no zone in the request timezone: summer and winter offsets, the earlier of a repeated hour, none in a skipped one', () => {
    const chicago = new ZoneClock('America/Chicago');
    expect(parseDateTime('start', '2026-06-13T08:00', chicago)).to.deep.equal({ ok: true, ms: Date.parse('2026-06-13T13:00:00Z') });
    expect(parseDateTime('start', '2026-12-13T08:00:30.250', chicago)).to.deep.equal({ ok: true, ms: Date.parse('2026-12-13T14:00:30.250Z') });
    // 2026-11-01 01:30 happens twice in Chicago (CDT, then CST): the first.
    expect(parseDateTime('start', '2026-11-01T01:30', chicago)).to.deep.equal({ ok: true, ms: Date.parse('2026-11-01T06:30:00Z') });
    expect(parseDateTime('start', '2026-03-08T02:30', chicago)).to.deep.include({ ok: false, code: 'nonexistent_local_time' });
    // An offset or Z wins over the request's zone.
    expect(parseDateTime('start', '2026-06-13T08:00Z', chicago)).to.deep.equal({ ok: true, ms: Date.parse('2026-06-13T08:00:00Z') });
  });

  it('explains offsets it cannot read', () => {
    expect(parseDateTime('start', '2026-06-01T08:00+0530')).to.deep.include({ ok: false, code: 'invalid_datetime' });
    expect((parseDateTime('start', '2026-06-01T08:00+0530') as { message: string }).message).to.include('+05:30');
    expect(parseDateTime('start', '2026-06-01T08:00+24:00')).to.deep.include({ ok: false, code: 'invalid_datetime' });
  });
});
