// The soft goals on crafted rosters (CONTRACT.md section 11): each wish is honored where the
// levels before it allow, in the contract's order; wishes never make a rule (an avoided shift
// still gets its volunteer when coverage needs them); and the explanations say when a named
// volunteer asked to avoid the short shift. Every result also passes the independent checker.
import { expect } from 'chai';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { solve, shift, volunteer, type Json } from '../helpers/engine.js';

async function solved(request: Json): Promise<Json> {
  const { result } = await solve(request, { debug: 'true' });
  const phases = (result.diagnostics.subproblems as Json[]).flatMap((s) => s.phases as Json[]);
  delete result.diagnostics;
  expect(checkSchedule(request, result)).to.deep.equal([]);
  return Object.assign(result, { phases });
}

describe('engine: soft goals', () => {
  it('keeps a volunteer off a shift they avoid when someone else can take it', async () => {
    const request = {
      volunteers: [{ ...volunteer('ana', 'k', 8), avoid_shifts: ['early'] }, volunteer('ben', 'k', 8)],
      unassigned_shifts: [shift('early', 6, 10, { k: 1 }), shift('late', 12, 16, { k: 1 })],
    };
    const result = await solved(request);
    expect(result.assigned_shifts).to.deep.equal({ early: ['ben'], late: ['ana'] });
    expect(result.volunteers.ana).to.include({ avoided_assigned: 0 });
    expect(result.summary.avoided_assigned).to.equal(0);
  });

  it('still puts a volunteer on an avoided shift when coverage needs them (a wish, never a rule)', async () => {
    const request = {
      volunteers: [{ ...volunteer('ana', 'k', 8), avoid_shifts: ['early'] }],
      unassigned_shifts: [shift('early', 6, 10, { k: 1 })],
    };
    const result = await solved(request);
    expect(result.assigned_shifts).to.deep.equal({ early: ['ana'] });
    expect(result.volunteers.ana.avoided_assigned).to.equal(1);
    expect(result.summary).to.include({ filled_slots: 1, avoided_assigned: 1 });
  });

  it('gives a volunteer the hours they hope for before spreading hours evenly', async () => {
    // Evenly would be 4 h each; cy asked for 8 and can have them, leaving ana and ben 2 h each.
    const request = {
      volunteers: [volunteer('ana', 'k', 12), volunteer('ben', 'k', 12), { ...volunteer('cy', 'k', 12), min_hours: 8 }],
      unassigned_shifts: [shift('a', 6, 10, { k: 1 }), shift('b', 10, 12, { k: 1 }), shift('c', 12, 14, { k: 1 }), shift('d', 14, 18, { k: 1 })],
    };
    const result = await solved(request);
    expect(result.volunteers.cy.assigned_hours).to.equal(8);
    expect(result.volunteers.cy.hours_below_min).to.equal(0);
    expect(result.summary.hours_below_min).to.equal(0);
  });

  it('reports the hours short of min_hours when no schedule reaches it', async () => {
    const request = {
      volunteers: [{ ...volunteer('ana', 'k', 6), min_hours: 10 }],
      unassigned_shifts: [shift('a', 6, 10, { k: 1 })],
    };
    const result = await solved(request);
    expect(result.volunteers.ana).to.deep.include({ assigned_hours: 4, hours_below_min: 6 });
    expect(result.summary.hours_below_min).to.equal(6);
  });

  it('gives preferred shifts where the levels before allow', async () => {
    const request = {
      volunteers: [volunteer('ana', 'k', 4), { ...volunteer('ben', 'k', 4), preferred_shifts: ['late'] }],
      unassigned_shifts: [shift('early', 6, 10, { k: 1 }), shift('late', 12, 16, { k: 1 })],
    };
    const result = await solved(request);
    expect(result.assigned_shifts).to.deep.equal({ early: ['ana'], late: ['ben'] });
    expect(result.summary.preferred_assigned).to.equal(1);
  });

  it('honors an avoided shift before the hours someone hopes for (level 4 before 5)', async () => {
    const request = {
      volunteers: [{ ...volunteer('ana', 'k', 8), avoid_shifts: ['early'], min_hours: 4 }, volunteer('ben', 'k', 8)],
      unassigned_shifts: [shift('early', 6, 10, { k: 1 })],
    };
    const result = await solved(request);
    expect(result.assigned_shifts).to.deep.equal({ early: ['ben'] });
    expect(result.summary).to.include({ avoided_assigned: 0, hours_below_min: 4 });
  });

  it('gives the hours someone hopes for before a preferred shift (level 5 before 6)', async () => {
    const request = {
      volunteers: [
        { ...volunteer('ana', 'k', 8), min_hours: 4 },
        { ...volunteer('ben', 'k', 8), preferred_shifts: ['early'] },
      ],
      unassigned_shifts: [shift('early', 6, 10, { k: 1 })],
    };
    const result = await solved(request);
    expect(result.assigned_shifts).to.deep.equal({ early: ['ana'] });
    expect(result.summary).to.include({ hours_below_min: 0, preferred_assigned: 0 });
  });

  it('gives a preferred shift before even hours (level 6 before 7)', async () => {
    const request = {
      volunteers: [volunteer('ana', 'k', 8), { ...volunteer('ben', 'k', 8), preferred_shifts: ['a', 'b'] }],
      unassigned_shifts: [shift('a', 6, 10, { k: 1 }), shift('b', 10, 14, { k: 1 })],
    };
    const result = await solved(request);
    expect(result.assigned_shifts).to.deep.equal({ a: ['ben'], b: ['ben'] });
    expect(result.summary).to.include({ preferred_assigned: 2, sum_squared_hours: 64 });
  });

  it('fills a slot before honoring a wish (level 1 before all)', async () => {
    const request = {
      volunteers: [volunteer('ana', 'k', 4), { ...volunteer('ben', 'k', 4), avoid_shifts: ['a', 'b'] }],
      unassigned_shifts: [shift('a', 6, 10, { k: 1 }), shift('b', 6, 10, { k: 1 })],
    };
    const result = await solved(request);
    expect(result.summary).to.include({ filled_slots: 2, avoided_assigned: 1 });
  });

  it('counts locked assignments in the wishes met, and keeps them', async () => {
    const request = {
      volunteers: [{ ...volunteer('ana', 'k', 8), avoid_shifts: ['early'], preferred_shifts: ['late'], min_hours: 8 }],
      unassigned_shifts: [shift('early', 6, 10, { k: 1 }), shift('late', 12, 16, { k: 1 })],
      current_assignments: [{ shift_id: 'early', volunteer_id: 'ana' }],
    };
    const result = await solved(request);
    expect(result.volunteers.ana).to.deep.include({ avoided_assigned: 1, preferred_assigned: 1, hours_below_min: 0 });
  });

  it('shows each level of wishes in the diagnostics with its value and bound', async () => {
    const request = {
      volunteers: [
        { ...volunteer('ana', 'k', 8), avoid_shifts: ['early'], min_hours: 4 },
        { ...volunteer('ben', 'k', 8), preferred_shifts: ['early'] },
      ],
      unassigned_shifts: [shift('early', 6, 10, { k: 1 }), shift('late', 12, 16, { k: 1 })],
    };
    const result = await solved(request);
    const names = (result.phases as Json[]).map((p) => p.name);
    for (const level of ['avoided', 'short', 'preferred']) {
      const shown = (result.phases as Json[]).filter((p) => p.name === level || p.name === `${level}_lp`);
      // A level proven by its LP bound needs no MIP; either way its value and bound are shown.
      expect(shown.length, `${level} in ${names.join(', ')}`).to.be.greaterThan(0);
      for (const p of shown) expect(p.objective).to.be.a('number');
    }
  });

  it('adds no level, column or phase to a request without wishes', async () => {
    const request = { volunteers: [volunteer('ana', 'k', 8), volunteer('ben', 'k', 8)], unassigned_shifts: [shift('a', 6, 10, { k: 2 })] };
    const result = await solved(request);
    expect((result.phases as Json[]).map((p) => p.name).filter((n: string) => /avoided|short|preferred/.test(n))).to.deep.equal([]);
    const lp = (await solve(request, { debug: 'lp' })).result.diagnostics.subproblems[0].lp as string;
    expect(lp).not.to.match(/short_|avoid_fix|pref_fix|min_v/);
  });

  it('says so when a volunteer named for an empty slot asked to avoid that shift', async () => {
    // ana is the only kitchen volunteer; both shifts overlap; she avoids 'b', so she works 'a'.
    const request = {
      volunteers: [{ ...volunteer('ana', 'k', 8, 'Ana'), avoid_shifts: ['b'] }],
      unassigned_shifts: [shift('a', 6, 10, { k: 1 }), shift('b', 8, 12, { k: 1 })],
    };
    const result = await solved(request);
    expect(result.assigned_shifts).to.deep.equal({ a: ['ana'] });
    const conflict = (result.conflicts as Json[])[0]!;
    expect(conflict.shift_id).to.equal('b');
    expect(conflict.details[0]).to.deep.include({ code: 'overlap', volunteer_id: 'ana', shift_id: 'a', avoided: true });
    expect(conflict.reasons[0]).to.match(/They also asked to avoid this shift \(avoid_shifts\)/);
  });
});
