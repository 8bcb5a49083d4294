import { expect } from 'chai';
import { parseUtcDateTime } from '../../src/input/utc-datetime.js';

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
