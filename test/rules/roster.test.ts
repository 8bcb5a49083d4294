import { expect } from 'chai';
import { placement } from '../../src/rules/model.js';
import { Roster } from '../../src/rules/roster.js';
import { problemOf, shiftAt } from './helpers.js';

describe('rules: the roster state', () => {
  const p = problemOf({
    volunteers: [
      {
        id: 'v',
        group: 'k',
        additional_groups: ['bar'],
        max_hours: 10,
        min_rest_hours: 2,
        max_shifts_per_day: 2,
        unavailable: [{ start: '2026-06-06T20:00:00Z', end: '2026-06-06T22:00:00Z' }],
      },
    ],
    unassigned_shifts: [
      shiftAt('a', 8, 12, { k: 1, bar: 1 }),
      shiftAt('near', 13, 14, { k: 1 }),
      shiftAt('over', 10, 11, { k: 1 }),
      shiftAt('b', 15, 18, { k: 1 }),
      shiftAt('late', 19, 21, { k: 1 }),
      shiftAt('c', 23, 23.5, { k: 1 }),
    ],
  });
  const s = (id: string) => p.shifts.find((x) => x.id === id)!;

  it('asks every rule in the explanation order and answers the first that binds', () => {
    const roster = new Roster(p.volunteers);
    roster.add(0, placement(s('a'), 'k', true));
    expect(roster.blocker(0, s('a'))).to.deep.include({ rule: 'same_shift' });
    expect(roster.blocker(0, s('late'))).to.deep.include({ rule: 'availability' });
    expect(roster.blocker(0, s('over'))).to.deep.include({ rule: 'spacing' });
    expect((roster.blocker(0, s('near')) as { other: { id: string } }).other.id).to.equal('a');
    expect(roster.blocker(0, s('b'))).to.equal(undefined);
    roster.add(0, placement(s('b'), 'k', false));
    expect(roster.blocker(0, s('c'))).to.deep.equal({ rule: 'daily', count: 2 });
    expect(roster.hours(0)).to.equal(7);
  });

  it('fits a shift when the volunteer gives another up, and forgets what was removed', () => {
    const roster = new Roster(p.volunteers);
    roster.add(0, placement(s('a'), 'k', false));
    roster.add(0, placement(s('b'), 'k', false));
    expect(roster.fits(0, s('c'))).to.equal(false); // the day's limit of 2
    expect(roster.fits(0, s('c'), s('b'))).to.equal(true);
    expect(roster.fits(0, s('near'))).to.equal(false); // 1 h after 'a', rest 2 h
    expect(roster.fits(0, s('near'), s('a'))).to.equal(false); // and 1 h before 'b'
    roster.remove(0, s('b'));
    expect(roster.fits(0, s('c'))).to.equal(true);
    expect(roster.dayCount(0, s('c').day)).to.equal(1);
    expect(roster.hours(0)).to.equal(4);
  });

  it('keeps a volunteer to one slot per shift, whichever group', () => {
    const roster = new Roster(p.volunteers);
    roster.add(0, placement(s('a'), 'bar', false));
    expect(roster.fits(0, s('a'))).to.equal(false);
    expect(roster.fits(0, s('a'), s('a'))).to.equal(true);
  });
});
