import { expect } from 'chai';
import { availabilityDetail, extendAvailability, isAvailable, unavailability } from '../../src/rules/availability.js';
import { at, HOUR, problemOf, shiftAt, T0, warningsOf } from './helpers.js';

const span = (from: number, to: number) => ({ start: T0 + from * HOUR, end: T0 + to * HOUR });

describe('rules: availability', () => {
  const base = { id: 'v', group: 'k', max_hours: 999 };

  it('takes a shift wholly inside the union of the available windows, even across two touching windows', () => {
    const [v] = problemOf({
      volunteers: [
        {
          ...base,
          available: [
            { start: at(8), end: at(12) },
            { start: at(12), end: at(16) },
          ],
        },
      ],
    }).volunteers;
    expect(isAvailable(v!, span(9, 15))).to.equal(true);
    expect(isAvailable(v!, span(8, 16))).to.equal(true);
    expect(unavailability(v!, span(7, 9))).to.deep.equal({});
    expect(unavailability(v!, span(15, 17))).to.deep.equal({});
  });

  it('an empty available list means never; an absent one means always', () => {
    const [never, always] = problemOf({
      volunteers: [
        { ...base, available: [] },
        { ...base, id: 'w' },
      ],
    }).volunteers;
    expect(isAvailable(never!, span(9, 10))).to.equal(false);
    expect(availabilityDetail(never!, {}, 'UTC').sentence).to.equal('v offered no time.');
    expect(isAvailable(always!, span(9, 10))).to.equal(true);
  });

  it('excludes a shift overlapping an unavailable window, not one touching it, and names the window', () => {
    const [v] = problemOf({ volunteers: [{ ...base, unavailable: [{ start: at(12), end: at(14) }] }] }).volunteers;
    expect(isAvailable(v!, span(10, 12))).to.equal(true);
    expect(isAvailable(v!, span(14, 15))).to.equal(true);
    const why = unavailability(v!, span(13, 15));
    expect(why).to.deep.equal({ window: span(12, 14) });
    expect(availabilityDetail(v!, why!, 'UTC')).to.deep.equal({
      detail: { code: 'unavailable', volunteer_id: 'v', window: { start: at(12), end: at(14) } },
      sentence: 'v is unavailable 2026-06-06 12:00-14:00 UTC.',
    });
  });

  it('relaxes to the shift window itself', () => {
    const p = problemOf({ volunteers: [{ ...base, available: [] }], unassigned_shifts: [shiftAt('s', 9, 11, { k: 1 })] });
    expect(extendAvailability(p.volunteers[0]!, p.shifts[0]!)).to.deep.equal({
      code: 'extend_availability',
      volunteer_id: 'v',
      window: { start: at(9), end: at(11) },
      filled: 1,
    });
  });

  it('warns once per lock the volunteer cannot come to, with its pointer', () => {
    const p = problemOf({
      volunteers: [{ ...base, available: [{ start: at(8), end: at(12) }] }],
      unassigned_shifts: [shiftAt('in', 8, 10, { k: 1 }), shiftAt('out', 13, 15, { k: 1 })],
      current_assignments: [
        { shift_id: 'in', volunteer_id: 'v' },
        { shift_id: 'out', volunteer_id: 'v' },
      ],
    });
    const warnings = warningsOf(p).filter((w) => w.code === 'lock_unavailable');
    expect(warnings).to.have.length(1);
    expect(warnings[0]!.pointer).to.equal('/current_assignments/1');
    expect(warnings[0]!.message).to.include("'out'").and.include('outside their available windows');
  });
});
