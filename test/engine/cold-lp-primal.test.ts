// Coverage's LP relaxation where a subproblem has one priority class starts cold (no LP before it
// on its model, unlike the classes' LPs after the first: warm-lp.test.ts) and runs by the primal
// simplex method after presolve (ObjectiveLevel.coldLpPrimal, PhaseRequest.presolvedPrimal). A spy
// around HiGHS checks that only that LP asks for it (not coverage's MIPs, not the later levels'
// LPs), that with several classes no request does, and that its optimum is the one HiGHS's default
// (the dual simplex method) finds.
import { expect } from 'chai';
import { Budget } from '../../src/engine/budget.js';
import { coverageLevels } from '../../src/engine/levels.js';
import { solveSubproblem } from '../../src/engine/solve-subproblem.js';
import { festival } from '../../bench/generate.js';
import { expectColdOptima, highsOnce, largest, scarceWithRules, spy } from '../helpers/engine.js';

/** A scarce two-day festival's largest group, every shift of one priority: its greedy fill is below its cheap bound. */
const oneClass = () => largest(festival({ seed: 32, volunteers: 40, shifts: 90, days: 2, groups: 3, demand: 1.5 }));

describe('engine: the cold coverage LP of one priority class, by the primal simplex method after presolve', function () {
  this.timeout(120_000);

  it('is the only request that asks for it, and has the optimum of the dual simplex method', async () => {
    const sub = oneClass();
    expect(new Set(sub.shifts.map((s) => s.priority)).size, 'one priority class').to.equal(1);
    const highs = await highsOnce();
    const { backend, sessions } = spy(highs);
    const result = solveSubproblem(sub, { backend, budget: Budget.forTimeLimit(60) });

    const lpPhases = result.diagnostics.phases.filter((ph) => ph.name === 'coverage_lp');
    expect(lpPhases, "coverage's LP ran").to.have.length(1);
    const asking = sessions.flatMap((opened) => opened.requests.filter((r) => r.presolvedPrimal === true));
    expect(asking).to.have.length(1);
    expect(asking[0]).to.include({ relaxation: true });
    expect(asking[0]!.primal).to.not.equal(true);
    // Levels after coverage ran LPs and MIPs of their own, none by this method.
    const others = sessions.flatMap((opened) => opened.requests.filter((r) => r.presolvedPrimal !== true));
    expect(others.filter((r) => r.relaxation === true).length, "later levels' LPs").to.be.greaterThan(0);
    expect(others.filter((r) => r.relaxation !== true).length, 'MIPs').to.be.greaterThan(0);

    const opened = sessions.find((o) => o.requests.some((r) => r.presolvedPrimal === true))!;
    const k = opened.requests.findIndex((r) => r.presolvedPrimal === true);
    expect(opened.outcomes[k]!.status).to.equal('optimal');
    expect(opened.outcomes[k]!.objective).to.be.closeTo(lpPhases[0]!.objective!, 1e-4);
    // Solved again cold by HiGHS's default method: the same optimum.
    expectColdOptima(highs, { ...opened, requests: [opened.requests[k]!], outcomes: [opened.outcomes[k]!] });
  });

  it('is a property of the coverage level of one class only', () => {
    expect(coverageLevels([1]).map((l) => l.coldLpPrimal)).to.deep.equal([true]);
    expect(coverageLevels([3, 2, 1]).map((l) => l.coldLpPrimal === true)).to.deep.equal([false, false, false]);
  });

  it('is not asked for where the subproblem has several priority classes', async () => {
    const sub = scarceWithRules();
    expect(new Set(sub.shifts.map((s) => s.priority)).size).to.be.greaterThan(1);
    const { backend, sessions } = spy(await highsOnce());
    const result = solveSubproblem(sub, { backend, budget: Budget.forTimeLimit(60) });
    expect(result.diagnostics.phases.filter((ph) => ph.name === 'coverage_lp').length, "the classes' LPs ran").to.be.greaterThan(1);
    const requests = sessions.flatMap((opened) => opened.requests);
    expect(requests.length).to.be.greaterThan(0);
    expect(requests.filter((r) => r.presolvedPrimal === true)).to.have.length(0);
  });
});
