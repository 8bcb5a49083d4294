// HiGHS's options for each solve (highs-backend.ts solveOptions): its feasibility jump heuristic
// is off on every solve (RUN_FEASIBILITY_JUMP), since every MIP here starts from a schedule and on
// small MIPs the heuristic was most of the solve; the rest follows the request, and the simplex
// method is set on every solve (the dual, HiGHS's default, unless the request asks for the primal).
import { expect } from 'chai';
import type { Highs } from 'highs';
import type { PhaseRequest } from '../../src/engine/backends/backend.js';
import { CUT_POOL_LIMIT, highsBackend, loadHighs, solveOptions } from '../../src/engine/backends/highs-backend.js';
import { Budget } from '../../src/engine/budget.js';
import { MipModel } from '../../src/engine/mip-model.js';

type Model = ReturnType<Highs['createModel']>;

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
  ['a MIP with a small cut pool', base({ fewerCuts: true })],
  ['an LP relaxation', base({ relaxation: true })],
  ['an LP by the primal simplex method, capped', base({ relaxation: true, primal: true, lpIterations: 500 })],
  ['an LP by the primal simplex method after presolve', base({ relaxation: true, presolvedPrimal: true })],
];

/** HiGHS's simplex_strategy values: its default, the dual simplex method, and the primal. */
const DUAL = 1;
const PRIMAL = 4;

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
    expect(lp).to.include({ solve_relaxation: true, simplex_iteration_limit: 500, presolve: 'off', simplex_strategy: PRIMAL });
    // After presolve (HiGHS's default for it, left as it is), by the primal simplex method.
    const presolved = solveOptions(base({ relaxation: true, presolvedPrimal: true }));
    expect(presolved).to.include({ solve_relaxation: true, simplex_strategy: PRIMAL });
    expect(presolved).to.not.have.property('presolve');
    // Every other solve sets HiGHS's default method again, as options stay on an instance between solves.
    for (const req of [base(), base({ relaxation: true }), base({ fewerCuts: true })]) expect(solveOptions(req).simplex_strategy).to.equal(DUAL);
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
      h.dispose();
    }
  });

  it("a backend's session sets them on its HiGHS model at every solve, MIP or LP", async () => {
    const highs = await loadHighs();
    // The real HiGHS, keeping each model it creates, as highs-trap.test.ts does.
    const models: Model[] = [];
    const keeping = new Proxy(highs, {
      get(target, key, receiver) {
        if (key !== 'createModel') return Reflect.get(target, key, receiver) as unknown;
        return (...args: Parameters<Highs['createModel']>): Model => {
          const created = target.createModel(...args);
          models.push(created);
          return created;
        };
      },
    });
    // Two binaries, x + y <= 1, maximise 2x + y: the MIP's optimum 2, its LP's 2 as well.
    const m = new MipModel();
    const cols = [m.addCol('x', 0, 1, true), m.addCol('y', 0, 1, true)];
    m.addRow('c', -Infinity, 1, cols, [1, 1]);
    const session = highsBackend(keeping).open(m);
    try {
      const objective = { sense: 'max' as const, costs: Float64Array.of(2, 1) };
      expect(models).to.have.length(1);
      const h = models[0]!;
      // Turned on between solves, as another request's options could leave it: every solve sets it off again.
      // The LP by the primal simplex method after presolve leaves that method on the instance: the MIP after it sets the default again.
      const solves: Array<[PhaseRequest, number]> = [
        [base({ objective, start: Float64Array.of(0, 1) }), DUAL],
        [base({ objective, relaxation: true }), DUAL],
        [base({ objective, relaxation: true, presolvedPrimal: true }), PRIMAL],
        [base({ objective }), DUAL],
      ];
      for (const [req, method] of solves) {
        h.options.set({ mip_heuristic_run_feasibility_jump: true });
        const outcome = session.solve(req);
        expect(outcome.status).to.equal('optimal');
        expect(outcome.objective).to.equal(2);
        expect(h.options.get('mip_heuristic_run_feasibility_jump')).to.equal(false);
        expect(h.options.get('simplex_strategy')).to.equal(method);
      }
    } finally {
      session.dispose();
    }
  });
});
