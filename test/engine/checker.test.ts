import { expect } from 'chai';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { shift, solve, volunteer, type Json } from '../helpers/engine.js';

// The checker must fail on wrong results, or it proves nothing.
describe('the schedule checker', () => {
  const request = {
    volunteers: [volunteer('a', 'k', 8, 'Ann'), volunteer('b', 'k', 4), volunteer('c', 'bar', 999)],
    unassigned_shifts: [shift('s1', 8, 12, { k: 1 }), shift('s2', 10, 14, { k: 1 }), shift('s3', 14, 18, { k: 2, bar: 1 })],
    current_assignments: [{ shift_id: 's1', volunteer_id: 'a' }],
  };
  let good: Json;
  before(async () => {
    good = (await solve(request)).result;
    expect(checkSchedule(request, good)).to.deep.equal([]);
  });
  const tamper = (change: (r: Json) => void): string[] => {
    const r = structuredClone(good);
    change(r);
    return checkSchedule(request, r);
  };

  it('catches a dropped lock', () => expect(tamper((r) => (r.assigned_shifts.s1 = r.assigned_shifts.s1.filter((v: string) => v !== 'a'))).join()).to.match(/not kept/));
  it('catches a wrong group', () => expect(tamper((r) => r.assigned_shifts.s2.push('c'))).to.not.be.empty);
  it('catches an overlap', () => expect(tamper((r) => (r.assigned_shifts.s2 = ['a']))).to.not.be.empty);
  it('catches a wrong fairness score', () => expect(tamper((r) => (r.fairness_score += 0.01)).join()).to.match(/fairness_score/));
  it('catches a wrong summary', () => expect(tamper((r) => (r.volunteers.a.assigned_hours += 1)).join()).to.match(/assigned_hours/));
  it('catches a missing unfilled shift', () => expect(tamper((r) => (r.unfilled_shifts = []))).to.not.be.empty);
  it('catches a false reason', () =>
    expect(tamper((r) => {
      r.conflicts[0].details = [{ code: 'max_hours', volunteer_id: 'c', assigned_hours: 0, max_hours: 999, shift_hours: 4 }];
    })).to.not.be.empty);
  it('catches an over-full shift', () => expect(tamper((r) => (r.assigned_shifts.s3 = ['a', 'b', 'c']))).to.not.be.empty);
});
