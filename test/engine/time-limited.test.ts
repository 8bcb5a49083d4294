// Whether the clock stopped any work (diagnostics.time_limited): the budget records every stop by
// its deadline, shared with the budgets derived from it; a solve the clock stopped nowhere gives
// the same body on every run, and one cut short says so.
import { expect } from 'chai';
import fc from 'fast-check';
import { festival } from '../../bench/generate.js';
import { Budget } from '../../src/engine/budget.js';
import { tinyRequests } from '../helpers/exhaustive.js';
import { eRulesScarce, solve, type Json } from '../helpers/engine.js';
import { checkSchedule } from '../helpers/schedule-checker.js';

/** A budget on a clock the test moves. */
function clocked(deadline: number, cancelled = (): boolean => false): { budget: Budget; at: (t: number) => void } {
  let now = 0;
  return {
    budget: new Budget(deadline, () => now, cancelled),
    at: (t) => {
      now = t;
    },
  };
}

/** The body without its diagnostics. */
const body = (json: string): string => json.replace(/,"diagnostics":.*$/s, '');

describe('engine: time_limited (whether the clock stopped any work)', function () {
  this.timeout(120_000);

  describe('Budget', () => {
    it('records a stop only when a check finds the deadline passed', () => {
      const { budget, at } = clocked(1000);
      expect(budget.expired()).to.equal(false);
      expect(budget.timeLimited()).to.equal(false);
      at(1000);
      expect(budget.pastDeadline()).to.equal(true);
      expect(budget.timeLimited(), 'a report after the work is not a stop').to.equal(false);
      expect(budget.expired()).to.equal(true);
      expect(budget.timeLimited()).to.equal(true);
    });

    it('shares the record with every budget derived from it', () => {
      const { budget, at } = clocked(1000);
      const phase = budget.share(0.3);
      const explain = budget.atLeast(50);
      expect(phase.deadline).to.equal(300);
      at(300);
      expect(budget.expired()).to.equal(false);
      expect(budget.timeLimited()).to.equal(false);
      expect(phase.expired()).to.equal(true);
      expect(budget.timeLimited(), 'a phase cut at its share counts for the whole budget').to.equal(true);
      expect(explain.timeLimited()).to.equal(true);
      // A budget built afresh has its own record.
      expect(clocked(1000).budget.timeLimited()).to.equal(false);
    });

    it('records a step left out for want of time, and a solver that ran into its own limit', () => {
      const a = clocked(1000);
      expect(a.budget.tooShort(0.5)).to.equal(false);
      expect(a.budget.timeLimited()).to.equal(false);
      a.at(990);
      expect(a.budget.tooShort(0.02)).to.equal(true);
      expect(a.budget.timeLimited()).to.equal(true);
      const b = clocked(1000);
      b.budget.share(0.5).ranOut();
      expect(b.budget.timeLimited()).to.equal(true);
    });

    it('does not count a cancellation as a stop by the clock', () => {
      let cancelled = false;
      const { budget, at } = clocked(1000, () => cancelled);
      cancelled = true;
      expect(budget.expired()).to.equal(true);
      at(2000);
      expect(budget.expired()).to.equal(true);
      expect(budget.tooShort(1)).to.equal(true);
      budget.ranOut();
      expect(budget.timeLimited()).to.equal(false);
    });
  });

  it('random tiny instances: never time-limited, and the same body on a second solve', async () => {
    await fc.assert(
      fc.asyncProperty(tinyRequests(8, 8, { rules: true }), async (request) => {
        const a = await solve(request, { debug: 'true' });
        const b = await solve(request, { debug: 'true' });
        expect(a.result.diagnostics.time_limited).to.equal(false);
        expect(a.result.diagnostics.subproblems.map((s: Json) => s.time_limited)).to.not.include(true);
        expect(body(a.json)).to.equal(body(b.json));
      }),
      { numRuns: 30 },
    );
  });

  it('says so when the time limit cuts the solve short, on the subproblems it cut', async () => {
    // Demand far above supply: coverage alone has seconds of work in each group.
    const request: Json = festival({ seed: 5, volunteers: 150, shifts: 400, days: 3, groups: 4, demand: 1.5, caps: [8, 10, 12, 16] });
    const { result } = await solve(request, { debug: 'true', timeLimitS: 1 });
    expect(checkSchedule(request, result)).to.deep.equal([]);
    const subs = result.diagnostics.subproblems as Json[];
    expect(result.diagnostics.time_limited).to.equal(true);
    expect(subs.some((s) => s.time_limited === true)).to.equal(true);
    // A subproblem the clock cut has a step that shows it: out of time, or unproven.
    for (const s of subs.filter((x) => x.time_limited === true)) {
      expect(s.phases.some((ph: Json) => ph.status === 'timedout') || s.status === 'feasible', s.group).to.equal(true);
    }
  });

  it('where coverage runs to the clock, gives fairness its packing bound in the time the explanations left', async () => {
    // BENCHMARKS.md's e-rules-scarce-150x300: five priority classes in one joined subproblem, whose
    // coverage runs to any limit under a minute. Before, fairness kept water-filling's bound (8,182
    // against 22,210 at 10 s, 171%); the packing bound, run after the explanations, gave 20,066.
    const request = eRulesScarce();
    const { result } = await solve(request, { debug: 'true', timeLimitS: 10 });
    expect(checkSchedule(request, result)).to.deep.equal([]);
    const [sub] = result.diagnostics.subproblems as Json[];
    const phases = sub!.phases as Json[];
    const names = phases.map((ph) => ph.name as string);
    const levels = sub!.levels as Json[];
    // Coverage was cut by the clock: its last class is unproven.
    expect(sub!.time_limited).to.equal(true);
    expect(
      levels.filter((l) => l.name === 'coverage').some((l) => l.proven === false),
      JSON.stringify(levels),
    ).to.equal(true);
    // The packing bound ran last, after the explanations, above water-filling's bound, and is fairness's bound.
    const balance = phases.find((ph) => ph.name === 'balance')!;
    const first = phases.findIndex((ph) => /after the explanations/.test((ph.note as string | undefined) ?? ''));
    expect(first, JSON.stringify(names)).to.be.above(names.indexOf('balance'));
    const packed = phases.slice(first);
    expect(packed.map((ph) => ph.name)).to.deep.equal(packed.map(() => 'fairness_bound'));
    for (const ph of packed) expect(ph.note).to.match(/; after the explanations, in the time they left, on the final schedule, which it does not change$/);
    const late = Math.max(...packed.map((ph) => ph.bound as number));
    expect(late).to.be.above(balance.bound * 1.5);
    const fairness = levels.find((l) => l.name === 'fairness')!;
    expect(fairness.bound).to.be.at.least(late - 0.001);
    const squares = Object.values(result.volunteers as Record<string, { assigned_hours: number }>).reduce((t, v) => t + v.assigned_hours ** 2, 0);
    expect(squares).to.be.at.least(fairness.bound - 0.01);
    expect(fairness.value).to.be.closeTo(squares, 0.01);
  });

  it('where staffing runs to the clock in subproblems of one group, gives fairness the packing bound its own run did not finish', async () => {
    // The unseen k-scarce-200x450 of BENCHMARKS.md (the nineteenth session): six groups, demand 1.4
    // x supply. Staffing's RINS, MIP and windows run to the clock in most groups; fairness's bound by
    // slot then had 19-55 ms and stopped unconverged, and the level kept water-filling's bound
    // (7.65% reported in all at 10 s). At 20 s: on a slower machine (the thirty-fourth session's)
    // the late bounds had 85-280 ms at 10 s and in two runs of three none converged (this test
    // failed); at 20 s staffing still runs to the clock and they had 100-530 ms, raising the
    // bound of 3-5 subproblems in each of the runs measured.
    const request = festival({ seed: 1602, volunteers: 200, shifts: 450, days: 3, groups: 6, demand: 1.4 });
    const { result } = await solve(request, { debug: 'true', timeLimitS: 20 });
    expect(checkSchedule(request, result)).to.deep.equal([]);
    const late = /; after the explanations, in the time they left, on the final schedule, which it does not change$/;
    let raised = 0;
    for (const sub of result.diagnostics.subproblems as Json[]) {
      const phases = sub.phases as Json[];
      const fairness = (sub.levels as Json[]).find((l) => l.name === 'fairness')!;
      const first = phases.findIndex((ph) => late.test((ph.note as string | undefined) ?? ''));
      const before = first < 0 ? phases : phases.slice(0, first);
      // A bound by slot that converged before (the LP over configurations solved): none after.
      const settled = before.some((ph) => ph.name === 'fairness_bound' && ph.status === 'optimal' && /slot kinds of shifts/.test(ph.note as string));
      if (settled) expect(first, JSON.stringify(phases)).to.equal(-1);
      if (first < 0) continue;
      // After the explanations: only bounds, each noted so, on a subproblem the clock stopped somewhere, fairness unproven before.
      const after = phases.slice(first);
      expect(after.map((ph) => ph.name)).to.deep.equal(after.map(() => 'fairness_bound'));
      for (const ph of after) expect(ph.note).to.match(late);
      expect(sub.time_limited).to.equal(true);
      // The level's bound is the best of what it had and these.
      for (const ph of after) expect(fairness.bound).to.be.at.least((ph.bound as number) - 1e-3);
      // Raised by these: above every fairness bound the subproblem had before them (water-filling's, the level's own).
      const had = Math.max(
        ...before.filter((ph) => /^(balance|fairness)/.test(ph.name as string) && typeof ph.bound === 'number').map((ph) => ph.bound as number),
      );
      if (Math.max(...after.map((ph) => ph.bound as number)) > had + 1) raised++;
      expect(fairness.value).to.be.at.least(fairness.bound - 1e-3);
    }
    expect(raised, 'subproblems whose fairness bound the late packing bound raised').to.be.above(0);
  });
});
