import { expect } from 'chai';
import { HOURS_EPS, hoursFit, raisedMaxHours } from '../../src/rules/hours.js';
import { problemOf, shiftAt, warningsOf } from './helpers.js';

describe('rules: hours', () => {
  it('fits up to the cap, within the tolerance, and never past it; 999 is unlimited', () => {
    expect(hoursFit({ capHours: 8 }, 4, 4)).to.equal(true);
    expect(hoursFit({ capHours: 8 }, 4, 4 + HOURS_EPS / 2)).to.equal(true);
    expect(hoursFit({ capHours: 8 }, 4, 4.01)).to.equal(false);
    const [v] = problemOf({ volunteers: [{ id: 'v', group: 'k', max_hours: 999 }] }).volunteers;
    expect(hoursFit(v!, 1e6, 100)).to.equal(true);
  });

  it('raises max_hours to a value that really fits: rounded up to 2 decimals, never down', () => {
    const twentyMinutes = { index: 0, id: 's', start: 0, end: 1_200_000, hours: 1 / 3, priority: 1, day: 0 };
    const raised = raisedMaxHours(4, twentyMinutes);
    expect(raised).to.equal(4.34);
    expect(hoursFit({ capHours: raised }, 4, 1 / 3)).to.equal(true);
    expect(raisedMaxHours(4, { ...twentyMinutes, hours: 4 })).to.equal(8);
  });

  it('warns at the lock that takes the volunteer past max_hours, once', () => {
    const p = problemOf({
      volunteers: [{ id: 'v', group: 'k', max_hours: 5 }],
      unassigned_shifts: [shiftAt('a', 8, 12, { k: 1 }), shiftAt('b', 13, 15, { k: 1 }), shiftAt('c', 16, 18, { k: 1 })],
      current_assignments: ['a', 'b', 'c'].map((shift_id) => ({ shift_id, volunteer_id: 'v' })),
    });
    const warnings = warningsOf(p).filter((w) => w.code === 'lock_max_hours_exceeded');
    expect(warnings.map((w) => w.pointer)).to.deep.equal(['/current_assignments/1']);
    expect(warnings[0]!.message).to.include('8 hours, over max_hours 5');
  });
});
