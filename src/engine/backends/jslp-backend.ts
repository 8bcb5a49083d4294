// javascript-lp-solver as a second backend over the same model. It has no MIP start and no
// proven bound, stops at its timeout with whatever it holds, and may then return fractional
// values: only integral results within bounds are accepted. Its timeout bounds branch and bound
// only, so it solves in a thread of its own that is terminated at the deadline (jslp-thread.ts).
import type { MipModel } from '../mip-model.js';
import { solveInThread } from './jslp-thread.js';
import { RAN_TO_LIMIT_SHARE, SOLVER_MIN_TIME_S } from '../budget.js';
import {
  integralWithinBounds,
  roundIntegers,
  type PhaseOutcome,
  type PhaseRequest,
  type PhaseStatus,
  type SolverBackend,
  type SolverSession,
} from './backend.js';

type Constraint = { min?: number; max?: number; equal?: number };
/** A jslp result, read loosely. */
type JslpResult = { feasible: boolean; result: number; [k: string]: unknown };

/**
 * Past its own timeout, how long jslp may still take before its thread is stopped: enough to
 * return the incumbent its branch and bound holds at the timeout, never a second more.
 */
const HARD_STOP_MARGIN_MS = 100;

/**
 * The longest one branch and bound of jslp may run (an LP, with no integers, is not capped): it
 * has no start, no bound to stop at and no stall window, so without a cap it ran on to the
 * request's deadline. Its MIPs that found something did so within 1.2 s (fairness MIPs of at most
 * 160 columns; RINS +1 in 0.55 and 1.07 s), and where one ran 8.3 s (festival 30 x 21, seed 2001,
 * the fairness MIP of "bar", 139 columns) it found nothing. Measured on 38 instances (24 small
 * festivals with and without the rules, Curtois 1-8, 11, 14, 16, festival-50x30, foodbank-60x60,
 * rules-foodbank-40x35; 10 s, 2026-11-29): the same schedules with the cap, two answers in
 * 1.5-1.7 s instead of 8.6 s. A solve stopped by the cap is one the clock stopped (time_limited),
 * and its phase's note says it was the cap. It bounds the branch and bound, not the tableau jslp
 * builds first nor a node's LP, which only the phase's deadline stops.
 */
export const JSLP_MIP_MAX_MS = 1500;

/** What a jslp solve can end with; it reports no status of its own, so these are read from its result. */
type JslpEnd = 'no-solution' | 'no-solution-at-limit' | 'relaxation' | 'fractional' | 'solution-at-limit' | 'solution' | 'threw';

/** Every jslp ending, mapped. */
const STATUS_TABLE: Record<JslpEnd, PhaseStatus> = {
  'no-solution': 'infeasible',
  // A timeout before any integral solution also reports infeasible.
  'no-solution-at-limit': 'timedout',
  relaxation: 'optimal',
  // Stopped at its timeout with fractional values: nothing usable.
  fractional: 'timedout',
  'solution-at-limit': 'feasible',
  solution: 'optimal',
  threw: 'error',
};

/**
 * RINS hands jslp at most this many free pairs (SolverBackend.rinsMaxFreePairs): its sub-MIPs of
 * 31-129 free pairs (small festivals with the rules, festival-50x30's "bar") took 10-170 ms where
 * its MIP of the whole ran to the clock, and one of 744 (Curtois 9) ran 6.5 s to the clock with nothing.
 */
export const JSLP_RINS_MAX_FREE = 200;

