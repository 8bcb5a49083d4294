// Re-planning a published schedule (CONTRACT.md section 14) on crafted rosters: previous
// assignments are kept unless dropping one fills more slots or staffs more shifts (level 3,
// after coverage and staffing, before every wish); one that can no longer hold is dropped with a
// warning naming why; `changes` lists what was kept, dropped and added. Every result also passes
// the independent checker, which verifies `changes` and summary.previous_dropped itself.
import { expect } from 'chai';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { solve, shift, volunteer, type Json } from '../helpers/engine.js';

async function solved(request: Json): Promise<Json> {
  const { result } = await solve(request, { debug: 'true' });
  const levels = (result.diagnostics.subproblems as Json[]).flatMap((s) => (s.levels ?? []) as Json[]);
  // Checked with its diagnostics (the schema names the level 'previous'), then without.
  expect(checkSchedule(request, result)).to.deep.equal([]);
  delete result.diagnostics;
  return Object.assign(result, { levels });
}

const reasons = (result: Json): Array<[string, string, string]> => (result.changes.dropped as Json[]).map((d) => [d.volunteer_id, d.shift_id, d.reason]);

describe('engine: re-planning with previous assignments', () => {
  it('keeps the previous schedule where fairness alone would move people', async () => {
    // Without previous assignments the fairest schedule gives each of ana and ben one shift; the
    // published one gave ana both, and nothing is gained by moving one: it stays.
    const request = {
      volunteers: [volunteer('ana', 'k', 8), volunteer('ben', 'k', 8)],
      unassigned_shifts: [shift('a', 6, 10, { k: 1 }), shift('b', 10, 14, { k: 1 })],
      previous_assignments: [
        { shift_id: 'a', volunteer_id: 'ana' },
        { shift_id: 'b', volunteer_id: 'ana' },
      ],
    };
    const result = await solved(request);
    expect(result.assigned_shifts).to.deep.equal({ a: ['ana'], b: ['ana'] });
    expect(result.changes).to.deep.equal({ kept: 2, dropped: [], added: [] });
    expect(result.summary.previous_dropped).to.equal(0);
    const fresh = await solved({ ...request, previous_assignments: undefined });
    expect(fresh.volunteers.ana.assigned_hours).to.equal(4);
    expect(fresh).to.not.have.property('changes');
  });

  it('drops a previous assignment when that fills one more slot, and says it was replaced', async () => {
    // ana could do both shifts (they overlap, so only one); cy can only come for 'a'. Keeping
    // ana on 'a' leaves 'b' empty; moving her to 'b' fills both.
    const request = {
      volunteers: [volunteer('ana', 'k', 8), { ...volunteer('cy', 'k', 8), available: [{ start: '2026-06-06T06:00:00Z', end: '2026-06-06T10:00:00Z' }] }],
      unassigned_shifts: [shift('a', 6, 10, { k: 1 }), shift('b', 7, 11, { k: 1 })],
      previous_assignments: [{ shift_id: 'a', volunteer_id: 'ana' }],
    };
    const result = await solved(request);
    expect(result.assigned_shifts).to.deep.equal({ a: ['cy'], b: ['ana'] });
    expect(reasons(result)).to.deep.equal([['ana', 'a', 'replaced']]);
    expect(result.changes.kept).to.equal(0);
    expect(result.changes.added).to.deep.equal([
      { shift_id: 'a', volunteer_id: 'cy', group: 'k' },
      { shift_id: 'b', volunteer_id: 'ana', group: 'k' },
    ]);
    expect(result.summary.previous_dropped).to.equal(1);
    expect(result.warnings.filter((w: Json) => w.code === 'previous_dropped')).to.deep.equal([]);
  });

  it('drops the fewest: one cancellation moves one person, not the whole roster', async () => {
    // Six shifts, four volunteers, a published schedule; dan cancels (taken off the list). Only
    // his two shifts need someone new; every other assignment stays.
    const volunteers = ['ana', 'ben', 'cy', 'dan', 'eve'].map((id) => volunteer(id, 'k', 12));
    const shifts = [0, 1, 2, 3, 4, 5].map((i) => shift(`s${i}`, 6 + 4 * i, 10 + 4 * i, { k: 1 }));
    const previous = [
      ['s0', 'ana'],
      ['s1', 'dan'],
      ['s2', 'ben'],
      ['s3', 'dan'],
      ['s4', 'cy'],
      ['s5', 'ana'],
    ].map(([shift_id, volunteer_id]) => ({ shift_id, volunteer_id }));
    const request = { volunteers: volunteers.filter((v) => v.id !== 'dan'), unassigned_shifts: shifts, previous_assignments: previous };
    const result = await solved(request);
    expect(reasons(result)).to.deep.equal([
      ['dan', 's1', 'volunteer_removed'],
      ['dan', 's3', 'volunteer_removed'],
    ]);
    expect(result.changes.kept).to.equal(4);
    expect(result.changes.added.map((a: Json) => a.shift_id)).to.deep.equal(['s1', 's3']);
    expect(result.summary).to.include({ filled_slots: 6, previous_dropped: 2 });
    const warnings = result.warnings.filter((w: Json) => w.code === 'previous_dropped');
    expect(warnings.map((w: Json) => w.pointer)).to.deep.equal(['/previous_assignments/1', '/previous_assignments/3']);
    expect(warnings[0].message).to.equal("Volunteer 'dan' is no longer in volunteers, so their previous assignment to 's1' is dropped.");
    // Level 3 is proven: the diagnostics' level says so.
    const level = result.levels.find((l: Json) => l.name === 'previous');
    expect(level).to.include({ value: 4, bound: 4, proven: true });
  });

  it('drops, with a warning each, previous assignments that can no longer hold, and says why', async () => {
    const request = {
      volunteers: [
        { ...volunteer('ana', 'k', 8), unavailable: [{ start: '2026-06-06T07:00:00Z', end: '2026-06-06T08:00:00Z' }] },
        volunteer('ben', 'k', 8),
        volunteer('cy', 'bar', 8),
        volunteer('dee', 'k', 4),
        volunteer('eli', 'k', 8),
      ],
      unassigned_shifts: [shift('a', 6, 10, { k: 1 }), shift('b', 9, 13, { k: 2 }), shift('c', 14, 18, { k: 1 })],
      current_assignments: [
        { shift_id: 'a', volunteer_id: 'ben' },
        { shift_id: 'c', volunteer_id: 'dee' },
      ],
      previous_assignments: [
        { shift_id: 'a', volunteer_id: 'ana' }, // unavailable 07:00-08:00
        { shift_id: 'b', volunteer_id: 'ben' }, // overlaps his locked 'a'
        { shift_id: 'c', volunteer_id: 'cy' }, // 'c' asks for no bar volunteer
        { shift_id: 'b', volunteer_id: 'dee' }, // 4 h locked on 'c', max_hours 4
        { shift_id: 'gone', volunteer_id: 'eli' }, // the shift was deleted
        { shift_id: 'c', volunteer_id: 'eli' }, // its one slot is locked to dee
        { shift_id: 'a', volunteer_id: 'ben' }, // also locked: kept
        { shift_id: 'b', volunteer_id: 'eli', group: 'bar' }, // eli is not in bar
      ],
    };
    const result = await solved(request);
    expect(reasons(result)).to.deep.equal([
      ['ana', 'a', 'unavailable'],
      ['ben', 'b', 'overlap'],
      ['cy', 'c', 'group_not_required'],
      ['dee', 'b', 'max_hours'],
      ['eli', 'gone', 'shift_removed'],
      ['eli', 'c', 'headcount'],
      ['eli', 'b', 'group_not_required'],
    ]);
    expect(result.changes.kept).to.equal(1);
    const dropped = result.changes.dropped as Json[];
    expect(dropped[1]).to.include({ other_shift_id: 'a' });
    expect(dropped[0]!.message).to.equal("The previous assignment of ana to 'a' is dropped: ana is unavailable 2026-06-06 07:00-08:00 UTC.");
    expect(dropped[2]!.message).to.equal("The previous assignment of cy to 'c' is dropped: 'c' requires no volunteer of group 'bar'.");
    expect(dropped[6]!.message).to.equal("The previous assignment of eli to 'b' is dropped: eli is not in group 'bar'.");
    const warned = (result.warnings as Json[]).filter((w) => w.code === 'previous_dropped').map((w) => w.pointer);
    expect(warned).to.deep.equal([0, 1, 2, 3, 4, 5, 7].map((i) => `/previous_assignments/${i}`));
  });

  it('keeps the most of two previous assignments that a new rule puts too close, and names the one kept', async () => {
    // Published with no rest rule; now 10 h of rest apply. ana keeps 'a', and 'b' (8 h later) goes to ben.
    const request = {
      volunteers: [volunteer('ana', 'k', 12), volunteer('ben', 'k', 12)],
      unassigned_shifts: [shift('a', 6, 10, { k: 1 }), shift('b', 18, 22, { k: 1 })],
      rules: { min_rest_hours: 10 },
      previous_assignments: [
        { shift_id: 'a', volunteer_id: 'ana' },
        { shift_id: 'b', volunteer_id: 'ana' },
      ],
    };
    const result = await solved(request);
    expect(result.assigned_shifts).to.deep.equal({ a: ['ana'], b: ['ben'] });
    expect(result.changes.dropped).to.have.length(1);
    expect(result.changes.dropped[0]).to.include({ volunteer_id: 'ana', shift_id: 'b', reason: 'rest', other_shift_id: 'a' });
    expect(result.changes.added).to.deep.equal([{ shift_id: 'b', volunteer_id: 'ben', group: 'k' }]);
  });

  it('puts keeping previous assignments after staffing and before every wish (level 3)', async () => {
    // Staffing first: 'pair' needs two of k, and only ana and ben can come; ana's previous 'solo'
    // overlaps, so it is dropped to staff 'pair' fully (and cy takes 'solo').
    const staffing = {
      volunteers: [
        volunteer('ana', 'k', 8),
        volunteer('ben', 'k', 8),
        { ...volunteer('cy', 'k', 8), available: [{ start: '2026-06-06T06:00:00Z', end: '2026-06-06T10:00:00Z' }] },
      ],
      unassigned_shifts: [shift('solo', 6, 10, { k: 1 }), shift('pair', 7, 11, { k: 2 })],
      previous_assignments: [{ shift_id: 'solo', volunteer_id: 'ana' }],
    };
    const first = await solved(staffing);
    expect(first.summary).to.include({ filled_slots: 3, fully_staffed_shifts: 2, previous_dropped: 1 });
    // Before the wishes: ana asked to avoid 'a', but it was published to her and ben is no better off with it.
    const wishes = {
      volunteers: [
        { ...volunteer('ana', 'k', 8), avoid_shifts: ['a'] },
        { ...volunteer('ben', 'k', 8), preferred_shifts: ['a'] },
      ],
      unassigned_shifts: [shift('a', 6, 10, { k: 1 })],
      previous_assignments: [{ shift_id: 'a', volunteer_id: 'ana' }],
    };
    const second = await solved(wishes);
    expect(second.assigned_shifts).to.deep.equal({ a: ['ana'] });
    expect(second.summary).to.include({ previous_dropped: 0, avoided_assigned: 1, preferred_assigned: 0 });
  });

  it('keeps a previous assignment in the group it names, with additional groups', async () => {
    const request = {
      volunteers: [{ ...volunteer('ana', 'k', 8), additional_groups: ['bar'] }, volunteer('ben', 'k', 8)],
      unassigned_shifts: [shift('a', 6, 10, { k: 1, bar: 1 })],
      previous_assignments: [
        { shift_id: 'a', volunteer_id: 'ana', group: 'bar' },
        { shift_id: 'a', volunteer_id: 'ben' },
      ],
    };
    const result = await solved(request);
    expect(result.roster.map((r: Json) => [r.volunteer_id, r.group])).to.deep.equal([
      ['ana', 'bar'],
      ['ben', 'k'],
    ]);
    expect(result.changes).to.deep.equal({ kept: 2, dropped: [], added: [] });
  });

  it('counts a previous pair listed twice once, with a warning', async () => {
    const request = {
      volunteers: [volunteer('ana', 'k', 8)],
      unassigned_shifts: [shift('a', 6, 10, { k: 1 })],
      previous_assignments: [
        { shift_id: 'a', volunteer_id: 'ana' },
        { shift_id: 'a', volunteer_id: 'ana' },
      ],
    };
    const result = await solved(request);
    expect(result.changes).to.deep.equal({ kept: 1, dropped: [], added: [] });
    expect(result.warnings.map((w: Json) => [w.code, w.pointer])).to.deep.equal([['duplicate_previous', '/previous_assignments/1']]);
  });

  it('gives an empty changes for an empty previous_assignments, and keeps a 2.1 request exactly as before', async () => {
    const base = { volunteers: [volunteer('ana', 'k', 8)], unassigned_shifts: [shift('a', 6, 10, { k: 1 })] };
    const empty = await solved({ ...base, previous_assignments: [] });
    expect(empty.changes).to.deep.equal({ kept: 0, dropped: [], added: [{ shift_id: 'a', volunteer_id: 'ana', group: 'k' }] });
    const plain = await solve(base);
    expect(plain.result).to.not.have.property('changes');
    expect(plain.result.summary.previous_dropped).to.equal(0);
  });

  it('the independent checker fails on wrong changes (it proves something)', async () => {
    const request = {
      volunteers: [volunteer('ana', 'k', 8), { ...volunteer('cy', 'k', 8), available: [{ start: '2026-06-06T06:00:00Z', end: '2026-06-06T10:00:00Z' }] }],
      unassigned_shifts: [shift('a', 6, 10, { k: 1 }), shift('b', 7, 11, { k: 1 })],
      previous_assignments: [{ shift_id: 'a', volunteer_id: 'ana' }],
    };
    const result = await solved(request);
    const codes = (change: (r: Json) => void, q: Json = request): string[] => {
      const r = structuredClone(result);
      change(r);
      return checkSchedule(q, r).map((v) => `${v.code}: ${v.message}`);
    };
    expect(codes((r) => (r.changes.kept = 1))).to.deep.equal(['changes: changes.kept 1 != 0']);
    expect(codes((r) => (r.changes.dropped = []))).to.have.length(1);
    expect(codes((r) => r.changes.added.pop())).to.have.length(1);
    expect(codes((r) => (r.changes.dropped[0].reason = 'volunteer_removed'))).to.have.length(1);
    expect(codes((r) => (r.changes.dropped[0].reason = 'unavailable'))).to.deep.equal([
      'changes: dropped ana -> a: reason unavailable but the volunteer is available then',
    ]);
    expect(codes((r) => (r.summary.previous_dropped = 0))).to.deep.equal(['result_summary: summary.previous_dropped 0 != 1']);
    expect(codes((r) => delete r.changes)).to.deep.equal(['changes: changes missing although the request has previous_assignments']);
    expect(codes((r) => (r.summary.previous_dropped = 0), { ...request, previous_assignments: undefined })).to.deep.equal([
      'changes: changes given for a request without previous_assignments',
    ]);
  });
});
