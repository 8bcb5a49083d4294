import { expect } from 'chai';
import { HOURS_EPS, hoursFit, mostReachableHours, raisedMaxHours, REACHABLE_STEPS, REACHABLE_WORK } from '../../src/rules/hours.js';
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

  it('limits the hours row to the most hours some of the shifts add up to, each shift once', () => {
    // Three 4-hour shifts: 6 hours left take one of them, 12.5 take three.
    expect(mostReachableHours([4, 4, 4], 6)).to.equal(4);
    expect(mostReachableHours([4, 4, 4], 12.5)).to.equal(12);
    expect(mostReachableHours([4, 4, 4], 3)).to.equal(0);
    // Each length once: 3 + 3 is not there to make 6 of 7 hours; with a second 3 it is.
    expect(mostReachableHours([3, 5], 7)).to.equal(5);
    expect(mostReachableHours([3, 3, 5], 7)).to.equal(6);
    // Half hours: 2.5 + 4 passes 6; 2.5 + 2.5 does not.
    expect(mostReachableHours([2.5, 4], 6)).to.equal(4);
    expect(mostReachableHours([2.5, 2.5, 4], 6)).to.equal(5);
    // Many copies of one length (split into parts of 1, 2, 4, ... copies): all 37 of 3 hours fit in 111.
    expect(mostReachableHours(Array<number>(37).fill(3), 111.5)).to.equal(111);
    expect(mostReachableHours(Array<number>(37).fill(3), 110)).to.equal(108);
  });

  it('keeps a limit the shifts can reach, or one within the tolerance of it, and one it cannot work on', () => {
    expect(mostReachableHours([4, 4, 4], 8)).to.equal(8);
    expect(mostReachableHours([4, 4, 4], 8 - HOURS_EPS / 2)).to.equal(8 - HOURS_EPS / 2);
    // Lengths that are not whole minutes: the limit as it is.
    expect(mostReachableHours([1 / 7, 4], 6)).to.equal(6);
    // More steps of the grid (here a minute) than REACHABLE_STEPS: the limit, on the grid, as it is
    // (the sums themselves are 0, 1 minute, 400 hours and 400 hours 1 minute).
    const limit = (REACHABLE_STEPS + 1030) / 60;
    expect(mostReachableHours([1 / 60, 400], limit)).to.equal(limit);
    expect(mostReachableHours([1 / 60, 400], limit - 0.5 / 60)).to.equal((REACHABLE_STEPS + 1029) / 60);
    // More work than REACHABLE_WORK (steps times the parts of the lengths): the same. 200 lengths
    // of 19,000 to 19,199 minutes, each within 19,990 minutes, no two: 19,199 minutes with the work.
    const many = Array.from({ length: 200 }, (_, i) => (19_000 + i) / 60);
    expect(19_990 * 200).to.be.above(REACHABLE_WORK);
    expect(mostReachableHours(many, 19_990 / 60)).to.equal(19_990 / 60);
    expect(mostReachableHours(many.slice(0, 50), 19_990 / 60)).to.equal(19_049 / 60);
    // No lengths, or a negative limit: the limit.
    expect(mostReachableHours([], 5)).to.equal(5);
    expect(mostReachableHours([4], -1)).to.equal(-1);
  });
});