export const jslpBackend: SolverBackend = {
  name: 'jslp',
  rinsMaxFreePairs: JSLP_RINS_MAX_FREE,
  open(model: MipModel): SolverSession {
    // The column part of the model is the same for every phase; build it once.
    const columns: Array<Record<string, number>> = model.colNames.map(() => ({}));
    const { rowStarts, indices, values } = model;
    for (let r = 0; r < model.numRows; r++) {
      for (let k = rowStarts[r]!; k < rowStarts[r + 1]!; k++) columns[indices[k]!]![model.rowNames[r]!] = values[k]!;
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
        // Every column with bounds of its own has a bound row (binaries: [0, 1]); a solve's own column bounds replace it.
        for (const [j, [lo, up]] of req.colBounds ?? []) {
          const name = `bound_${model.colNames[j]!}`;
          if (constraints[name]) constraints[name] = lo === up ? { equal: lo } : { ...(lo > 0 ? { min: lo } : {}), ...(up !== Infinity ? { max: up } : {}) };
        }
        for (let r = 0; r < model.numRows; r++) {
          const [lo, up] = req.rowBounds.get(r) ?? [model.rowLower[r]!, model.rowUpper[r]!];
          if (lo === -Infinity && up === Infinity) continue;
          constraints[model.rowNames[r]!] = lo === up ? { equal: lo } : { ...(lo !== -Infinity ? { min: lo } : {}), ...(up !== Infinity ? { max: up } : {}) };
        }
        const variables: Record<string, Record<string, number>> = {};
        model.colNames.forEach((name, j) => {
          variables[name] = { ...columns[j]!, objective: req.objective.costs[j]! };
        });
        const leftMs = Math.max(SOLVER_MIN_TIME_S, req.budget.remainingS()) * 1000;
        // The cap is jslp's own timeout, which it meets between nodes and answers with its
        // incumbent; its thread is still stopped only at the phase's deadline (jslp's clock
        // starts after it has built its tableau, and a node's LP runs to its end).
        const capped = !req.relaxation && JSLP_MIP_MAX_MS < leftMs;
        const limitMs = capped ? JSLP_MIP_MAX_MS : leftMs;
        try {
          const outcome = solveInThread(
            {
              optimize: 'objective',
              opType: req.objective.sense,
              constraints,
              variables,
              ints: req.relaxation ? {} : ints,
              options: { timeout: Math.round(limitMs), tolerance: req.relGap },
            },
            leftMs + HARD_STOP_MARGIN_MS,
            () => req.budget.cancelled(),
          );
          const ms = performance.now() - started;
          if (outcome.kind === 'stopped') {
            // Stopped by a cancel, this records nothing (Budget.ranOut).
            req.budget.ranOut();
            const why = outcome.cancelled ? 'the solve was cancelled' : 'its time was up inside one LP, which javascript-lp-solver cannot stop itself';
            return { status: 'timedout', objective: null, bound: null, gap: null, ms, message: `javascript-lp-solver was stopped: ${why}` };
          }
          if (outcome.kind === 'error') throw new Error(outcome.message);
          const result = outcome.result as JslpResult;
          const atLimit = ms >= limitMs * RAN_TO_LIMIT_SHARE;
          if (atLimit) req.budget.ranOut();
          const cap =
            capped && atLimit ? { message: `javascript-lp-solver's branch and bound stopped at its ${JSLP_MIP_MAX_MS / 1000} s cap (JSLP_MIP_MAX_MS)` } : {};
          const none = { objective: null, bound: null, gap: null, ms, ...cap };
          if (!result.feasible) return { status: STATUS_TABLE[atLimit ? 'no-solution-at-limit' : 'no-solution'], ...none };
          // jslp lists only the variables that are not zero.
          const values = Float64Array.from(model.colNames, (name) => Number(result[name] ?? 0));
          if (req.relaxation) return { status: STATUS_TABLE.relaxation, objective: result.result, bound: result.result, gap: null, ms, relaxed: values };
          if (!integralWithinBounds(model, values)) return { status: STATUS_TABLE.fractional, ...none };
          return {
            status: STATUS_TABLE[atLimit ? 'solution-at-limit' : 'solution'],
            values: roundIntegers(model, values),
            objective: result.result,
            bound: null,
            gap: null,
            ms,
            ...cap,
          };
        } catch (e) {
          return { status: STATUS_TABLE.threw, objective: null, bound: null, gap: null, ms: performance.now() - started, message: (e as Error).message };
        }
      },
      dispose(): void {},
    };
  },
};
