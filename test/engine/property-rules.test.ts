// Properties of the engine on random tiny instances, with the 2.2 rules (windows, additional
// groups, rest, daily limits in a time zone, priorities, locks) and without them (2.1 requests,
// which must keep giving 2.1's schedules): every schedule passes the independent checker, fills
// the exhaustive optimum of slots per priority class, and both backends fill the same.
import { expect } from 'chai';
import fc from 'fast-check';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { bestFilledByPriority, filledByPriority, tinyRequests } from '../helpers/exhaustive.js';
import { solve } from '../helpers/engine.js';

for (const rules of [false, true]) {
  describe(`engine: properties on random instances ${rules ? 'with the 2.2 rules' : 'of 2.1 (no 2.2 rule)'}`, function () {
    this.timeout(120_000);

    it('every result passes the independent checker', async () => {
      await fc.assert(
        fc.asyncProperty(tinyRequests(8, 8, { rules }), async (request) => {
          const { result } = await solve(request);
          expect(checkSchedule(request, result)).to.deep.equal([]);
        }),
        { numRuns: 60 },
      );
    });

    it('filled slots per priority equal an exhaustive search on tiny instances', async () => {
      await fc.assert(
        fc.asyncProperty(tinyRequests(4, 4, { rules }), async (request) => {
          const { result } = await solve(request, { debug: 'true' });
          // Coverage is proven in every subproblem (fairness may stop at its stall limit on a busy machine: not this test's subject).
          for (const sub of result.diagnostics.subproblems) expect(sub.fill_bound, sub.group).to.equal(sub.filled);
          delete result.diagnostics;
          expect(filledByPriority(request, result)).to.deep.equal(bestFilledByPriority(request));
        }),
        { numRuns: 80 },
      );
    });

    it('both backends fill the same slots per priority', async () => {
      await fc.assert(
        fc.asyncProperty(tinyRequests(5, 5, { rules }), async (request) => {
          const highs = await solve(request, { backend: 'highs' });
          const jslp = await solve(request, { backend: 'jslp' });
          expect(checkSchedule(request, jslp.result)).to.deep.equal([]);
          expect(filledByPriority(request, jslp.result)).to.deep.equal(filledByPriority(request, highs.result));
        }),
        { numRuns: 40 },
      );
    });
  });
}
