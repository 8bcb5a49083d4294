// The service layer's scheduling call: *prepare* (service/prepare.ts: limits, validation, the
// engine's problem), *solve* (the scheduler, within the call's budget, cancellable), *render*
// (JSON today; exports plug in beside renderJson). The HTTP routes and the CLI call these; the
// routes prepare on input workers, the CLI in its own thread.
import type { Limits } from '../config/config.js';
import type { SchemaRegistry } from '../input/schema-registry.js';
import { prepareCsv, prepareRequest, type PreparedProblem } from './prepare.js';
import type { BackendName } from '../engine/backends/backend.js';
import { toOrderedJson } from '../engine/ordered-json.js';
import { Budget } from '../engine/budget.js';
import type { EngineOutput, Scheduler, SolveProgress } from '../engine/scheduler.js';
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

/** A schedule for a parsed request (CLI, tests, benchmarks): prepare in this thread, then solve. */
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

/** A schedule from the two CSV exports, read in this thread (CLI). */
export async function scheduleCsv(
  volunteers: Buffer,
  shifts: Buffer,
  timezone: string,
  call: ScheduleCall,
  deps: ScheduleServiceDeps,
  indent = 0,
): Promise<ScheduleAnswer> {
  return schedulePrepared(prepareCsv(volunteers, shifts, timezone, deps), call, deps, indent);
}
