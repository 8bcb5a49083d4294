// One scheduling request from body to JSON text: limits, validation, normalization, the engine,
// and the result (with diagnostics when asked). Shared by POST /api/schedule and the CLI, and
// by the CSV endpoint once its files are parsed into the same request.
import type { Limits } from './config/config.js';
import { invalidRequest, overLimit, plural, ProblemError } from './http/problems.js';
import { isTimeZone, readCsvRequest } from './input/csv.js';
import { enforceCountLimits } from './http/request-limits.js';
import type { Problem } from './input/problem.js';
import type { SchemaRegistry } from './input/schema-registry.js';
import { checkScheduleRequest } from './input/validate-request.js';
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

export async function scheduleRequest(body: unknown, call: ScheduleCall, deps: ScheduleServiceDeps, indent = 0): Promise<ScheduleAnswer> {
  const started = performance.now();
  enforceCountLimits(body, deps.limits);
  const { result: validation, problem } = checkScheduleRequest(body, deps.schemas);
  if (!validation.valid || !problem) throw invalidRequest(validation.errors, validation.warnings);
  enforcePairLimit(problem, deps.limits);
  const parseMs = performance.now() - started;
  const warnings = [...(call.warnings ?? []), ...validation.warnings];
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

/** The engine's model has a variable per (volunteer, shift) pair of a group: bound its size. */
function enforcePairLimit(problem: Problem, limits: Limits): void {
  const members = new Map<string, number>();
  for (const v of problem.volunteers) members.set(v.group, (members.get(v.group) ?? 0) + 1);
  let pairs = 0;
  for (const s of problem.shifts) for (const [group, n] of s.required) if (n > 0) pairs += members.get(group) ?? 0;
  if (pairs > limits.maxCandidatePairs) {
    const problemError = overLimit('The number of (volunteer, shift) pairs of the same group', pairs.toLocaleString('en-US'), 'MAX_CANDIDATE_PAIRS', limits.maxCandidatePairs, 'pairs');
    throw new ProblemError('payload-too-large', `${problemError.detail} Split the request by date range or by group.`, problemError.extras);
  }
}

/** A schedule from the two CSV exports: read into the same request, then scheduleRequest. */
export async function scheduleCsv(volunteers: Buffer, shifts: Buffer, timezone: string, call: ScheduleCall, deps: ScheduleServiceDeps, indent = 0): Promise<ScheduleAnswer> {
  if (!isTimeZone(timezone)) {
    throw new ProblemError('invalid-csv', `timezone '${timezone}' is not an IANA time zone name; use one such as America/Chicago, Europe/Paris or UTC (the default).`);
  }
  const read = readCsvRequest(volunteers, shifts, timezone);
  if (!read.ok) {
    throw new ProblemError('invalid-csv', `The CSV files have ${plural(read.errors.length, 'problem')}; each is listed in errors with its file, row and column.`, { errors: read.errors });
  }
  return scheduleRequest(read.request, { ...call, warnings: [...(call.warnings ?? []), ...read.warnings] }, deps, indent);
}
