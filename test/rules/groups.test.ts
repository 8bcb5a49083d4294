import { expect } from 'chai';
import { addGroup, hasGroup, headcountRows, otherGroupDetail } from '../../src/rules/groups.js';
import type { RowContext } from '../../src/rules/rows.js';
import { problemOf, shiftAt, warningsOf } from './helpers.js';

describe('rules: groups', () => {
  it("a volunteer's groups are their own group first, then additional_groups without repeats", () => {
    const [v] = problemOf({ volunteers: [{ id: 'v', group: 'k', additional_groups: ['bar', 'k', 'gate'], max_hours: 8 }] }).volunteers;
    expect(v!.groups).to.deep.equal(['k', 'bar', 'gate']);
    expect(hasGroup(v!, 'gate')).to.equal(true);
    expect(hasGroup(v!, 'medic')).to.equal(false);
  });

  it('a lock fills a slot of the first of the volunteer groups that still has room, in the order of current_assignments', () => {
    const p = problemOf({
      volunteers: [
        { id: 'a', group: 'k', additional_groups: ['bar'], max_hours: 8 },
        { id: 'b', group: 'k', additional_groups: ['bar'], max_hours: 8 },
        { id: 'c', group: 'k', additional_groups: ['bar'], max_hours: 8 },
        { id: 'd', group: 'gate', max_hours: 8 },
      ],
      unassigned_shifts: [shiftAt('s', 8, 12, { k: 1, bar: 1 })],
      current_assignments: ['a', 'b', 'c', 'd'].map((volunteer_id) => ({ shift_id: 's', volunteer_id })),
    });
    expect(p.locks.map((l) => l.group)).to.deep.equal(['k', 'bar', 'k', null]);
    const warnings = warningsOf(p);
    expect(warnings.map((w) => w.code)).to.have.members(['lock_headcount_exceeded', 'lock_group_not_required']);
    expect(warnings.find((w) => w.code === 'lock_headcount_exceeded')!.message).to.include("2 locked volunteers of group 'k' but requires 1");
  });

  it('headcount rows count new assignments and the locks that fill the same group of the same shift', () => {
    const rows: Array<{ name: string; upper: number; cols: readonly number[] }> = [];
    const slot = (group: string) => ({ index: 0, id: 's', start: 0, end: 1, hours: 1, priority: 1, day: 0, group });
    const [v] = problemOf({ volunteers: [{ id: 'v', group: 'k', additional_groups: ['bar'], max_hours: 8 }] }).volunteers;
    const ctx: RowContext = {
      volunteers: [{ ...v!, locks: [] }],
      slots: [slot('k'), slot('bar')],
      pairVolunteer: [0, 0],
      pairSlot: [0, 1],
      byVolunteer: [[0, 1]],
      bySlot: [[0], [1]],
      lockedHours: [1],
      remaining: [7],
      lockCols: [[{ col: 7, hours: 1, lock: { ...slot('bar'), locked: true } }]],
      vName: (i) => `v${i}`,
      sName: (i) => `s0_g${i}`,
      addRow: (name, _lower, upper, cols) => rows.push({ name, upper, cols }),
    };
    headcountRows(ctx, [2, 1], [0, 1]);
    expect(rows).to.deep.equal([
      { name: 'head_s0_g0', upper: 2, cols: [0] },
      { name: 'head_s0_g1', upper: 1, cols: [1, 7] },
    ]);
  });

  it('explains a member in the shift for another group, and relaxes by adding the group', () => {
    const [v] = problemOf({ volunteers: [{ id: 'v', name: 'Vi', group: 'k', additional_groups: ['bar'], max_hours: 8 }] }).volunteers;
    const other = { index: 0, id: 's', start: 0, end: 1, hours: 1, priority: 1, day: 0, group: 'bar', locked: false };
    expect(otherGroupDetail(v!, other)).to.deep.equal({
      detail: { code: 'other_group', volunteer_id: 'v', filling_group: 'bar' },
      sentence: "Vi (v) is in this shift already, filling a slot of group 'bar'.",
    });
    expect(addGroup(v!, 'gate')).to.deep.equal({ code: 'add_group', volunteer_id: 'v', group: 'gate', filled: 1 });
  });
});
