// The independent checker must fail on wrong results, or it proves nothing: each test breaks
// one rule in a known-correct result (a fixture, so the expectations do not move with the
// engine) and asserts the exact violations the checker reports: their codes and the ids they
// name, including the knock-on ones (a moved volunteer also changes summaries and fairness).
// Some tests change the request instead: the same schedule then breaks the changed rule.
import { expect } from 'chai';
import { fixture } from '../helpers/app.js';
import { checkSchedule, type Violation } from '../helpers/schedule-checker.js';
import { bestFilledByPriority, filledByPriority } from '../helpers/exhaustive.js';
import { solve, type Json } from '../helpers/engine.js';

type Named = Omit<Violation, 'message'>;
type Change = (request: Json, result: Json) => void;
type Case = [what: string, change: Change, expected: Named[]];

/** The violations of the fixture once `change` is applied to copies of its request and result, without their messages. */
function tampered(fx: { request: Json; result: Json }, change: Change): Named[] {
  const [q, r] = [structuredClone(fx.request), structuredClone(fx.result)];
  change(q, r);
  return checkSchedule(q, r).map((violation) => {
    const named: Named & { message?: string } = { ...violation };
    delete named.message;
    return named;
  });
}

/** The roster rebuilt from assigned_shifts, keeping the entries of pairs still there (new ones fill the volunteer's group). */
function followRoster(request: Json, r: Json): void {
  const entries = new Map<string, Json>(r.roster.map((e: Json) => [`${e.volunteer_id}|${e.shift_id}`, e]));
  const locks = new Set((request.current_assignments as Json[]).map((a) => `${a.volunteer_id}|${a.shift_id}`));
  const groupOf = new Map<string, string>(request.volunteers.map((v: Json) => [v.id, v.group]));
  r.roster = (request.unassigned_shifts as Json[]).flatMap((s) =>
    ((r.assigned_shifts[s.id] ?? []) as string[]).map((vid) => {
      const key = `${vid}|${s.id}`;
      return entries.get(key) ?? { shift_id: s.id, group: groupOf.get(vid), volunteer_id: vid, locked: locks.has(key), start: s.start, end: s.end };
    }),
  );
}

const volunteerOf = (q: Json, id: string): Json => q.volunteers.find((v: Json) => v.id === id);
const shiftOf = (q: Json, id: string): Json => q.unassigned_shifts.find((s: Json) => s.id === id);
const rosterAt = (r: Json, volunteer: string, shift: string): number => r.roster.findIndex((e: Json) => e.volunteer_id === volunteer && e.shift_id === shift);
const rosterOf = (r: Json, volunteer: string, shift: string): Json => r.roster[rosterAt(r, volunteer, shift)];
/** The roster entry of the volunteer in the shift moved to another group's slot. */
const regroup =
  (volunteer: string, shift: string, group: string): Change =>
  (_q, r) =>
    (rosterOf(r, volunteer, shift).group = group);
const conflictOf = (r: Json, shift: string, group: string): Json => r.conflicts.find((c: Json) => c.shift_id === shift && c.group === group);
const detailOf = (r: Json, volunteer: string): Json => conflictOf(r, 'lunch', 'kitchen').details.find((d: Json) => d.volunteer_id === volunteer);
const suggestionOf = (r: Json, code: string, volunteer?: string): Json =>
  conflictOf(r, 'lunch', 'kitchen').suggestions.find((s: Json) => s.code === code && s.volunteer_id === volunteer);

