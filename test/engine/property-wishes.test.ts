// Properties of the soft goals on random tiny instances (2.2 rules, locks, preferred_shifts,
// avoid_shifts, min_hours): every result passes the independent checker (which verifies the
// wishes met per volunteer and the summary), every objective level from coverage to preferred
// shifts equals an exhaustive search, in order, and both backends reach the same levels.
import { expect } from 'chai';
import fc from 'fast-check';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { bestLevels, compareLevels, levelsOfResult, tinyRequests } from '../helpers/exhaustive.js';
import { solve } from '../helpers/engine.js';

/** The sum of squared hours is proven within this share of its bound (levels.ts FAIRNESS_GAP). */
const FAIRNESS_GAP = 0.01;

describe('engine: properties of the soft goals on random instances', function () {
  this.timeout(180_000);

  it('every result passes the independent checker, wishes and summary included', async () => {
    await fc.assert(
      fc.asyncProperty(tinyRequests(8, 8, { rules: true, wishes: true }), async (request) => {
        const { result } = await solve(request);
        expect(checkSchedule(request, result)).to.deep.equal([]);
      }),
      { numRuns: 60 },
    );
  });

  it('every level (coverage, staffed, avoided, short of min_hours, preferred) equals an exhaustive search, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean().chain((rules) => tinyRequests(4, 4, { rules, wishes: true })),
        async (request) => {
          const { result } = await solve(request, { debug: 'true' });
          const proven = (result.diagnostics.subproblems as Array<{ status: string }>).every((s) => s.status === 'optimal');
          delete result.diagnostics;
          const got = levelsOfResult(request, result);
          const best = bestLevels(request);
          expect(compareLevels(got, best), JSON.stringify({ got, best })).to.equal(0);
          // Fairness within its gap, when no solve stopped at a stall or the clock (a busy machine).
          if (proven) expect(got.squares).to.be.at.most(best.squares * (1 + FAIRNESS_GAP) + 1e-6);
        },
      ),

      { numRuns: 100 },
    );
  });

  it('both backends reach the same value at every level up to preferred shifts', async () => {
    await fc.assert(
      fc.asyncProperty(tinyRequests(5, 5, { rules: true, wishes: true }), async (request) => {
        const highs = await solve(request, { backend: 'highs' });
        const jslp = await solve(request, { backend: 'jslp' });
        expect(checkSchedule(request, jslp.result)).to.deep.equal([]);
        const [a, b] = [levelsOfResult(request, highs.result), levelsOfResult(request, jslp.result)];
        expect(compareLevels(a, b), JSON.stringify({ highs: a, jslp: b })).to.equal(0);
      }),
      { numRuns: 40 },
    );
  });
});
