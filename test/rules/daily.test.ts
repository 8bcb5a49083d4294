import { expect } from 'chai';
import { calendarDay, dayLabel } from '../../src/input/problem.js';
import { dailyDetail, dailyFit, dailyRows, raiseMaxShiftsPerDay } from '../../src/rules/daily.js';
import type { RowContext } from '../../src/rules/rows.js';
import { problemOf, shiftAt, warningsOf } from './helpers.js';

describe('rules: shifts per day', () => {
  it('counts calendar days of the rules time zone, across DST changes', () => {
    // 2026-03-08 is the spring-forward day in Chicago: 05:59 UTC is still the 7th there, 06:00 UTC the 8th at midnight.
    expect(dayLabel(calendarDay(Date.parse('2026-03-08T05:59:00Z'), 'America/Chicago'))).to.equal('2026-03-07');
    expect(dayLabel(calendarDay(Date.parse('2026-03-08T06:00:00Z'), 'America/Chicago'))).to.equal('2026-03-08');
    // After the change the offset is -5: 04:59 UTC on the 9th is still the 8th.
    expect(dayLabel(calendarDay(Date.parse('2026-03-09T04:59:00Z'), 'America/Chicago'))).to.equal('2026-03-08');
    expect(dayLabel(calendarDay(Date.parse('2026-03-09T05:00:00Z'), 'America/Chicago'))).to.equal('2026-03-09');
    expect(dayLabel(calendarDay(Date.parse('2026-06-06T23:30:00Z'), 'UTC'))).to.equal('2026-06-06');
  });

  it('a shift belongs to the day it starts on, in the rules zone', () => {
    const p = problemOf({
      rules: { max_shifts_per_day: 1, timezone: 'America/Chicago' },
      volunteers: [{ id: 'v', group: 'k', max_hours: 999 }],
      unassigned_shifts: [shiftAt('late', 23, 26, { k: 1 })],
    });
    // 23:00 UTC on June 6 is 18:00 in Chicago: June 6.
    expect(dayLabel(p.shifts[0]!.day)).to.equal('2026-06-06');
    expect(p.volunteers[0]!.maxShiftsPerDay).to.equal(1);
  });

  it('fits below the limit, explains and relaxes at it', () => {
    const p = problemOf({
      volunteers: [{ id: 'v', group: 'k', max_hours: 999, max_shifts_per_day: 2 }],
      unassigned_shifts: [shiftAt('s', 8, 10, { k: 1 })],
    });
    const v = p.volunteers[0]!;
    expect(dailyFit(v, 1)).to.equal(true);
    expect(dailyFit(v, 2)).to.equal(false);
    expect(dailyDetail(v, 2, p.shifts[0]!)).to.deep.equal({
      detail: { code: 'max_shifts_per_day', volunteer_id: 'v', day: '2026-06-06', count: 2, max_shifts_per_day: 2 },
      sentence: 'v already has 2 shifts on 2026-06-06, their limit of 2 a day.',
    });
    expect(raiseMaxShiftsPerDay(v, 2)).to.deep.equal({ code: 'raise_max_shifts_per_day', volunteer_id: 'v', max_shifts_per_day: 3, filled: 1 });
  });

  it('writes one row per volunteer and day only where the candidates could pass the limit left by the locks', () => {
    const rows: Array<{ name: string; upper: number; cols: readonly number[] }> = [];
    const slot = (index: number, day: number) => ({ index, id: `s${index}`, start: index, end: index + 1, hours: 1, priority: 1, day, group: 'k' });
    const lock = { ...slot(9, 1), group: 'k', locked: true };
    const ctx: RowContext = {
      volunteers: [{ ...problemOf({ volunteers: [{ id: 'v', group: 'k', max_hours: 999, max_shifts_per_day: 2 }] }).volunteers[0]!, locks: [lock] }],
      slots: [slot(0, 1), slot(1, 1), slot(2, 2), slot(3, 2)],
      pairVolunteer: [0, 0, 0, 0],
      pairSlot: [0, 1, 2, 3],
      byVolunteer: [[0, 1, 2, 3]],
      bySlot: [[0], [1], [2], [3]],
      lockedHours: [1],
      remaining: [Infinity],
      lockCols: [[]],
      vName: (v) => `v${v}`,
      sName: (s) => `s${s}`,
      addRow: (name, _lower, upper, cols) => rows.push({ name, upper, cols }),
    };
    dailyRows(ctx);
    // Day 1: two candidates and a lock, limit 2 -> at most 1 new. Day 2: two candidates, limit 2 -> no row needed.
    expect(rows).to.deep.equal([{ name: 'day_v0_d1', upper: 1, cols: [0, 1] }]);
  });

  it('warns at each lock past the limit on its day', () => {
    const p = problemOf({
      volunteers: [{ id: 'v', group: 'k', max_hours: 999, max_shifts_per_day: 1 }],
      unassigned_shifts: [shiftAt('a', 8, 9, { k: 1 }), shiftAt('b', 10, 11, { k: 1 }), shiftAt('c', 12, 13, { k: 1 }), shiftAt('d', 32, 33, { k: 1 })],
      current_assignments: ['a', 'b', 'c', 'd'].map((shift_id) => ({ shift_id, volunteer_id: 'v' })),
    });
    const warnings = warningsOf(p).filter((w) => w.code === 'lock_max_shifts_per_day');
    expect(warnings.map((w) => w.pointer)).to.deep.equal(['/current_assignments/1', '/current_assignments/2']);
    expect(warnings[0]!.message).to.include('more than 1 shift starting on 2026-06-06 (UTC)');
  });
});
