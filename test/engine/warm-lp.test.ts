// The coverage levels of several priority classes solve their LP relaxations in a session of LPs
// alone (ObjectiveLevel.warmLp, LevelRunner.lpSessionFor): each class's LP then starts from the
// basis of the class before's, on the same model. A spy around HiGHS checks that every class's LP
// goes there, that the session runs nothing but LPs and is gone before the levels after coverage,
// that every LP after the first asks for the primal simplex method (from the last optimum), and
// that each LP's optimum is the one a fresh session finds by HiGHS's default method.
import { expect } from 'chai';
import { Budget } from '../../src/engine/budget.js';
import { solveSubproblem } from '../../src/engine/solve-subproblem.js';
import { decompose } from '../../src/engine/subproblem.js';
import { normalizeRequest } from '../../src/input/problem.js';
import { festival, withRules } from '../../bench/generate.js';
import { highsOnce, spy } from '../helpers/engine.js';

describe('engine: the LPs of the priority classes start from the class before', function () {
  this.timeout(120_000);

  it('go to one session of LPs alone, closed before staffing, each with the optimum of a fresh session', async () => {
    // A scarce festival with the rules (priorities 1-5 on every shift): one subproblem, several classes unproven by their cheap bounds.
    const request = withRules(31, festival({ seed: 32, volunteers: 40, shifts: 90, days: 2, groups: 3, demand: 1.5 }), {
      minRestHours: 8,
      timezone: 'Europe/Berlin',
      firstDay: Date.UTC(2026, 5, 5),
      days: 2,
      utcShift: -2,
    });
    const subs = decompose(normalizeRequest(request));
    const sub = subs.reduce((a, b) => (b.shifts.length > a.shifts.length ? b : a));
    const highs = await highsOnce();
    const { backend, sessions, calls } = spy(highs);
    const result = solveSubproblem(sub, { backend, budget: Budget.forTimeLimit(60) });

    const lpPhases = result.diagnostics.phases.filter((ph) => ph.name === 'coverage_lp' && !ph.note?.startsWith('the LP of groups'));
    expect(lpPhases.length, 'coverage LPs of the classes').to.be.greaterThanOrEqual(2);
    // The session whose requests are all relaxations, asked once per class LP.
    const lpOnly = sessions.findIndex((s) => s.requests.length > 0 && s.requests.every((r) => r.relaxation === true) && s.requests.length === lpPhases.length);
    expect(lpOnly, 'a session of the class LPs alone').to.be.greaterThanOrEqual(0);
    const mine = sessions[lpOnly]!;
    // Diagnostics round objectives to 4 decimals.
    mine.outcomes.forEach((o, k) => expect(o.objective).to.be.closeTo(lpPhases[k]!.objective!, 1e-4));
    // The first from nothing (HiGHS's default), each later one by the primal simplex method from the last optimum.
    expect(mine.requests.map((r) => r.primal === true)).to.deep.equal(mine.requests.map((_, k) => k > 0));
    // Gone before any later level's call: every call after its disposal is on another session.
    expect(mine.disposedAfter).to.be.greaterThan(0);
    expect(calls.slice(mine.disposedAfter).every((c) => c.session !== lpOnly)).to.equal(true);
    expect(calls.length, 'levels after coverage ran').to.be.greaterThan(mine.disposedAfter);

    // Each LP, solved cold in a fresh session with the same objective and held rows: the same optimum.
    mine.requests.forEach((req, k) => {
      const fresh = highs.open(mine.model);
      try {
        const cold = fresh.solve({ ...req, primal: false, budget: Budget.forTimeLimit(60) });
        expect(cold.status).to.equal('optimal');
        expect(cold.objective).to.be.closeTo(mine.outcomes[k]!.objective!, 1e-6);
      } finally {
        fresh.dispose();
      }
    });
  });
});
