// The 2.2 rules end to end, each alone: the engine honours it, the result says why a slot stays
// empty, and the suggestion names the change that fills it. Every result passes the checker.
import { expect } from 'chai';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { shift, solve, volunteer, type Json } from '../helpers/engine.js';

async function scheduled(request: Json): Promise<Json> {
  const { result } = await solve(request, { debug: 'true' });
  expect(checkSchedule(request, result)).to.deep.equal([]);
  return result;
}
const at = (h: number): string => new Date(Date.UTC(2026, 5, 6) + h * 3_600_000).toISOString().replace('.000Z', 'Z');

describe('engine: the 2.2 rules, each alone', function () {
  this.timeout(30_000);

  it('availability: a shift outside the windows stays empty, says why, and suggests extending them', async () => {
    const r = await scheduled({
      volunteers: [{ ...volunteer('v1', 'k', 999, 'Ana'), available: [{ start: at(8), end: at(13) }] }],
      unassigned_shifts: [shift('am', 8, 12, { k: 1 }), shift('pm', 13, 17, { k: 1 })],
    });
    expect(r.assigned_shifts).to.deep.equal({ am: ['v1'] });
    const [c] = r.conflicts;
    expect(c.details).to.deep.equal([{ code: 'unavailable', volunteer_id: 'v1' }]);
    expect(c.reasons[0]).to.equal('Ana (v1) is available only at other times.');
    expect(c.suggestions[0]).to.deep.equal({ code: 'extend_availability', volunteer_id: 'v1', window: { start: at(13), end: at(17) }, filled: 1 });
    expect(c.reasons[1]).to.equal(
      'Asking Ana (v1) to be available 2026-06-06 13:00-17:00 UTC would fill one more slot, and every slot filled now stays filled.',
    );
  });

  it('rest: a shift too soon after another stays empty, names the shift and the gap, and suggests the rest that works', async () => {
    const r = await scheduled({
      rules: { min_rest_hours: 10 },
      volunteers: [volunteer('v1', 'k', 999, 'Ana')],
      unassigned_shifts: [shift('day', 8, 16, { k: 1 }), shift('night', 22, 30, { k: 1 })],
    });
    expect(Object.keys(r.assigned_shifts)).to.have.length(1);
    const [c] = r.conflicts;
    expect(c.details[0]).to.include({ code: 'rest', volunteer_id: 'v1', min_rest_hours: 10, rest_hours: 6, locked: false });
    expect(c.suggestions[0]).to.deep.equal({ code: 'reduce_rest', volunteer_id: 'v1', min_rest_hours: 6, filled: 1 });
  });

  it('shifts per day: counted in the rules time zone, explained with the local date, relaxed by one', async () => {
    // 02:00 and 20:00 UTC on June 6 are 21:00 on June 5 and 15:00 on June 6 in Chicago: two local days.
    const request = {
      rules: { max_shifts_per_day: 1, timezone: 'America/Chicago' },
      volunteers: [volunteer('v1', 'k', 999, 'Ana')],
      unassigned_shifts: [shift('a', 2, 4, { k: 1 }), shift('b', 20, 22, { k: 1 }), shift('c', 23, 24, { k: 1 })],
    };
    const r = await scheduled(request);
    // a is on June 5 in Chicago; b and c both on June 6: only one of them.
    expect(r.assigned_shifts.a).to.deep.equal(['v1']);
    expect(r.unfilled_shifts).to.have.length(1);
    const [c] = r.conflicts;
    expect(c.details[0]).to.deep.equal({ code: 'max_shifts_per_day', volunteer_id: 'v1', day: '2026-06-06', count: 1, max_shifts_per_day: 1 });
    expect(c.suggestions[0]).to.deep.equal({ code: 'raise_max_shifts_per_day', volunteer_id: 'v1', max_shifts_per_day: 2, filled: 1 });
    const utc = await scheduled({ ...request, rules: { max_shifts_per_day: 1 } });
    // In UTC all three are on June 6: one shift only.
    expect(Object.keys(utc.assigned_shifts)).to.have.length(1);
  });

  it('additional groups: a volunteer fills whichever of their groups is short, one slot per shift', async () => {
    const r = await scheduled({
      volunteers: [volunteer('k1', 'kitchen', 999), { ...volunteer('kb', 'kitchen', 999), additional_groups: ['bar'] }],
      unassigned_shifts: [shift('s', 8, 12, { kitchen: 1, bar: 1 })],
    });
    expect(r.unfilled_shifts).to.deep.equal([]);
    expect(r.roster.map((x: Json) => [x.volunteer_id, x.group])).to.deep.equal([
      ['k1', 'kitchen'],
      ['kb', 'bar'],
    ]);
    const one = await scheduled({
      volunteers: [{ ...volunteer('kb', 'kitchen', 999), additional_groups: ['bar'] }],
      unassigned_shifts: [shift('s', 8, 12, { kitchen: 1, bar: 1 })],
    });
    expect(one.roster).to.have.length(1);
    expect(one.conflicts[0].details).to.deep.equal([{ code: 'other_group', volunteer_id: 'kb', filling_group: one.roster[0].group }]);
  });

  it('additional groups join groups into one subproblem, solved exactly: the flexible volunteer goes where only they can help', async () => {
    // Greedy by shift order would put the flexible f into kitchen at 8-12 (k is free at 8-12 too),
    // but the bar needs f at 10-14: exact coverage puts k in the kitchen and f in the bar.
    const r = await scheduled({
      volunteers: [volunteer('k', 'kitchen', 999), { ...volunteer('f', 'bar', 999), additional_groups: ['kitchen'] }],
      unassigned_shifts: [shift('kit', 8, 12, { kitchen: 1 }), shift('bar', 10, 14, { bar: 1 })],
    });
    expect(r.unfilled_shifts).to.deep.equal([]);
    expect(r.diagnostics.subproblems.map((s: Json) => s.group)).to.deep.equal(['kitchen + bar']);
  });

  it('priority: the higher class is filled first, even at the cost of more slots of a lower one, and the lower says so', async () => {
    const r = await scheduled({
      volunteers: [volunteer('v1', 'k', 999, 'Ana'), volunteer('v2', 'k', 999, 'Ben')],
      unassigned_shifts: [shift('low', 8, 12, { k: 2 }), { ...shift('high', 10, 14, { k: 1 }), priority: 5 }],
    });
    // Without priorities 2 slots (both in low); with them, high first: 1 + 1.
    expect(r.assigned_shifts.high).to.have.length(1);
    expect(r.assigned_shifts.low).to.have.length(1);
    const [c] = r.conflicts;
    expect(c.shift_id).to.equal('low');
    expect(c.details[0]).to.include({ code: 'higher_priority', shift_id: 'high', priority: 5 });
    expect(c.reasons[0]).to.match(/which overlaps and has a higher priority \(5 against 1\)\.$/);
  });

  it('locks that break the new rules are kept, warned about, and count for rest, days and hours', async () => {
    const r = await scheduled({
      rules: { min_rest_hours: 8, max_shifts_per_day: 2 },
      volunteers: [{ ...volunteer('v1', 'k', 999), unavailable: [{ start: at(0), end: at(12) }] }, volunteer('v2', 'k', 999)],
      unassigned_shifts: [shift('locked', 8, 10, { k: 1 }), shift('soon', 14, 16, { k: 1 }), shift('later', 20, 22, { k: 1 })],
      current_assignments: [{ shift_id: 'locked', volunteer_id: 'v1' }],
    });
    expect(r.assigned_shifts.locked).to.deep.equal(['v1']);
    expect(r.warnings.map((w: Json) => w.code)).to.include('lock_unavailable');
    // 'soon' is 4 h after the lock: not v1 (rest 8 h); v2 takes it. 'later' is 10 h after: v1 may.
    expect(r.assigned_shifts.soon).to.deep.equal(['v2']);
  });

  it('add_group names a free volunteer of another group, but not one whose lock would come to fill a slot of that group', async () => {
    // v2 (bar) is locked into s0, which requires only kitchen: with kitchen added, that lock would fill
    // s0's kitchen slot, already taken; m1 and b1 are free and are named.
    const r = await scheduled({
      volunteers: [
        volunteer('k0', 'kitchen', 8),
        { ...volunteer('m1', 'medic', 8), additional_groups: ['first-aid'] },
        volunteer('v2', 'bar', 12),
        volunteer('b1', 'bar', 12),
      ],
      unassigned_shifts: [shift('s0', 8, 10, { kitchen: 1 }), shift('s1', 10, 12, { kitchen: 2 })],
      current_assignments: [{ shift_id: 's0', volunteer_id: 'v2' }],
    });
    const c = r.conflicts.find((x: Json) => x.shift_id === 's1');
    expect(c.suggestions.filter((x: Json) => x.code === 'add_group').map((x: Json) => x.volunteer_id)).to.deep.equal(['m1', 'b1']);
  });
});
