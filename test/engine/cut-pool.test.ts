// The fairness MIPs that start near their bound ask HiGHS for a small cut pool
// (PhaseRequest.fewerCuts, highs-backend.ts CUT_POOL_LIMIT); every other MIP keeps HiGHS's default. The option is set on every solve, so a
// session that solved with the small pool solves the next request with the default again.
import { expect } from 'chai';
import fc from 'fast-check';
import type { PhaseRequest, SolverBackend } from '../../src/engine/backends/backend.js';
import { highsBackend, loadHighs } from '../../src/engine/backends/highs-backend.js';
import { Budget } from '../../src/engine/budget.js';
import { coverageLevels, FAIRNESS_STALL_GAP, fairnessLevel, preferredLevel, staffingLevel } from '../../src/engine/levels.js';
import { MipModel } from '../../src/engine/mip-model.js';

/** A multi-dimensional knapsack of binaries: `weights[k][j]` in row k, capacity `caps[k]`; maximise `values`. */
function knapsack(values: number[], weights: number[][], caps: number[]): MipModel {
  const m = new MipModel();
  const cols = values.map((_, j) => m.addCol(`x${j}`, 0, 1, true));
  weights.forEach((row, k) => m.addRow(`cap${k}`, -Infinity, caps[k]!, cols, row));
  return m;
}

const request = (values: number[], fewerCuts: boolean): PhaseRequest => ({
  objective: { sense: 'max', costs: Float64Array.from(values) },
  rowBounds: new Map(),
  budget: Budget.forTimeLimit(30),
  absGap: 0,
  relGap: 0,
  ...(fewerCuts ? { fewerCuts: true } : {}),
});

describe('engine: the fairness MIPs keep a small cut pool', function () {
  this.timeout(120_000);
  let highs: SolverBackend;
  before(async () => {
    highs = highsBackend(await loadHighs());
  });

  it('only the fairness level asks for it (its MIP, and through its request its RINS and windows), and only within FAIRNESS_STALL_GAP of the bound', () => {
    expect(fairnessLevel.mipRequest(1000, 1000).fewerCuts).to.equal(true);
    expect(fairnessLevel.mipRequest(1000, 1000 * (1 + FAIRNESS_STALL_GAP)).fewerCuts).to.equal(true);
    expect(fairnessLevel.mipRequest(1000, 1000 * (1 + 2 * FAIRNESS_STALL_GAP)).fewerCuts).to.equal(undefined);
    for (const level of [...coverageLevels([1, 2]), staffingLevel, preferredLevel]) expect(level.mipRequest(10, 10).fewerCuts).to.equal(undefined);
  });

  it('proves the same optimum with and without it, in one session and in fresh ones, in either order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 8, max: 24 }).chain((n) =>
          fc.record({
            values: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: n, maxLength: n }),
            weights: fc.array(fc.array(fc.integer({ min: 1, max: 30 }), { minLength: n, maxLength: n }), { minLength: 2, maxLength: 4 }),
            tight: fc.double({ min: 0.2, max: 0.6, noNaN: true }),
          }),
        ),
        ({ values, weights, tight }) => {
          const caps = weights.map((row) => Math.floor(row.reduce((a, b) => a + b, 0) * tight));
          const model = knapsack(values, weights, caps);
          const fresh = (fewer: boolean): number | null => {
            const session = highs.open(model);
            try {
              const outcome = session.solve(request(values, fewer));
              expect(outcome.status).to.equal('optimal');
              return outcome.objective;
            } finally {
              session.dispose();
            }
          };
          const optimum = fresh(false);
          expect(fresh(true)).to.equal(optimum);
          const session = highs.open(model);
          try {
            for (const fewer of [true, false, true]) {
              const outcome = session.solve(request(values, fewer));
              expect(outcome.status).to.equal('optimal');
              expect(outcome.objective).to.equal(optimum);
            }
          } finally {
            session.dispose();
          }
        },
      ),
      { numRuns: 25, seed: 19 },
    );
  });
});
