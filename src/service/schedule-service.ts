// The service layer's scheduling call: *prepare* (service/prepare.ts: limits, validation, the
// engine's problem), *solve* (the scheduler, within the call's budget, cancellable), *render*
// (JSON today; exports plug in beside renderJson). The HTTP routes and the CLI call these; the
// routes prepare on input workers, the CLI in its own thread. The CLI solves a small problem in
// its own thread too (inThreadScheduler), a large one on the worker pool, as the service does.
import type { Limits } from '../config/config.js';
import type { Problem } from '../input/problem.js';
import type { SchemaRegistry } from '../input/schema-registry.js';
import { prepareRequest, type PreparedProblem } from './prepare.js';
import type { BackendName } from '../engine/backends/backend.js';
import { toOrderedJson } from '../engine/ordered-json.js';
import { Budget } from '../engine/budget.js';
import { inProcessScheduler, type EngineOutput, type Scheduler, type SolveProgress } from '../engine/scheduler.js';
import { decompose } from '../engine/subproblem.js';
import type { Warning } from '../types/schema-types.js';

export interface ScheduleServiceDeps {
  schemas: SchemaRegistry;
  limits: Limits;
  scheduler: Scheduler;
}

export interface ScheduleCall {
  backend: BackendName;
  timeLimitS: number;
  debug: 'off' | 'true' | 'lp';
  /** Warnings about the call itself (a capped time limit). */
  warnings?: Warning[];
  /** Aborting stops the solve: the answer is the best schedule found so far. */
  signal?: AbortSignal;
  onProgress?: (progress: SolveProgress) => void;
}

export interface ScheduleAnswer {
  json: string;
  output: EngineOutput;
}

/** A schedule for a parsed request (tests, benchmarks): prepare in this thread, then solve. */
export async function scheduleRequest(body: unknown, call: ScheduleCall, deps: ScheduleServiceDeps, indent = 0): Promise<ScheduleAnswer> {
  return schedulePrepared(prepareRequest(body, [], deps), call, deps, indent);
}

/** Solve and render a prepared problem (see service/prepare.ts). */
export async function schedulePrepared(prepared: PreparedProblem, call: ScheduleCall, deps: ScheduleServiceDeps, indent = 0): Promise<ScheduleAnswer> {
  const solved = await solvePrepared(prepared, call, deps);
  return { json: renderJson(solved, indent), output: solved.output };
}

/** A solved call: the engine's output with what rendering it needs. */
export interface SolvedCall {
  output: EngineOutput;
  call: ScheduleCall;
  parseMs: number;
}

/** The *solve* step: the prepared problem through the scheduler, within the call's budget. */
export async function solvePrepared(prepared: PreparedProblem, call: ScheduleCall, deps: ScheduleServiceDeps): Promise<SolvedCall> {
  const output = await deps.scheduler.solve({
    problem: prepared.problem,
    warnings: [...(call.warnings ?? []), ...prepared.warnings],
    backend: call.backend,
    budget: Budget.forTimeLimit(call.timeLimitS, call.signal ? { signal: call.signal } : {}),
    diagnostics: { lpText: call.debug === 'lp' },
    ...(call.signal ? { signal: call.signal } : {}),
    ...(call.onProgress ? { onIncumbent: call.onProgress } : {}),
  });
  return { output, call, parseMs: prepared.parseMs };
}

/** The *render* step, as JSON: the contract's result, with diagnostics when asked. Other formats plug in beside it. */
export function renderJson({ output, call, parseMs }: SolvedCall, indent = 0): string {
  if (call.debug === 'off') return toOrderedJson(output.result, indent);
  const diagnostics = {
    backend: call.backend,
    status: output.status,
    time_limit_s: call.timeLimitS,
    time_limited: output.subproblems.some((s) => s.diagnostics.time_limited),
    ...(output.cancelled ? { note: 'the solve was cancelled: the schedule is the best found until then' } : {}),
    subproblems: output.subproblems.map((s) => s.diagnostics),
    explanation: {
      ms: round(output.timings.explain_ms + output.subproblems.reduce((t, s) => t + s.diagnostics.explain.ms, 0)),
      resolves: output.subproblems.reduce((t, s) => t + s.diagnostics.explain.resolves, 0),
      incomplete_shifts: output.subproblems.reduce((t, s) => t + s.diagnostics.explain.incomplete, 0),
    },
    timings: {
      parse_ms: round(parseMs),
      build_ms: round(output.timings.build_ms),
      solve_ms: round(output.timings.solve_ms),
      explain_ms: round(output.timings.explain_ms),
    },
  };
  return toOrderedJson({ ...output.result, diagnostics }, indent);
}

const round = (ms: number): number => Math.round(ms * 100) / 100;

/**
 * The largest problem (see problemSize) the CLI solves in its own thread; a larger one goes to
 * the solver pool. Measured on the 2-core machine (BENCHMARKS.md, "Command line"): starting the
 * pool costs 2.5 s and more (each worker compiles all of HiGHS with the optimizing tier first),
 * so the CLI's thread is sooner, start to exit, at every size measured (up to 138,400). What
 * bounds it is the schedule: the engine stops a MIP phase that finds nothing better for 0.3 s,
 * and HiGHS compiled by the baseline tier runs slower, so a rule-heavy request can end such a
 * phase sooner in this thread. Every request measured up to this size (plain and rule-heavy)
 * gave the pool's schedule in this thread; above it, rule-heavy ones of size 2,640 and 3,660 did
 * not. Time-limited requests (the scarce benchmark, 18,072) also fill more on the pool's lanes.
 */
export const IN_THREAD_MAX_SIZE = 2000;

/**
 * A problem's size as the engine weighs its parts: it solves each independent part (a group, or
 * groups joined by volunteers who can fill several) on its own, and a part's model grows with
 * its volunteers times its slot kinds (a shift's headcount of one group). The sum over parts.
 */
export function problemSize(problem: Problem): number {
  return decompose(problem).reduce((total, sub) => total + sub.volunteers.length * sub.shifts.length, 0);
}

/**
 * A scheduler that solves in this thread with only `backend` loaded: no worker thread starts,
 * and HiGHS is compiled lazily by V8's baseline tier as the solve reaches its code (the pool's
 * workers compile all of it with the optimizing tier first, seconds of work that pays off only
 * on large problems). Solving is deterministic: a problem solved within its time gets the
 * pool's schedule, byte for byte. The solve holds this thread until it ends.
 */
export async function inThreadScheduler(backend: BackendName): Promise<Scheduler> {
  if (backend === 'jslp') return inProcessScheduler({ jslp: (await import('../engine/backends/jslp-backend.js')).jslpBackend });
  const { highsBackend, loadHighs } = await import('../engine/backends/highs-backend.js');
  return inProcessScheduler({ highs: highsBackend(await loadHighs()) });
}
