// One scheduling request from body to JSON text: limits, validation, normalization, the engine,
// and the result (with diagnostics when asked). Shared by POST /api/schedule and the CLI, and
// by the CSV endpoint once its files are parsed into the same request.
import type { Limits } from './config/config.js';
import type { SchemaRegistry } from './input/schema-registry.js';
import { prepareCsv, prepareRequest, type PreparedProblem } from './service/prepare.js';
import type { BackendName } from './engine/backends/backend.js';
import { toOrderedJson } from './engine/ordered-json.js';
import { Budget } from './engine/budget.js';
import type { EngineOutput, Scheduler, SolveProgress } from './engine/scheduler.js';
import type { Warning } from './types/schema-types.js';

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
  const { problem, parseMs } = prepared;
  const warnings = [...(call.warnings ?? []), ...prepared.warnings];
  const output = await deps.scheduler.solve({
    problem,
    warnings,
    backend: call.backend,
    budget: Budget.forTimeLimit(call.timeLimitS, call.signal ? { signal: call.signal } : {}),
    diagnostics: { lpText: call.debug === 'lp' },
    ...(call.signal ? { signal: call.signal } : {}),
    ...(call.onProgress ? { onIncumbent: call.onProgress } : {}),
  });
  const body2 =
    call.debug === 'off'
      ? output.result
      : {
          ...output.result,
          diagnostics: {
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
            timings: { parse_ms: round(parseMs), build_ms: round(output.timings.build_ms), solve_ms: round(output.timings.solve_ms), explain_ms: round(output.timings.explain_ms) },
          },
        };
  return { json: toOrderedJson(body2, indent), output };
}

const round = (ms: number): number => Math.round(ms * 100) / 100;

/** A schedule from the two CSV exports, read in this thread (CLI). */
export async function scheduleCsv(volunteers: Buffer, shifts: Buffer, timezone: string, call: ScheduleCall, deps: ScheduleServiceDeps, indent = 0): Promise<ScheduleAnswer> {
  return schedulePrepared(prepareCsv(volunteers, shifts, timezone, deps), call, deps, indent);
}
