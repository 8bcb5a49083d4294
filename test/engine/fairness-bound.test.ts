// The fairness level's cheap bound (levels.ts fairnessLowerBound: water-filling priced by the
// model's pieces) and what it lets the engine skip: it is never above the least sum of squared
// hours an exhaustive search finds, it proves a crafted schedule at once (no LP, no MIP), and
// with work-counted stall windows a request gets the same schedule whatever its time limit when
// the limit is not what stopped it.
import { expect } from 'chai';
import fc from 'fast-check';
import { generatedInstance } from '../../bench/generate.js';
import { bestLevels, tinyRequests } from '../helpers/exhaustive.js';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { shift, solve, volunteer, type Json } from '../helpers/engine.js';

interface Level {
  name: string;
  value: number;
  bound: number;
  proven: boolean;
}
interface Sub {
  status: string;
  levels?: Level[];
  phases: Array<{ name: string; status: string }>;
}

const fairnessLevels = (result: Json): Level[] =>
  (result.diagnostics.subproblems as Sub[]).flatMap((s) => (s.levels ?? []).filter((l) => l.name === 'fairness'));

const withoutDiagnostics = (json: string): string => json.replace(/,"diagnostics":.*$/s, '');

const twoGroupsOneShift = {
  volunteers: [
    { id: 'v0', group: 'b', max_hours: 0 },
    { id: 'v1', group: 'b', max_hours: 6 },
    { id: 'v2', group: 'a', max_hours: 0 },
    { id: 'v3', group: 'a', max_hours: 0 },
    { id: 'v4', group: 'a', max_hours: 12 },
  ],
  unassigned_shifts: [{ id: 's0', start: '2026-06-06T00:00:00Z', end: '2026-06-06T01:00:00Z', required_groups: { a: 1, b: 1 } }],
};

describe('engine: the fairness bound and stopping when done', function () {
  this.timeout(120_000);

  it('prices hours on the shifts’ grid: six 2-hour shifts over four volunteers are proven at 40 by the bound alone', async () => {
    // 12 hours over 4 volunteers: water-filling at 3 hours each would say 36, but hours come in
    // 2-hour shifts, so the best is 4 + 4 + 2 + 2 hours (40), which the bound now says.
    const request = {
      volunteers: ['a', 'b', 'c', 'd'].map((id) => volunteer(id, 'k', 999)),
      unassigned_shifts: [0, 1, 2, 3, 4, 5].map((i) => shift(`s${i}`, 8 + 2 * i, 10 + 2 * i, { k: 1 })),
    };
    const { result } = await solve(request, { debug: 'true' });
    expect(checkSchedule(request, result)).to.deep.equal([]);
    expect(result.summary.sum_squared_hours).to.equal(40);
    const [fairness] = fairnessLevels(result);
    expect(fairness!.bound).to.equal(40);
    expect(fairness!.proven).to.equal(true);
    const phases = (result.diagnostics.subproblems as Sub[]).flatMap((s) => s.phases.map((p) => p.name));
    expect(phases).to.not.include('fairness_lp');
    expect(phases).to.not.include('fairness');
  });

  it('the bound is never above the least sum of squared hours of an exhaustive search (random tiny instances)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean().chain((rules) => tinyRequests(5, 5, { rules })),
        async (request) => {
          const { result } = await solve(request, { debug: 'true' });
          const levels = fairnessLevels(result);
          const bound = levels.reduce((t, l) => t + l.bound, 0);
          const best = bestLevels(request);
          // A bound from the LP or MIP includes the model's tie-break costs (formulate.ts: at most 1%
          // of the pieces' step squared in all per subproblem, the step being a shift's length at
          // most here; one group a subproblem, each with its own); levels are reported to 4 decimals.
          const hours = (request.unassigned_shifts as Json[]).map((sh) => (Date.parse(sh.end) - Date.parse(sh.start)) / 3_600_000);
          const ties = 0.01 * Math.max(0, ...hours) ** 2 * Math.max(1, levels.length);
          expect(bound, JSON.stringify({ bound, best: best.squares })).to.be.at.most(best.squares + ties + 1e-3);
        },
      ),
      // The example: two subproblems whose tie-break costs (0.0067 and 0.005) came to more than one
      // subproblem's allowance, which the check once allowed for in all (found by a CI run).
      { numRuns: 80, examples: [[twoGroupsOneShift]] },
    );
  });

  it('a larger time limit gives the same schedule when the limit did not stop the solve (festival 400 x 300, 10 s and 30 s)', async () => {
    const request = generatedInstance('festival-400x300')!.request;
    const ten = await solve(request, { debug: 'true', timeLimitS: 10 });
    const thirty = await solve(request, { debug: 'true', timeLimitS: 30 });
    // Only meaningful when the clock stopped nothing (a very busy machine could make it).
    if (ten.result.diagnostics.time_limited === false) {
      expect(thirty.result.diagnostics.time_limited).to.equal(false);
      expect(withoutDiagnostics(thirty.json)).to.equal(withoutDiagnostics(ten.json));
    } else {
      expect(checkSchedule(request, ten.result)).to.deep.equal([]);
    }
  });
});