describe('the schedule checker', () => {
  describe('on a 2.1 schedule', () => {
    const fx = fixture('checker/locked-kitchen.json') as { request: Json; result: Json };

    it('accepts the fixture result and the engine result for the same request', async () => {
      expect(checkSchedule(fx.request, fx.result)).to.deep.equal([]);
      expect(checkSchedule(fx.request, (await solve(fx.request)).result)).to.deep.equal([]);
    });

    // Each change moves volunteers in assigned_shifts; the roster follows.
    const cases: Case[] = [
      [
        'a dropped lock',
        (_q, r) => (r.assigned_shifts.s1 = r.assigned_shifts.s1.filter((v: string) => v !== 'a')),
        [
          { code: 'empty_shift', shift: 's1' },
          { code: 'lock_dropped', volunteer: 'a', shift: 's1' },
          { code: 'summary_hours', volunteer: 'a' },
          { code: 'summary_shifts', volunteer: 'a' },
          { code: 'result_summary' },
          { code: 'result_summary' },
          { code: 'result_summary' },
          { code: 'result_summary' },
          { code: 'fairness_score' },
          { code: 'unfilled_shifts' },
          { code: 'conflict_count' },
          { code: 'conflict_pair', shift: 's1', group: 'k' },
        ],
      ],
      [
        'a volunteer of a group the shift does not require',
        (_q, r) => r.assigned_shifts.s2.push('c'),
        [
          { code: 'group_not_required', volunteer: 'c', shift: 's2', group: 'bar' },
          { code: 'over_headcount', shift: 's2', group: 'bar' },
          { code: 'summary_hours', volunteer: 'c' },
          { code: 'summary_shifts', volunteer: 'c' },
          { code: 'result_summary' },
          { code: 'fairness_score' },
        ],
      ],
      [
        'an overlap (and the hours past max_hours it brings)',
        (_q, r) => (r.assigned_shifts.s2 = ['a']),
        [
          { code: 'overlap', volunteer: 'a', shift: 's1', other: 's2' },
          { code: 'over_max_hours', volunteer: 'a' },
          { code: 'summary_hours', volunteer: 'a' },
          { code: 'summary_shifts', volunteer: 'a' },
          { code: 'summary_hours', volunteer: 'b' },
          { code: 'summary_shifts', volunteer: 'b' },
          { code: 'result_summary' },
          { code: 'fairness_score' },
          { code: 'false_reason', shift: 's3', group: 'k', volunteer: 'b' },
          { code: 'fillable_slot', shift: 's3', group: 'k', volunteer: 'b' },
        ],
      ],
      [
        'a wrong fairness score',
        (_q, r) => {
          r.fairness_score = (r.fairness_score as number) + 0.01;
        },
        [{ code: 'fairness_score' }],
      ],
      [
        'a wrong summary',
        (_q, r) => {
          r.volunteers.a.assigned_hours = (r.volunteers.a.assigned_hours as number) + 1;
        },
        [{ code: 'summary_hours', volunteer: 'a' }],
      ],
      ['a missing unfilled shift', (_q, r) => (r.unfilled_shifts = []), [{ code: 'unfilled_shifts' }]],
      [
        'wishes met that the request does not give (a asked to avoid their lock s1, prefer s3 and give 10 hours)',
        (q) => Object.assign(volunteerOf(q, 'a'), { avoid_shifts: ['s1'], preferred_shifts: ['s3'], min_hours: 10 }),
        [{ code: 'summary_wishes', volunteer: 'a' }, { code: 'result_summary' }, { code: 'result_summary' }, { code: 'result_summary' }],
      ],
      [
        'a wrong value of one level in the summary',
        (_q, r) => (r.summary.sum_squared_hours = (r.summary.sum_squared_hours as number) + 1),
        [{ code: 'result_summary' }],
      ],
      ['a wrong count of slots filled by priority', (_q, r) => (r.summary.filled_by_priority['1'].filled = 5), [{ code: 'result_summary' }]],
      [
        'a named volunteer who avoids the short shift, not marked so',
        (q) => (volunteerOf(q, 'b').avoid_shifts = ['s3']),
        [{ code: 'avoided_flag', shift: 's3', group: 'k', volunteer: 'b' }],
      ],
      [
        'a named volunteer marked as avoiding a shift they did not avoid',
        (_q, r) => (r.conflicts[0].details[0].avoided = true),
        [{ code: 'avoided_flag', shift: 's3', group: 'k', volunteer: 'b' }],
      ],
      [
        'a false reason',
        (_q, r) => (r.conflicts[0].details = [{ code: 'max_hours', volunteer_id: 'c', assigned_hours: 0, max_hours: 999, shift_hours: 4 }]),
        [{ code: 'false_reason', shift: 's3', group: 'k', volunteer: 'c' }],
      ],
      [
        'an over-full shift',
        (_q, r) => (r.assigned_shifts.s3 = ['a', 'b', 'c']),
        [
          { code: 'over_max_hours', volunteer: 'b' },
          { code: 'summary_hours', volunteer: 'b' },
          { code: 'summary_shifts', volunteer: 'b' },
          { code: 'result_summary' },
          { code: 'result_summary' },
          { code: 'result_summary' },
          { code: 'result_summary' },
          { code: 'fairness_score' },
          { code: 'unfilled_shifts' },
          { code: 'conflict_count' },
        ],
      ],
      [
        "a shift over its headcount within everyone's hours",
        (_q, r) => {
          r.assigned_shifts.s2 = ['a', 'b'];
          r.assigned_shifts.s3 = ['c'];
          r.volunteers.a.assigned_shifts = ['s1', 's2'];
        },
        [
          { code: 'over_headcount', shift: 's2', group: 'k' },
          { code: 'overlap', volunteer: 'a', shift: 's1', other: 's2' },
          { code: 'result_summary' },
          { code: 'result_summary' },
          { code: 'conflict_counts', shift: 's3', group: 'k' },
          { code: 'false_suggestion', shift: 's3', group: 'k' },
        ],
      ],
      [
        'an unknown reason code (outside the schema too)',
        (_q, r) => r.conflicts[0].details.push({ code: 'bad_luck' }),
        [{ code: 'schema' }, { code: 'unknown_reason', shift: 's3', group: 'k' }],
      ],
    ];
    for (const [what, change, expected] of cases) {
      it(`catches ${what}`, () =>
        expect(
          tampered(fx, (q, r) => {
            change(q, r);
            followRoster(q, r);
          }),
        ).to.deep.equal(expected));
    }
  });

  describe('on a schedule under every 2.2 rule', () => {
    const fx = fixture('checker/rules.json') as { request: Json; result: Json };

    it('accepts the fixture result', () => expect(checkSchedule(fx.request, fx.result)).to.deep.equal([]));

    it('the fixture fills the exhaustive optimum of slots per priority', () =>
      expect(filledByPriority(fx.request, fx.result)).to.deep.equal(bestFilledByPriority(fx.request)).and.deep.equal([1, 0, 0, 1, 7]));

    it('accepts the engine result for the same request', async () => expect(checkSchedule(fx.request, (await solve(fx.request)).result)).to.deep.equal([]));

    it('compares roster times as instants', () =>
      expect(
        tampered(fx, (_q, r) => {
          for (const e of r.roster) [e.start, e.end] = [new Date(e.start).toISOString(), new Date(e.end).toISOString()];
        }),
      ).to.deep.equal([]));

    const cases: Case[] = [
      // The roster.
      ['a roster entry missing', (_q, r) => r.roster.splice(rosterAt(r, 'hal', 'dinner'), 1), [{ code: 'roster_mismatch', volunteer: 'hal', shift: 'dinner' }]],
      [
        'a roster out of order',
        (_q, r) => ([r.roster[0], r.roster[1]] = [r.roster[1], r.roster[0]]),
        [{ code: 'roster_order', volunteer: 'ana', shift: 'prep' }],
      ],
      [
        'roster times not the shift',
        (_q, r) => (rosterOf(r, 'ivy', 'lunch').start = '2026-06-06T17:30:00Z'),
        [{ code: 'roster_times', volunteer: 'ivy', shift: 'lunch' }],
      ],
      ['a new assignment marked locked', (_q, r) => (rosterOf(r, 'ivy', 'lunch').locked = true), [{ code: 'roster_locked', volunteer: 'ivy', shift: 'lunch' }]],
      [
        'a lock in a group the lock rule does not give',
        regroup('jo', 'lunch', 'driver'),
        [
          { code: 'lock_group', volunteer: 'jo', shift: 'lunch', group: 'driver' },
          { code: 'over_headcount', shift: 'lunch', group: 'driver' },
          { code: 'result_summary' },
          { code: 'result_summary' },
          { code: 'conflict_counts', shift: 'lunch', group: 'kitchen' },
          { code: 'false_suggestion', shift: 'lunch', group: 'kitchen' },
        ],
      ],
      [
        'a new assignment in a group not the volunteer’s',
        regroup('cy', 'run', 'bar'),
        [
          { code: 'wrong_group', volunteer: 'cy', shift: 'run', group: 'bar' },
          { code: 'over_headcount', shift: 'run', group: 'bar' },
          { code: 'result_summary' },
          { code: 'result_summary' },
          { code: 'result_summary' },
          { code: 'unfilled_shifts' },
          { code: 'conflict_count' },
          { code: 'conflict_pair', shift: 'run', group: 'driver' },
          { code: 'conflict_pair', shift: 'lunch', group: 'kitchen' },
        ],
      ],
      [
        'a new assignment in a group the shift does not require',
        regroup('dee', 'bar', 'kitchen'),
        [
          { code: 'group_not_required', volunteer: 'dee', shift: 'bar', group: 'kitchen' },
          { code: 'over_headcount', shift: 'bar', group: 'kitchen' },
          { code: 'result_summary' },
          { code: 'result_summary' },
          { code: 'conflict_counts', shift: 'bar', group: 'bar' },
          { code: 'false_suggestion', shift: 'bar', group: 'bar' },
        ],
      ],
      [
        'a volunteer in two slots of one shift',
        (_q, r) => r.roster.splice(rosterAt(r, 'ivy', 'lunch') + 1, 0, { ...rosterOf(r, 'ivy', 'lunch'), group: 'kitchen' }),
        [{ code: 'two_slots_one_shift', volunteer: 'ivy', shift: 'lunch', group: 'kitchen' }],
      ],
      // The rules, broken by the same schedule under a changed request.
      [
        'a new assignment outside the available windows',
        (q) => (volunteerOf(q, 'ana').available[0].end = '2026-06-06T10:00:00Z'),
        [{ code: 'unavailable', volunteer: 'ana', shift: 'prep' }],
      ],
      [
        'a new assignment overlapping an unavailable window',
        (q) => (volunteerOf(q, 'dee').unavailable = [{ start: '2026-06-06T21:00:00Z', end: '2026-06-06T23:00:00Z' }]),
        [{ code: 'unavailable', volunteer: 'dee', shift: 'bar' }],
      ],
      [
        'two shifts closer than the rest',
        (q) => (volunteerOf(q, 'gus').min_rest_hours = 14),
        [
          { code: 'rest', volunteer: 'gus', shift: 'prep', other: 'dinner' },
          { code: 'false_suggestion', shift: 'lunch', group: 'kitchen', volunteer: 'gus' },
        ],
      ],
      [
        'more shifts on a day than the limit',
        (q) => (volunteerOf(q, 'gus').max_shifts_per_day = 1),
        [
          { code: 'max_shifts_per_day', volunteer: 'gus', shift: 'prep' },
          { code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'gus' },
        ],
      ],
      [
        'days counted in UTC rather than the rules’ time zone',
        (q) => (q.rules.timezone = 'UTC'),
        [
          { code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'gus' },
          { code: 'fillable_slot', shift: 'lunch', group: 'kitchen', volunteer: 'gus' },
        ],
      ],
      [
        'a free volunteer left out (availability lifted)',
        (q) => delete volunteerOf(q, 'ana').available,
        [
          { code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'ana' },
          { code: 'fillable_slot', shift: 'lunch', group: 'kitchen', volunteer: 'ana' },
        ],
      ],
      // The reasons.
      [
        'an overlap named higher_priority at equal priority',
        (q) => delete shiftOf(q, 'run').priority,
        [{ code: 'result_summary' }, { code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'cy' }],
      ],
      [
        'an overlap with a higher-priority shift named overlap',
        (q) => (shiftOf(q, 'bar').priority = 3),
        [{ code: 'result_summary' }, { code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'dee' }],
      ],
      [
        'an overlap named locked_overlap without a lock',
        (_q, r) => (detailOf(r, 'dee').code = 'locked_overlap'),
        [{ code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'dee' }],
      ],
      ['a wrong rest gap', (_q, r) => (detailOf(r, 'fay').rest_hours = 2), [{ code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'fay' }]],
      ['a wrong daily count', (_q, r) => (detailOf(r, 'gus').count = 3), [{ code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'gus' }]],
      [
        'an unavailable window not the volunteer’s',
        (_q, r) => (detailOf(r, 'ben').window = { start: '2026-06-06T17:00:00Z', end: '2026-06-06T21:00:00Z' }),
        [{ code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'ben' }],
      ],
      [
        'a volunteer available then named unavailable',
        (_q, r) => (detailOf(r, 'ana').volunteer_id = 'cy'),
        [{ code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'cy' }],
      ],
      [
        'a wrong filling group',
        (_q, r) => (detailOf(r, 'ivy').filling_group = 'kitchen'),
        [{ code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'ivy' }],
      ],
      [
        'a volunteer in the shift named as kept out',
        (_q, r) => (detailOf(r, 'hal').volunteer_id = 'jo'),
        [{ code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'jo' }],
      ],
      ['a wrong group_too_small count', (_q, r) => (conflictOf(r, 'bar', 'bar').details[0].count = 2), [{ code: 'false_reason', shift: 'bar', group: 'bar' }]],
      [
        'a summary counting something not a rule',
        (_q, r) => conflictOf(r, 'lunch', 'kitchen').details.push({ code: 'summary', counts: { tired: 2 } }),
        [{ code: 'false_reason', shift: 'lunch', group: 'kitchen' }],
      ],
      // The suggestions.
      [
        'availability extended by a window that does not cover the shift',
        (_q, r) => (suggestionOf(r, 'extend_availability', 'ana').window.end = '2026-06-06T20:00:00Z'),
        [{ code: 'false_suggestion', shift: 'lunch', group: 'kitchen', volunteer: 'ana' }],
      ],
      [
        'rest reduced too little',
        (_q, r) => (suggestionOf(r, 'reduce_rest', 'fay').min_rest_hours = 2),
        [{ code: 'false_suggestion', shift: 'lunch', group: 'kitchen', volunteer: 'fay' }],
      ],
      [
        'a daily limit “raised” to what it is',
        (_q, r) => (suggestionOf(r, 'raise_max_shifts_per_day', 'gus').max_shifts_per_day = 2),
        [{ code: 'false_suggestion', shift: 'lunch', group: 'kitchen', volunteer: 'gus' }],
      ],
      [
        'max_hours raised too little',
        (_q, r) => (suggestionOf(r, 'raise_max_hours', 'hal').max_hours = 6),
        [{ code: 'false_suggestion', shift: 'lunch', group: 'kitchen', volunteer: 'hal' }],
      ],
      [
        'a hand-over to a volunteer who cannot take the shift',
        (_q, r) => (suggestionOf(r, 'raise_max_hours', 'hal').hand_over = { shift_id: 'dinner', volunteer_id: 'ben' }),
        [{ code: 'false_suggestion', shift: 'lunch', group: 'kitchen', volunteer: 'hal' }],
      ],
      [
        'a lock lifted that is not a lock',
        (_q, r) => (suggestionOf(r, 'remove_lock', 'eli').volunteer_id = 'dee'),
        [{ code: 'false_suggestion', shift: 'lunch', group: 'kitchen', volunteer: 'dee' }],
      ],
      [
        'a lifted lock that empties another slot',
        (_q, r) => conflictOf(r, 'lunch', 'kitchen').suggestions.push({ code: 'remove_lock', volunteer_id: 'gus', shift_id: 'dinner', filled: 1 }),
        [{ code: 'false_suggestion', shift: 'lunch', group: 'kitchen', volunteer: 'gus' }],
      ],
      [
        'a group added that the volunteer has',
        (_q, r) => (suggestionOf(r, 'add_group', 'lee').volunteer_id = 'ivy'),
        [{ code: 'false_suggestion', shift: 'lunch', group: 'kitchen', volunteer: 'ivy' }],
      ],
      [
        'a group added that is not the short one',
        (_q, r) => (suggestionOf(r, 'add_group', 'lee').group = 'bar'),
        [{ code: 'false_suggestion', shift: 'lunch', group: 'kitchen', volunteer: 'lee' }],
      ],
      [
        'too many volunteers to add',
        (_q, r) => (suggestionOf(r, 'add_volunteers').count = 2),
        [{ code: 'false_suggestion', shift: 'lunch', group: 'kitchen' }],
      ],
      [
        'a single change said to fill two slots',
        (_q, r) => (suggestionOf(r, 'reduce_rest', 'fay').filled = 2),
        [{ code: 'false_suggestion', shift: 'lunch', group: 'kitchen', volunteer: 'fay' }],
      ],
      // The lock warnings.
      [
        'a lock outside availability without its warning',
        (_q, r) => (r.warnings = r.warnings.filter((w: Json) => w.code !== 'lock_unavailable')),
        [{ code: 'lock_warning_missing', volunteer: 'jo', shift: 'lunch' }],
      ],
      [
        'locks closer than the rest without a warning',
        (q, r) => {
          volunteerOf(q, 'gus').min_rest_hours = 14;
          q.current_assignments.push({ shift_id: 'prep', volunteer_id: 'gus' });
          rosterOf(r, 'gus', 'prep').locked = true;
        },
        [
          { code: 'false_suggestion', shift: 'lunch', group: 'kitchen', volunteer: 'gus' },
          { code: 'lock_warning_missing', volunteer: 'gus', shift: 'prep', other: 'dinner' },
        ],
      ],
      [
        'locks over the daily limit without a warning',
        (q, r) => {
          volunteerOf(q, 'gus').max_shifts_per_day = 1;
          q.current_assignments.push({ shift_id: 'prep', volunteer_id: 'gus' });
          rosterOf(r, 'gus', 'prep').locked = true;
        },
        [
          { code: 'false_reason', shift: 'lunch', group: 'kitchen', volunteer: 'gus' },
          { code: 'lock_warning_missing', volunteer: 'gus', shift: 'prep' },
        ],
      ],
    ];
    for (const [what, change, expected] of cases) {
      it(`catches ${what}`, () => expect(tampered(fx, change)).to.deep.equal(expected));
    }
  });
});
