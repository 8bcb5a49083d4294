// HiGHS (npm `highs`, compiled to WebAssembly) as a persistent model: loaded once per worker,
// the model is passed once per subproblem, and each phase only changes costs and row bounds,
// starts from the incumbent (a MIP start) and may stop early through the interrupt callback.
import highsModule, { type Highs } from 'highs';
import type { MipModel } from '../mip-model.js';
import { integralWithinBounds, roundIntegers, type PhaseOutcome, type PhaseRequest, type PhaseStatus, type SolverBackend, type SolverSession } from './backend.js';

/** Every HiGHS model status, mapped: [status when a valid solution came back, status without]. */
const STATUS_TABLE: Record<number, [PhaseStatus, PhaseStatus]> = {
  0: ['error', 'error'], // notSet
  1: ['error', 'error'], // loadError
  2: ['error', 'error'], // modelError
  3: ['error', 'error'], // presolveError
  4: ['error', 'error'], // solveError
  5: ['error', 'error'], // postsolveError
  6: ['optimal', 'optimal'], // empty
  7: ['optimal', 'error'], // optimal
  8: ['infeasible', 'infeasible'], // infeasible
  9: ['error', 'error'], // unboundedOrInfeasible
  10: ['error', 'error'], // unbounded
  11: ['feasible', 'timedout'], // objectiveBound
  12: ['feasible', 'timedout'], // objectiveTarget
  13: ['feasible', 'timedout'], // timeLimit
  14: ['feasible', 'timedout'], // iterationLimit
  15: ['feasible', 'error'], // unknown
  16: ['feasible', 'timedout'], // solutionLimit
  17: ['feasible', 'timedout'], // interrupted
};

// The package is typed as CommonJS but loaded as ESM: take the loader from either shape.
type Loader = () => Promise<Highs>;
const highsLoader = ((highsModule as unknown as { default?: Loader }).default ?? highsModule) as unknown as Loader;

export async function loadHighs(): Promise<Highs> {
  return highsLoader();
}

export function highsBackend(highs: Highs): SolverBackend {
  return {
    name: 'highs',
    open(model: MipModel): SolverSession {
      const h = highs.createModel({
        numCols: model.numCols,
        numRows: model.numRows,
        colCost: new Float64Array(model.numCols),
        colLower: model.colLower.map((x) => (x === -Infinity ? -highs.infinity : x)),
        colUpper: model.colUpper.map((x) => (x === Infinity ? highs.infinity : x)),
        rowLower: model.rowLower.map((x) => (x === -Infinity ? -highs.infinity : x)),
        rowUpper: model.rowUpper.map((x) => (x === Infinity ? highs.infinity : x)),
        matrix: { format: 'csr', numRows: model.numRows, numCols: model.numCols, starts: model.rowStarts, indices: model.indices, values: model.values },
        integrality: model.colInteger.map((i) => (i ? 1 : 0)),
        colNames: model.colNames,
        rowNames: model.rowNames,
      });
      h.options.set({ output_flag: false, log_to_console: false, random_seed: 0 });
      const all = model.numCols > 0 ? { kind: 'range' as const, from: 0, to: model.numCols - 1 } : undefined;
      return {
        solve(req: PhaseRequest): PhaseOutcome {
          const started = performance.now();
          try {
            if (all) h.changeColsCost(all, req.objective.costs);
            h.changeObjectiveSense(req.objective.sense === 'max' ? highs.constants.objectiveSense.maximize : highs.constants.objectiveSense.minimize);
            for (const [row, [lo, up]] of req.rowBounds) h.changeRowBounds(row, lo === -Infinity ? -highs.infinity : lo, up === Infinity ? highs.infinity : up);
            h.options.set({ time_limit: Math.max(0.05, req.timeLimitS), mip_rel_gap: req.relGap, mip_abs_gap: req.absGap, solve_relaxation: req.relaxation === true });
            h.zeroAllClocks();
            if (req.start) h.setSolution({ colValue: req.start });
            const maximize = req.objective.sense === 'max';
            const { stopAt, stallS } = req;
            // Early stops: an incumbent that reaches the bound, or no better incumbent for stallS.
            let best = Number.NaN;
            let bestAt = 0;
            // HiGHS's own time limit can overshoot by a second or more on large models; the
            // interrupt callbacks also check the wall clock.
            const deadline = req.deadline ?? Date.now() + req.timeLimitS * 1000;
            const run = h.run({
                    [highs.constants.callbackType.simplexInterrupt]: (e) => {
                      if (Date.now() > deadline) e.interrupt();
                    },
                    [highs.constants.callbackType.mipInterrupt]: (e) => {
                      if (Date.now() > deadline) {
                        e.interrupt();
                        return;
                      }
                      const primal = e.data.mip_primal_bound;
                      const time = e.data.running_time ?? 0;
                      if (typeof primal !== 'number' || !Number.isFinite(primal)) return;
                      if (stopAt !== undefined && (maximize ? primal >= stopAt - 1e-9 : primal <= stopAt + 1e-9)) {
                        e.interrupt();
                        return;
                      }
                      if (primal !== best) {
                        best = primal;
                        bestAt = time;
                      } else if (stallS !== undefined && time - bestAt > stallS) {
                        e.interrupt();
                      }
                    },
            });
            const objective = h.getObjectiveValue();
            const values = Float64Array.from(h.getSolution().colValue);
            const solutionStatus = Number(h.info.get('primal_solution_status'));
            if (req.relaxation) {
              // Only the objective matters: it bounds the MIP.
              const ok = run.modelStatus === highs.constants.modelStatus.optimal && Number.isFinite(objective);
              const status = ok ? 'optimal' : (STATUS_TABLE[run.modelStatus] ?? ['error', 'error'])[1];
              return { status, objective: ok ? objective : null, bound: ok ? objective : null, gap: null, ms: performance.now() - started };
            }
            const valid = solutionStatus === 2 && Number.isFinite(objective) && integralWithinBounds(model, values);
            const [withSolution, without] = STATUS_TABLE[run.modelStatus] ?? ['error', 'error'];
            const status = valid ? withSolution : without;
            const bound = Number(h.info.get('mip_dual_bound'));
            const gap = Number(h.info.get('mip_gap'));
            return {
              status,
              ...(valid && status !== 'error' && status !== 'infeasible' ? { values: roundIntegers(model, values) } : {}),
              objective: valid ? objective : null,
              bound: Number.isFinite(bound) ? bound : null,
              gap: Number.isFinite(gap) ? gap : null,
              ms: performance.now() - started,
            };
          } catch (e) {
            return { status: 'error', objective: null, bound: null, gap: null, ms: performance.now() - started, message: (e as Error).message };
          }
        },
        dispose(): void {
          h.dispose();
        },
      };
    },
  };
}
