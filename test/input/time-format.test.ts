import { expect } from 'chai';
import { formatWindow } from '../../src/input/format.js';

describe('times in sentences: the request zone with its abbreviation', () => {
  const at = (iso: string): number => Date.parse(iso);

  it('writes UTC as 2.1 did', () => {
    expect(formatWindow(at('2026-06-06T18:00Z'), at('2026-06-06T22:00Z'))).to.equal('2026-06-06 18:00-22:00 UTC');
    expect(formatWindow(at('2026-06-06T22:00Z'), at('2026-06-07T06:00Z'), 'UTC')).to.equal('2026-06-06 22:00 - 2026-06-07 06:00 UTC');
  });

  it('writes wall-clock times of the zone, summer and winter, across midnight', () => {
    expect(formatWindow(at('2026-06-14T14:00Z'), at('2026-06-14T22:00Z'), 'America/Chicago')).to.equal('2026-06-14 09:00-17:00 CDT');
    expect(formatWindow(at('2026-12-14T15:00Z'), at('2026-12-14T23:00Z'), 'America/Chicago')).to.equal('2026-12-14 09:00-17:00 CST');
    expect(formatWindow(at('2026-06-14T03:00Z'), at('2026-06-14T07:00Z'), 'America/Chicago')).to.equal('2026-06-13 22:00 - 2026-06-14 02:00 CDT');
  });

  it('names both abbreviations when the clocks change within the window', () => {
    // Chicago falls back at 2026-11-01 02:00 CDT (07:00Z).
    expect(formatWindow(at('2026-11-01T05:00Z'), at('2026-11-01T10:00Z'), 'America/Chicago')).to.equal('2026-11-01 00:00 CDT - 04:00 CST');
    expect(formatWindow(at('2026-10-31T22:00Z'), at('2026-11-01T10:00Z'), 'America/Chicago')).to.equal('2026-10-31 17:00 CDT - 2026-11-01 04:00 CST');
  });

  it('uses what the runtime calls zones without a letter abbreviation', () => {
    expect(formatWindow(at('2026-06-14T08:00Z'), at('2026-06-14T12:00Z'), 'Asia/Kolkata')).to.equal('2026-06-14 13:30-17:30 GMT+5:30');
  });
});
