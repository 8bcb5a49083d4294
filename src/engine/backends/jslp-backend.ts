// javascript-lp-solver as a second backend over the same model. It has no MIP start and no
// proven bound, stops at its timeout with whatever it holds, and may then return fractional
// values: only integral results within bounds are accepted.
import solverModule from 'javascript-lp-solver';
import type { MipModel } from '../mip-model.js';
import { integralWithinBounds, roundIntegers, type PhaseOutcome, type PhaseRequest, type SolverBackend, type SolverSession } from './backend.js';

type Constraint = { min?: number; max?: number; equal?: number };
type Solver = (typeof solverModule)['default'];
// The package is typed as CommonJS but loaded as ESM: take the solver from either shape.
const solver = ((solverModule as unknown as { default?: Solver }).default ?? solverModule) as Solver;

export const jslpBackend: SolverBackend = {
  name: 'jslp',
  open(model: MipModel): SolverSession {
    // The column part of the model is the same for every phase; build it once.
    const columns: Array<Record<string, number>> = model.colNames.map(() => ({}));
    for (let r = 0; r < model.numRows; r++) {
      for (let k = model.rowStarts[r]!; k < model.rowStarts[r + 1]!; k++) columns[model.indices[k]!]![model.rowNames[r]!] = model.values[k]!;
    }
    const boundRows: Record<string, Constraint> = {};
    const ints: Record<string, 1> = {};
    model.colNames.forEach((name, j) => {
      const lo = model.colLower[j]!;
      const up = model.colUpper[j]!;
      if (lo !== 0 || up !== Infinity) {
        boundRows[`bound_${name}`] = lo === up ? { equal: lo } : { ...(lo > 0 ? { min: lo } : {}), ...(up !== Infinity ? { max: up } : {}) };
        columns[j]![`bound_${name}`] = 1;
      }
      if (model.colInteger[j]) ints[name] = 1;
    });
    return {
      solve(req: PhaseRequest): PhaseOutcome {
        const started = performance.now();
        const constraints: Record<string, Constraint> = { ...boundRows };
        for (let r = 0; r < model.numRows; r++) {
          const [lo, up] = req.rowBounds.get(r) ?? [model.rowLower[r]!, model.rowUpper[r]!];
          if (lo === -Infinity && up === Infinity) continue;
          constraints[model.rowNames[r]!] = lo === up ? { equal: lo } : { ...(lo !== -Infinity ? { min: lo } : {}), ...(up !== Infinity ? { max: up } : {}) };
        }
        const variables: Record<string, Record<string, number>> = {};
        model.colNames.forEach((name, j) => {
          variables[name] = { ...columns[j]!, objective: req.objective.costs[j]! };
        });
        try {
          const result = (solver.Solve as (m: unknown) => { feasible: boolean; result: number; [k: string]: unknown })({
            optimize: 'objective',
            opType: req.objective.sense,
            constraints,
            variables,
            ints: req.relaxation ? {} : ints,
            options: { timeout: Math.max(50, Math.round(req.timeLimitS * 1000)), tolerance: req.relGap },
          });
          const ms = performance.now() - started;
          if (!result.feasible) {
            // A timeout before any integral solution also reports infeasible.
            const timedOut = ms >= req.timeLimitS * 1000 * 0.95;
            return { status: timedOut ? 'timedout' : 'infeasible', objective: null, bound: null, gap: null, ms };
          }
          if (req.relaxation) return { status: 'optimal', objective: result.result, bound: result.result, gap: null, ms };
          const values = Float64Array.from(model.colNames, (name) => Number(result[name] ?? 0));
          if (!integralWithinBounds(model, values)) return { status: 'timedout', objective: null, bound: null, gap: null, ms };
          const timedOut = ms >= req.timeLimitS * 1000 * 0.95;
          return { status: timedOut ? 'feasible' : 'optimal', values: roundIntegers(model, values), objective: result.result, bound: null, gap: null, ms };
        } catch (e) {
          return { status: 'error', objective: null, bound: null, gap: null, ms: performance.now() - started, message: (e as Error).message };
        }
      },
      dispose(): void {},
    };
  },
};
