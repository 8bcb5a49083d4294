// The stop rule of a MIP's progress reports (highs-backend.ts mipStopRule): a bound reached, a
// stall window of LP iterations without progress, and, for fairness and for the levels of wishes'
// MIP of the whole after their windows (stallGap), the
// window held open while the incumbent is far from the bound: started at the root LP, twice as
// long, and started again by a bound that closes 5% of the gap; with stallFromRoot (the MIPs of
// the coverage classes above the lowest), no window ending before the root LP is solved and one
// the root LP used up starting again there. Fed synthetic reports here; the
// engine tests (windows.test.ts) show it on a real group.
import { expect } from 'chai';
import fc from 'fast-check';
import { REAL_TOL, STALL_GAP_PROGRESS, STALL_WIDE_FACTOR } from '../../src/engine/backends/backend.js';
import { mipStopRule } from '../../src/engine/backends/highs-backend.js';

type Report = [primal: number | undefined, dual: number | undefined, work: number];

/** The work of the first report the rule stops at, or null when it runs through them all. */
function stopsAt(rule: ReturnType<typeof mipStopRule>, reports: readonly Report[]): number | null {
  for (const [primal, dual, work] of reports) if (rule(primal, dual, work)) return work;
  return null;
}

/** Reports every `step` iterations from `from` to `to` (inclusive) with the same incumbent and bound. */
const steady = (primal: number, dual: number, from: number, to: number, step = 100): Report[] =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => [primal, dual, from + i * step] as Report);

