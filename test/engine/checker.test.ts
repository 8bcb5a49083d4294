// The independent checker must fail on wrong results, or it proves nothing: each test breaks
// one rule in a known-correct result (a fixture, so the expectations do not move with the
// engine) and asserts the exact violations the checker reports: their codes and the ids they
// name, including the knock-on ones (a moved volunteer also changes summaries and fairness).
import { expect } from 'chai';
import { fixture } from '../helpers/app.js';
import { checkSchedule, type Violation } from '../helpers/schedule-checker.js';
import { solve, type Json } from '../helpers/engine.js';

type Named = Omit<Violation, 'message'>;

describe('the schedule checker', () => {
  const { request, result: good } = fixture('checker/locked-kitchen.json') as { request: Json; result: Json };
  /** The violations of the good result once `change` is applied, without their messages. */
  const tamper = (change: (r: Json) => void): Named[] => {
    const r = structuredClone(good);
    change(r);
    return checkSchedule(request, r).map((violation) => {
      const named: Named & { message?: string } = { ...violation };
      delete named.message;
      return named;
    });
  };

  it('accepts the fixture result and the engine result for the same request', async () => {
    expect(checkSchedule(request, good)).to.deep.equal([]);
    expect(checkSchedule(request, (await solve(request)).result)).to.deep.equal([]);
  });

  const cases: Array<[string, (r: Json) => void, Named[]]> = [
    [
      'a dropped lock',
      (r) => (r.assigned_shifts.s1 = r.assigned_shifts.s1.filter((v: string) => v !== 'a')),
      [
        { code: 'empty_shift', shift: 's1' },
        { code: 'lock_dropped', volunteer: 'a', shift: 's1' },
        { code: 'summary_hours', volunteer: 'a' },
        { code: 'summary_shifts', volunteer: 'a' },
        { code: 'fairness_score' },
        { code: 'unfilled_shifts' },
        { code: 'conflict_count' },
        { code: 'conflict_pair', shift: 's1', group: 'k' },
      ],
    ],
    [
      'a volunteer of a group the shift does not require',
      (r) => r.assigned_shifts.s2.push('c'),
      [
        { code: 'group_not_required', volunteer: 'c', shift: 's2', group: 'bar' },
        { code: 'over_headcount', shift: 's2', group: 'bar' },
        { code: 'summary_hours', volunteer: 'c' },
        { code: 'summary_shifts', volunteer: 'c' },
        { code: 'fairness_score' },
      ],
    ],
    [
      'an overlap (and the hours past max_hours it brings)',
      (r) => (r.assigned_shifts.s2 = ['a']),
      [
        { code: 'over_max_hours', volunteer: 'a' },
        { code: 'overlap', volunteer: 'a', shift: 's1', other: 's2' },
        { code: 'summary_hours', volunteer: 'a' },
        { code: 'summary_shifts', volunteer: 'a' },
        { code: 'summary_hours', volunteer: 'b' },
        { code: 'summary_shifts', volunteer: 'b' },
        { code: 'fairness_score' },
        { code: 'false_reason', shift: 's3', group: 'k', volunteer: 'b' },
        { code: 'fillable_slot', shift: 's3', group: 'k', volunteer: 'b' },
      ],
    ],
    [
      'a wrong fairness score',
      (r) => {
        r.fairness_score = (r.fairness_score as number) + 0.01;
      },
      [{ code: 'fairness_score' }],
    ],
    [
      'a wrong summary',
      (r) => {
        r.volunteers.a.assigned_hours = (r.volunteers.a.assigned_hours as number) + 1;
      },
      [{ code: 'summary_hours', volunteer: 'a' }],
    ],
    ['a missing unfilled shift', (r) => (r.unfilled_shifts = []), [{ code: 'unfilled_shifts' }]],
    [
      'a false reason',
      (r) => (r.conflicts[0].details = [{ code: 'max_hours', volunteer_id: 'c', assigned_hours: 0, max_hours: 999, shift_hours: 4 }]),
      [{ code: 'false_reason', shift: 's3', group: 'k', volunteer: 'c' }],
    ],
    [
      'an over-full shift',
      (r) => (r.assigned_shifts.s3 = ['a', 'b', 'c']),
      [
        { code: 'over_max_hours', volunteer: 'b' },
        { code: 'summary_hours', volunteer: 'b' },
        { code: 'summary_shifts', volunteer: 'b' },
        { code: 'fairness_score' },
        { code: 'unfilled_shifts' },
        { code: 'conflict_count' },
      ],
    ],
    [
      "a shift over its headcount within everyone's hours",
      (r) => {
        r.assigned_shifts.s2 = ['a', 'b'];
        r.assigned_shifts.s3 = ['c'];
        r.volunteers.a.assigned_shifts = ['s1', 's2'];
      },
      [
        { code: 'over_headcount', shift: 's2', group: 'k' },
        { code: 'overlap', volunteer: 'a', shift: 's1', other: 's2' },
        { code: 'conflict_counts', shift: 's3', group: 'k' },
      ],
    ],
    [
      'an unknown reason code (outside the schema too)',
      (r) => r.conflicts[0].details.push({ code: 'bad_luck' }),
      [{ code: 'schema' }, { code: 'unknown_reason', shift: 's3', group: 'k' }],
    ],
  ];
  for (const [what, change, expected] of cases) {
    it(`catches ${what}`, () => expect(tamper(change)).to.deep.equal(expected));
  }
});
