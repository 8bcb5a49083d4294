import { expect } from 'chai';
import { festival, generatedInstance } from '../../bench/generate.js';
import { JSLP_RINS_MAX_FREE } from '../../src/engine/backends/jslp-backend.js';
import { MAX_FAIRNESS_JSLP_COLS } from '../../src/engine/levels.js';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { filledSlots, shift, solve, volunteer, type Json } from '../helpers/engine.js';

async function scheduled(request: Json, backend: 'highs' | 'jslp' = 'highs'): Promise<Json> {
  const { result } = await solve(request, { backend });
  expect(checkSchedule(request, result)).to.deep.equal([]);
  return result;
}

describe('engine: crafted cases', () => {
  it('an empty shift list gives an empty schedule', async () => {
    const r = await scheduled({ volunteers: [volunteer('v1', 'kitchen', 8)], unassigned_shifts: [] });
    expect(r).to.deep.equal({
      assigned_shifts: {},
      unfilled_shifts: [],
      fairness_score: 0,
      conflicts: [],
      volunteers: { v1: { assigned_hours: 0, assigned_shifts: [], preferred_assigned: 0, avoided_assigned: 0, hours_below_min: 0 } },
      warnings: [],
      roster: [],
      summary: {
        demanded_slots: 0,
        filled_slots: 0,
        filled_by_priority: {},
        fully_staffed_shifts: 0,
        previous_dropped: 0,
        avoided_assigned: 0,
        hours_below_min: 0,
        preferred_assigned: 0,
        sum_squared_hours: 0,
      },
    });
  });

  it('headcount binds alone: no more volunteers than the shift requires', async () => {
    const request = {
      volunteers: [volunteer('a', 'k', 999), volunteer('b', 'k', 999), volunteer('c', 'k', 999)],
      unassigned_shifts: [shift('s', 8, 12, { k: 2 })],
    };
    const r = await scheduled(request);
    expect(r.assigned_shifts.s).to.have.length(2);
    expect(r.unfilled_shifts).to.deep.equal([]);
  });

  it('max_hours binds alone, and the reason says so exactly', async () => {
    const request = { volunteers: [volunteer('v17', 'k', 4, 'Ana Ruiz')], unassigned_shifts: [shift('am', 8, 12, { k: 1 }), shift('pm', 13, 17, { k: 1 })] };
    const r = await scheduled(request);
    expect(r.volunteers.v17.assigned_hours).to.equal(4);
    expect(r.unfilled_shifts).to.have.length(1);
    expect(r.conflicts[0].reasons).to.deep.equal([
      'Ana Ruiz (v17) has 4 of 4 hours; this shift needs 4 more.',
      'Raising the max_hours of Ana Ruiz (v17) from 4 to 8 would fill one more slot, and every slot filled now stays filled.',
      "Adding 1 volunteer to group 'k', free 2026-06-06 13:00-17:00 UTC with 4 hours to give, would fill the missing slot.",
    ]);
    expect(r.conflicts[0].details).to.deep.equal([{ code: 'max_hours', volunteer_id: 'v17', assigned_hours: 4, max_hours: 4, shift_hours: 4 }]);
    expect(r.conflicts[0].suggestions).to.deep.equal([
      { code: 'raise_max_hours', volunteer_id: 'v17', max_hours: 8, filled: 1 },
      { code: 'add_volunteers', group: 'k', count: 1, filled: 1 },
    ]);
  });

  it('overlap binds alone: never two overlapping shifts, with the overlap named', async () => {
    const request = {
      volunteers: [volunteer('v3', 'bar', 999, 'Ben Ode')],
      unassigned_shifts: [shift('bar-sat-1', 16, 20, { bar: 1 }), shift('bar-sat-2', 18, 22, { bar: 1 })],
    };
    const r = await scheduled(request);
    expect(r.volunteers.v3.assigned_shifts).to.deep.equal(['bar-sat-1']);
    expect(r.conflicts[0].reasons).to.deep.equal([
      "Ben Ode (v3) is in 'bar-sat-1' 2026-06-06 16:00-20:00 UTC, which overlaps.",
      "Adding 1 volunteer to group 'bar', free 2026-06-06 18:00-22:00 UTC with 4 hours to give, would fill the missing slot.",
    ]);
  });

  it('touching shifts (end == start) may go to one volunteer', async () => {
    const r = await scheduled({ volunteers: [volunteer('v', 'k', 999)], unassigned_shifts: [shift('a', 8, 12, { k: 1 }), shift('b', 12, 16, { k: 1 })] });
    expect(r.volunteers.v).to.deep.equal({ assigned_hours: 8, assigned_shifts: ['a', 'b'], preferred_assigned: 0, avoided_assigned: 0, hours_below_min: 0 });
  });

  it('an overnight shift counts its full length', async () => {
    const r = await scheduled({ volunteers: [volunteer('v', 'k', 8)], unassigned_shifts: [shift('night', 22, 30, { k: 1 })] });
    expect(r.volunteers.v).to.deep.equal({ assigned_hours: 8, assigned_shifts: ['night'], preferred_assigned: 0, avoided_assigned: 0, hours_below_min: 0 });
  });

  it('999 means unlimited hours', async () => {
    const shifts = Array.from({ length: 6 }, (_, i) => shift(`d${i}`, i * 24 + 8, i * 24 + 16, { k: 1 }));
    const r = await scheduled({ volunteers: [volunteer('v', 'k', 999)], unassigned_shifts: shifts });
    expect(r.volunteers.v.assigned_hours).to.equal(48);
    expect(r.unfilled_shifts).to.deep.equal([]);
  });

  it('a group nobody belongs to: its slots are unfilled with the reason, and a warning', async () => {
    const request = { volunteers: [volunteer('v', 'k', 8)], unassigned_shifts: [shift('s', 8, 12, { k: 1, medical: 1 })] };
    const r = await scheduled(request);
    expect(r.unfilled_shifts).to.deep.equal(['s']);
    expect(r.conflicts).to.deep.equal([
      {
        shift_id: 's',
        group: 'medical',
        reasons: [
          "No volunteer belongs to group 'medical'.",
          "Adding 1 volunteer to group 'medical', free 2026-06-06 08:00-12:00 UTC with 4 hours to give, would fill the missing slot.",
        ],
        required: 1,
        assigned: 0,
        missing: 1,
        details: [{ code: 'no_group_members' }],
        suggestions: [{ code: 'add_volunteers', group: 'medical', count: 1, filled: 1 }],
      },
    ]);
    expect(r.warnings.map((w: Json) => w.code)).to.deep.equal(['group_without_volunteers']);
  });

  it('a group too small: everyone is in the shift', async () => {
    const r = await scheduled({ volunteers: [volunteer('m1', 'medic', 999, 'Dr Who')], unassigned_shifts: [shift('s', 8, 12, { medic: 2 })] });
    expect(r.conflicts[0].reasons[0]).to.equal("All 1 volunteer of group 'medic' is in this shift; it needs 1 more.");
    expect(r.conflicts[0].details).to.deep.equal([{ code: 'group_too_small', count: 1 }]);
  });

  it('names at most 10 volunteers, then counts the rest per rule', async () => {
    const volunteers = Array.from({ length: 15 }, (_, i) => volunteer(`v${i}`, 'k', 4));
    const shifts = [shift('busy', 0, 4, { k: 15 }), shift('later', 10, 14, { k: 1 })];
    const r = await scheduled({ volunteers, unassigned_shifts: shifts });
    const c = r.conflicts.find((x: Json) => x.shift_id === 'later');
    expect(c.reasons[10]).to.equal('And 5 more: 5 at max_hours.');
    expect(c.details).to.have.length(11);
    expect(c.details[10]).to.deep.equal({ code: 'summary', counts: { max_hours: 5 } });
  });

  it('fills more than a greedy fill would (coverage is exact)', async () => {
    // Greedy gives the 4 h shift to x (request order), leaving nobody for the 8 h shift.
    const request = {
      volunteers: [volunteer('x', 'k', 8), volunteer('y', 'k', 4)],
      unassigned_shifts: [shift('short', 8, 12, { k: 1 }), shift('long', 12, 20, { k: 1 })],
    };
    const r = await scheduled(request);
    expect(r.unfilled_shifts).to.deep.equal([]);
    expect(r.assigned_shifts).to.deep.equal({ short: ['y'], long: ['x'] });
  });

  it('prefers fully staffed shifts at equal coverage', async () => {
    // Three volunteers, two overlapping shifts needing 2 each: 2 + 1, not a spread that leaves both short.
    const volunteers = [volunteer('a', 'k', 999), volunteer('b', 'k', 999), volunteer('c', 'k', 999)];
    const r = await scheduled({ volunteers, unassigned_shifts: [shift('one', 8, 12, { k: 2 }), shift('two', 10, 14, { k: 2 })] });
    expect(r.unfilled_shifts).to.have.length(1);
    const sizes = Object.values(r.assigned_shifts as Record<string, string[]>)
      .map((l) => l.length)
      .sort();
    expect(sizes).to.deep.equal([1, 2]);
  });

  it('spreads hours fairly at equal coverage and staffing', async () => {
    const r = await scheduled({
      volunteers: [volunteer('a', 'k', 999), volunteer('b', 'k', 999)],
      unassigned_shifts: [shift('s1', 8, 12, { k: 1 }), shift('s2', 13, 17, { k: 1 })],
    });
    expect(r.volunteers.a.assigned_hours).to.equal(4);
    expect(r.volunteers.b.assigned_hours).to.equal(4);
    expect(r.fairness_score).to.equal(0);
  });

  it('computes the contract fairness score: half at equal hours, half at none gives 1.0', async () => {
    const r = await scheduled({ volunteers: [volunteer('a', 'k', 999), volunteer('b', 'k', 0)], unassigned_shifts: [shift('s1', 8, 12, { k: 1 })] });
    expect(r.fairness_score).to.equal(1);
  });

  describe('locked assignments', () => {
    it('keeps a lock in a shift that does not require the group, and warns', async () => {
      const request = {
        volunteers: [volunteer('v', 'bar', 999)],
        unassigned_shifts: [shift('s', 8, 12, { kitchen: 1 })],
        current_assignments: [{ shift_id: 's', volunteer_id: 'v' }],
      };
      const r = await scheduled(request);
      expect(r.assigned_shifts).to.deep.equal({ s: ['v'] });
      expect(r.warnings.map((w: Json) => w.code)).to.include('lock_group_not_required');
    });

    it('keeps locks over the headcount and adds no one', async () => {
      const volunteers = [volunteer('a', 'k', 999), volunteer('b', 'k', 999), volunteer('c', 'k', 999)];
      const request = {
        volunteers,
        unassigned_shifts: [shift('s', 8, 12, { k: 1 })],
        current_assignments: [
          { shift_id: 's', volunteer_id: 'a' },
          { shift_id: 's', volunteer_id: 'b' },
        ],
      };
      const r = await scheduled(request);
      expect(r.assigned_shifts).to.deep.equal({ s: ['a', 'b'] });
      expect(r.warnings.map((w: Json) => w.code)).to.deep.equal(['lock_headcount_exceeded']);
    });

    it('keeps locks over max_hours and adds nothing more to that volunteer', async () => {
      const request = {
        volunteers: [volunteer('a', 'k', 6), volunteer('b', 'k', 999)],
        unassigned_shifts: [shift('s1', 8, 12, { k: 1 }), shift('s2', 13, 17, { k: 1 }), shift('s3', 18, 20, { k: 2 })],
        current_assignments: [
          { shift_id: 's1', volunteer_id: 'a' },
          { shift_id: 's2', volunteer_id: 'a' },
        ],
      };
      const r = await scheduled(request);
      expect(r.volunteers.a.assigned_shifts).to.deep.equal(['s1', 's2']);
      expect(r.assigned_shifts.s3).to.deep.equal(['b']);
      expect(r.warnings.map((w: Json) => w.code)).to.deep.equal(['lock_max_hours_exceeded']);
      const c = r.conflicts.find((x: Json) => x.shift_id === 's3');
      expect(c.reasons[0]).to.equal('a has 8 of 6 hours; this shift needs 2 more.');
      expect(c.suggestions).to.deep.include({
        code: 'remove_lock',
        volunteer_id: 'a',
        shift_id: 's1',
        filled: 1,
        hand_over: { shift_id: 's1', volunteer_id: 'b' },
      });
      expect(c.reasons).to.include(
        "Lifting the locked assignment of a to 's1' would fill one more slot ('s1' passing to b), and every slot filled now stays filled.",
      );
    });

    it('keeps overlapping locks and adds nothing that overlaps them', async () => {
      const request = {
        volunteers: [volunteer('a', 'k', 999)],
        unassigned_shifts: [shift('s1', 8, 12, { k: 1 }), shift('s2', 10, 14, { k: 1 }), shift('s3', 11, 13, { k: 1 }), shift('s4', 15, 16, { k: 1 })],
        current_assignments: [
          { shift_id: 's1', volunteer_id: 'a' },
          { shift_id: 's2', volunteer_id: 'a' },
        ],
      };
      const r = await scheduled(request);
      expect(r.volunteers.a.assigned_shifts).to.deep.equal(['s1', 's2', 's4']);
      expect(r.conflicts.find((x: Json) => x.shift_id === 's3').details[0]).to.deep.equal({ code: 'locked_overlap', volunteer_id: 'a', shift_id: 's1' });
      expect(r.warnings.map((w: Json) => w.code)).to.deep.equal(['lock_overlap']);
    });

    it('a locked assignment fills a slot of its group', async () => {
      const request = {
        volunteers: [volunteer('a', 'k', 999), volunteer('b', 'k', 999)],
        unassigned_shifts: [shift('s', 8, 12, { k: 2 })],
        current_assignments: [{ shift_id: 's', volunteer_id: 'b' }],
      };
      const r = await scheduled(request);
      expect(r.assigned_shifts).to.deep.equal({ s: ['a', 'b'] });
    });
  });

  it('gives a byte-identical body for the same request', async () => {
    const volunteers = Array.from({ length: 12 }, (_, i) => volunteer(`v${i}`, i % 2 ? 'bar' : 'kitchen', 6 + (i % 3) * 2));
    const shifts = Array.from({ length: 10 }, (_, i) => shift(`s${i}`, 6 + i * 2, 10 + i * 2, { kitchen: 1 + (i % 2), bar: 1 }));
    const request = { volunteers, unassigned_shifts: shifts };
    const a = await solve(request);
    const b = await solve(request);
    expect(a.json).to.equal(b.json);
    expect(checkSchedule(request, a.result)).to.deep.equal([]);
  });

  it('keeps request order in maps even for integer-like ids', async () => {
    const request = {
      volunteers: [volunteer('10', 'k', 999), volunteer('2', 'k', 999)],
      unassigned_shifts: [shift('20', 8, 12, { k: 2 }), shift('3', 13, 14, { k: 1 })],
    };
    const { json } = await solve(request);
    expect(json.indexOf('"20":')).to.be.lessThan(json.indexOf('"3":'));
    expect(json.indexOf('"10":{')).to.be.lessThan(json.indexOf('"2":{'));
    expect(JSON.parse(json).assigned_shifts['20']).to.deep.equal(['10', '2']);
  });

  it('the jslp backend gives the same coverage on these cases', async () => {
    const request = {
      volunteers: [volunteer('x', 'k', 8), volunteer('y', 'k', 4), volunteer('z', 'bar', 6)],
      unassigned_shifts: [shift('short', 8, 12, { k: 1, bar: 1 }), shift('long', 12, 20, { k: 1 }), shift('b2', 10, 14, { bar: 1 })],
    };
    const h = await scheduled(request, 'highs');
    const j = await scheduled(request, 'jslp');
    expect(filledSlots(request, j)).to.equal(filledSlots(request, h));
  });

  it('with jslp, fairness keeps to local search on models over MAX_FAIRNESS_JSLP_COLS columns, and runs its MIP at or below it', async () => {
    const fairnessPhases = async (request: Json, backend: 'highs' | 'jslp'): Promise<Array<{ variables: number; phases: Json[] }>> => {
      const { result } = await solve(request, { backend, debug: 'true' });
      expect(checkSchedule(request, result)).to.deep.equal([]);
      return (result.diagnostics.subproblems as Json[]).map((s) => ({
        variables: s.variables as number,
        phases: (s.phases as Json[]).filter((p) => ['fairness_lp', 'fairness'].includes(p.name as string)),
      }));
    };
    // The food bank's "warehouse" group: 402 columns, its fairness unproven by local search and water-filling.
    const large = generatedInstance('foodbank-60x60')!.request as unknown as Json;
    const [sub] = await fairnessPhases(large, 'jslp');
    expect(sub!.variables).to.be.above(MAX_FAIRNESS_JSLP_COLS);
    expect(sub!.phases.map((p) => [p.name, p.status])).to.deep.equal([['fairness_lp', 'skipped']]);
    expect(sub!.phases[0]!.note).to.equal(
      `${sub!.variables} columns (over ${MAX_FAIRNESS_JSLP_COLS} with javascript-lp-solver): local search and the cheap bounds only`,
    );
    // HiGHS is not held to that limit on the same model (its packing bound proves this one before any LP).
    const [withHighs] = await fairnessPhases(large, 'highs');
    expect(withHighs!.phases.filter((p) => p.status === 'skipped')).to.deep.equal([]);
    // A small festival whose fairness local search leaves unproven: jslp's MIP runs and proves it.
    const small = festival({ seed: 12, volunteers: 8, shifts: 6, days: 2, groups: 2 }) as unknown as Json;
    const mips = (await fairnessPhases(small, 'jslp')).filter((s) => s.phases.some((p) => p.name === 'fairness'));
    expect(mips).to.have.length.above(0);
    for (const s of mips) {
      expect(s.variables).to.be.at.most(MAX_FAIRNESS_JSLP_COLS);
      expect(s.phases.find((p) => p.name === 'fairness')!.status).to.equal('optimal');
    }
  });

  it("with jslp, coverage's RINS runs from jslp's LP optimum (festival-50x30's \"bar\": the LP's 29 slots, where the chains leave 28)", async () => {
    const request = generatedInstance('festival-50x30')!.request as unknown as Json;
    const { result } = await solve(request, { backend: 'jslp', debug: 'true' });
    expect(checkSchedule(request, result)).to.deep.equal([]);
    const bar = (result.diagnostics.subproblems as Json[]).find((s) => s.group === 'bar')!;
    const rins = (bar.phases as Json[]).find((p) => p.name === 'coverage_rins')!;
    expect(rins, 'a coverage_rins phase').to.not.equal(undefined);
    expect(rins.status).to.equal('optimal');
    expect(rins.objective).to.equal(29);
    const free = Number(/the MIP over the (\d+) of/.exec(rins.note as string)![1]);
    expect(free).to.be.above(0).and.at.most(JSLP_RINS_MAX_FREE);
    expect(bar.filled).to.equal(29);
    expect(bar.phases.find((p: Json) => p.name === 'augment').objective).to.equal(28);
  });
});