describe('engine: the MIP stop rule (bound reached, stall window, the window held open while the gap is wide)', () => {
  const stall = 2000;

  it('stops once an incumbent reaches stopAt, minimising and maximising', () => {
    expect(
      stopsAt(mipStopRule({ stopAt: 100 }, false), [
        [120, 90, 0],
        [100.5, 95, 10],
        [100, 95, 20],
      ]),
    ).to.equal(20);
    expect(
      stopsAt(mipStopRule({ stopAt: 50 }, true), [
        [40, 60, 0],
        [49.5, 55, 10],
        [50, 55, 20],
      ]),
    ).to.equal(20);
    // No incumbent yet: nothing to stop on.
    expect(
      stopsAt(mipStopRule({ stopAt: 100, stallIterations: 10 }, false), [
        [undefined, 90, 0],
        [Infinity, 90, 500],
      ]),
    ).to.equal(null);
  });

  it('without stallGap, stops stallIterations after the last better incumbent, counted from the first report; a rising bound does not count', () => {
    const rule = mipStopRule({ stallIterations: stall }, false);
    const reports: Report[] = [[120, -Infinity, 0], [120, 90, 1200], [120, 100, 1900], [118, 105, 2500], ...steady(118, 110, 2600, 6000)];
    expect(stopsAt(rule, reports)).to.equal(2500 + stall);
  });

  it('with stallFromRoot, no window ends before the root LP is solved (the first finite bound), and one the root LP used up starts again there; a shorter root LP counts', () => {
    // A start schedule of 65 reported from the first iteration; the root LP takes 12,900 iterations (a coverage class above the lowest).
    const reports: Report[] = [[65, Infinity, 0], [65, Infinity, 6000], [65, Infinity, 12000], [65, 73.9, 12900], ...steady(65, 73.5, 13000, 30000)];
    expect(stopsAt(mipStopRule({ stallIterations: 10_000, stallFromRoot: true }, true), reports)).to.equal(12900 + 10_000);
    expect(stopsAt(mipStopRule({ stallIterations: 10_000 }, true), reports)).to.equal(12000);
    // A root LP of 4,000 iterations: the window runs from the first report, as without stallFromRoot.
    const short: Report[] = [[65, Infinity, 0], [65, 70.2, 4000], ...steady(65, 70, 4100, 30000)];
    expect(stopsAt(mipStopRule({ stallIterations: 10_000, stallFromRoot: true }, true), short)).to.equal(10_000);
    expect(stopsAt(mipStopRule({ stallIterations: 10_000 }, true), short)).to.equal(10_000);
    // A better incumbent after the root starts the window again, as ever; the root starts it only once.
    const later: Report[] = [[65, Infinity, 0], [65, 73.9, 12900], [67, 69.6, 14300], ...steady(67, 69.5, 14400, 40000)];
    expect(stopsAt(mipStopRule({ stallIterations: 10_000, stallFromRoot: true }, true), later)).to.equal(14300 + 10_000);
    // No window at all: stallFromRoot alone stops nothing.
    expect(stopsAt(mipStopRule({ stallFromRoot: true }, true), reports)).to.equal(null);
  });

  it('an incumbent better by no more than REAL_TOL (round-off) does not start the window again; one better by more does', () => {
    expect(REAL_TOL).to.equal(1e-9);
    // As a coverage RINS reported it: 57, then 57.00000000000485 at 4,892 iterations.
    const maximizing = mipStopRule({ stallIterations: 5000 }, true);
    expect(
      stopsAt(maximizing, [[27, Infinity, 0], [57, 58.49, 1992], [57.00000000000485, 58.49, 4892], ...steady(57.00000000000485, 58.49, 4992, 12_000)]),
    ).to.equal(1992 + 5000);
    // Minimising, on a sum of squares: 5e-10 lower is no progress.
    const minimizing = mipStopRule({ stallIterations: stall }, false);
    expect(
      stopsAt(minimizing, [[20_001, -Infinity, 0], [20_000, 19_000, 500], [19_999.9999999995, 19_000, 1500], ...steady(19_999.9999999995, 19_000, 1600, 6000)]),
    ).to.equal(500 + stall);
    // The smallest steps the levels count (the previous assignments' bias on a count; the tie-break
    // by request order on a sum of squares, about 7e-9 between neighbouring ranks on a model of a
    // thousand pairs) still start it again.
    const biased = mipStopRule({ stallIterations: stall }, true);
    expect(stopsAt(biased, [[57, Infinity, 0], [57.0001, 60, 1500], ...steady(57.0001, 60, 1600, 6000)])).to.equal(1500 + stall);
    const tieBroken = mipStopRule({ stallIterations: stall }, false);
    expect(stopsAt(tieBroken, [[20_000, 19_000, 0], [19_999.999999993, 19_000, 1500], ...steady(19_999.999999993, 19_000, 1600, 6000)])).to.equal(1500 + stall);
  });

  it('with stallGap and a wide gap, the window starts when the root LP is solved and is STALL_WIDE_FACTOR times as long', () => {
    // Incumbent 120, known bound 100, gap threshold 1: wide. The root LP ends at 1,200 (first finite bound).
    const rule = mipStopRule({ stallIterations: stall, stallGap: { gap: 1, bound: 100 } }, false);
    const reports: Report[] = [[120, -Infinity, 0], ...steady(120, 95, 1200, 20_000)];
    expect(stopsAt(rule, reports)).to.equal(1200 + STALL_WIDE_FACTOR * stall);
  });

  it('with stallGap, a bound that closes STALL_GAP_PROGRESS of the gap starts the window again; less does not', () => {
    expect(STALL_GAP_PROGRESS).to.equal(0.05);
    const rule = mipStopRule({ stallIterations: stall, stallGap: { gap: 1, bound: 100 } }, false);
    // Gap 20 at the root (incumbent 120, bound 100); 101 closes 5% (gap 19): a restart at 3,000;
    // 101.9 closes 4.7% of 19: none, so the window runs out 4,000 after 3,000.
    const reports: Report[] = [[120, -Infinity, 0], [120, 100, 1000], [120, 101, 3000], ...steady(120, 101.9, 3100, 20_000)];
    expect(stopsAt(rule, reports)).to.equal(3000 + STALL_WIDE_FACTOR * stall);
  });

  it('with stallGap and a narrow gap, only a better incumbent counts, and the window is counted from the first iteration', () => {
    // Incumbent 100.5 against the known bound 100: within the threshold 1.
    const rule = mipStopRule({ stallIterations: stall, stallGap: { gap: 1, bound: 100 } }, false);
    const reports: Report[] = [[100.5, -Infinity, 0], [100.5, 99, 1500], [100.5, 100.2, 1800], ...steady(100.5, 100.3, 1900, 10_000)];
    expect(stopsAt(rule, reports)).to.equal(stall);
  });

  it('maximising mirrors minimising', () => {
    const rule = mipStopRule({ stallIterations: stall, stallGap: { gap: 1, bound: 100 } }, true);
    // Incumbent 80, bound 100 (the MIP's 105 is worse than the known 100): wide; 99 closes 5% of 20.
    const reports: Report[] = [[80, Infinity, 0], [80, 105, 1000], [80, 99, 3000], ...steady(80, 98.2, 3100, 20_000)];
    expect(stopsAt(rule, reports)).to.equal(3000 + STALL_WIDE_FACTOR * stall);
  });

  it('an incumbent past the bound (tolerances) has no gap: only a better incumbent counts', () => {
    const rule = mipStopRule({ stallIterations: stall, stallGap: { gap: 1, bound: 100 } }, false);
    expect(stopsAt(rule, [[99.9999, -Infinity, 0], ...steady(99.9999, 100.0001, 100, 10_000)])).to.equal(stall);
  });

  it('whatever bounds are reported (NaN, infinite, falling, rising), a steady incumbent is stopped within the restarts the gap allows', () => {
    // Incumbent 160, known bound 100, threshold 1: the gap starts at most 60 and each restart but
    // the root's cuts at least 5% of it, so at most 2 + log(60) / -log(0.95) windows in all.
    const windows = 2 + Math.ceil(Math.log(60) / -Math.log(1 - STALL_GAP_PROGRESS));
    const dual = fc.oneof(fc.constant(Number.NaN), fc.constant(Infinity), fc.constant(-Infinity), fc.double({ min: 0, max: 170, noNaN: true }));
    fc.assert(
      fc.property(fc.array(dual, { minLength: 1, maxLength: 50 }), (duals) => {
        const rule = mipStopRule({ stallIterations: stall, stallGap: { gap: 1, bound: 100 } }, false);
        const limit = windows * STALL_WIDE_FACTOR * stall;
        for (let work = 0, i = 0; work <= limit + stall; work += 100, i++) if (rule(160, duals[i % duals.length], work)) return true;
        return false;
      }),
      { numRuns: 300 },
    );
  });
});
