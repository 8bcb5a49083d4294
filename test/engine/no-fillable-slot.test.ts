// A subproblem's schedule never leaves a slot open that a volunteer could still take: coverage
// comes first, so every schedule a level adopts (a MIP's, or a local search's that moves
// volunteers between slot kinds) is completed with what still fits (levels.ts adopt), however
// early the clock stops the levels. A fake clock that advances with every reading stops them at
// a different point in each run.
import { expect } from 'chai';
import fc from 'fast-check';
import type { SolverBackend } from '../../src/engine/backends/backend.js';
import { Budget } from '../../src/engine/budget.js';
import { prepare } from '../../src/engine/candidates.js';
import { checkAssignment, greedyFill } from '../../src/engine/greedy.js';
import { solveSubproblem } from '../../src/engine/solve-subproblem.js';
import { decompose } from '../../src/engine/subproblem.js';
import { normalizeRequest } from '../../src/input/problem.js';
import type { ScheduleRequest } from '../../src/types/schema-types.js';
import { highsOnce } from '../helpers/engine.js';
import { tinyRequests } from '../helpers/exhaustive.js';

/** A budget of `ms` on a clock that moves `step` ms at every reading. */
function ticking(ms: number, step: number): Budget {
  let t = 0;
  return new Budget(ms, () => (t += step));
}

describe('engine: no slot left open that a volunteer could take', function () {
  this.timeout(300_000);
  let highs: SolverBackend;
  before(async () => (highs = await highsOnce()));

  it('on random tiny requests with the rules and wishes, whenever the clock stops the levels', () => {
    fc.assert(
      fc.property(
        tinyRequests(12, 14, { rules: true, wishes: true }),
        fc.integer({ min: 20, max: 3000 }),
        fc.integer({ min: 1, max: 9 }),
        (request, ms, step) => {
          for (const sub of decompose(normalizeRequest(request as ScheduleRequest))) {
            const p = prepare(sub);
            const result = solveSubproblem(sub, { backend: highs, budget: ticking(ms, step) });
            const x = new Uint8Array(p.candShift.length);
            // Assignments name the request's volunteer and shift indexes and the group; pairs, the subproblem's.
            const pairOf = new Map<string, number>();
            for (let pair = 0; pair < p.candShift.length; pair++) {
              const slot = p.sub.shifts[p.candShift[pair]!]!;
              pairOf.set(`${p.sub.volunteers[p.candVolunteer[pair]!]!.index}/${slot.index}/${slot.group}`, pair);
            }
            for (const [v, s, g] of result.assignments) x[pairOf.get(`${v}/${s}/${g}`)!] = 1;
            expect(checkAssignment(p, x)).to.equal(undefined);
            const completed = greedyFill(p, x);
            expect(
              completed.every((b, pair) => b === x[pair]),
              'a volunteer still fits an open slot',
            ).to.equal(true);
          }
        },
      ),
      { numRuns: 400, seed: 1127 },
    );
  });
});
