// HiGHS's options for each solve (highs-backend.ts solveOptions): its feasibility jump heuristic
// is off on every solve (FEASIBILITY_JUMP), since every MIP here starts from a schedule and the
// heuristic cost a fixed 8-15 ms on each, however small; the rest follows the request.
import { expect } from 'chai';
import type { PhaseRequest } from '../../src/engine/backends/backend.js';
import { CUT_POOL_LIMIT, loadHighs, solveOptions } from '../../src/engine/backends/highs-backend.js';
import { Budget } from '../../src/engine/budget.js';

const base = (extra: Partial<PhaseRequest> = {}): PhaseRequest => ({
  objective: { sense: 'max', costs: Float64Array.of(1) },
  rowBounds: new Map(),
  budget: Budget.forTimeLimit(30),
  absGap: 0,
  relGap: 0,
  ...extra,
});

const requests: Array<[string, PhaseRequest]> = [
  ['a MIP', base()],
  ['a MIP with a small cut pool and a stall window', base({ fewerCuts: true, stallIterations: 2000 })],
  ['an LP relaxation', base({ relaxation: true })],
  ['an LP by the primal simplex method, capped', base({ relaxation: true, primal: true, lpIterations: 500 })],
];

describe('engine: HiGHS options for each solve', function () {
  this.timeout(60_000);

  for (const [what, req] of requests) {
    it(`turns the feasibility jump heuristic off for ${what}`, () => {
      expect(solveOptions(req).mip_heuristic_run_feasibility_jump).to.equal(false);
    });
  }

  it('follows the request for the rest', () => {
    const mip = solveOptions(base({ relGap: 0.001, absGap: 1e-6, fewerCuts: true }));
    expect(mip).to.include({ mip_rel_gap: 0.001, mip_abs_gap: 1e-6, solve_relaxation: false, mip_pool_soft_limit: CUT_POOL_LIMIT });
    expect(mip).to.not.have.property('presolve');
    const lp = solveOptions(base({ relaxation: true, primal: true, lpIterations: 500 }));
    expect(lp).to.include({ solve_relaxation: true, simplex_iteration_limit: 500, presolve: 'off' });
  });

  it('are all options this build of HiGHS knows, and it keeps the feasibility jump off once they are set', async () => {
    const highs = await loadHighs();
    const h = highs.createModel({ format: 'lp', data: 'Maximize\n obj: x + y\nSubject To\n c: x + y <= 1\nBinaries\n x y\nEnd\n' });
    try {
      expect(h.options.get('mip_heuristic_run_feasibility_jump')).to.equal(true);
      for (const [, req] of requests) {
        // HiGHS throws on an option it does not know.
        h.options.set(solveOptions(req));
        expect(h.options.get('mip_heuristic_run_feasibility_jump')).to.equal(false);
      }
    } finally {
      h[Symbol.dispose]();
    }
  });
});
