// Benchmarks one instance in a fresh process (so peak memory is this instance's alone): starts
// the solver pool, then times POST /api/schedule's path (validation, engine, JSON) and prints
// one JSON line of figures.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { loadConfig } from '../src/config/config.js';
import { createScheduler } from '../src/engine/scheduler.js';
import { loadSchemas } from '../src/input/schema-registry.js';
import type { SubproblemDiagnostics } from '../src/engine/solve-subproblem.js';
import { scheduleRequest } from '../src/service/schedule-service.js';
import type { Diagnostics, ScheduleRequest, ScheduleResult } from '../src/types/schema-types.js';
import { generatedInstances } from './generate.js';
import { checkSchedule } from './schedule-checker.js';

/** The one JSON line this prints (bench/run.ts reads it). */
export interface Figures {
  volunteers: number;
  shifts: number;
  demanded: number;
  filled: number;
  bound: number;
  greedy: number;
  fairness: number;
  status: string;
  wall_ms: number;
  warm_ms: number;
  same: boolean;
  explain_ms: number;
  solve_ms: number;
  resolves: number;
  incomplete: number;
  conflicts: number;
  checker: number;
  peak_mb: number;
  backend: string;
}

/** The response with debug=true: the result with its diagnostics, as schedule-service renders them. */
type DebugResult = ScheduleResult & {
  diagnostics: Diagnostics & {
    subproblems: SubproblemDiagnostics[];
    explanation: { ms: number; resolves: number; incomplete_shifts: number };
    timings: { solve_ms: number };
  };
};

const [spec, backend = 'highs', limit = '10'] = process.argv.slice(2);
if (!spec) throw new Error('usage: solve-one <generated name | path.json> [backend] [time limit]');
const request: ScheduleRequest = spec.endsWith('.json')
  ? (JSON.parse(readFileSync(spec, 'utf8')) as ScheduleRequest)
  : generatedInstances().find((i) => i.name === spec)!.request;

const config = loadConfig({ ...process.env, SOLVE_TIME_LIMIT_MAX: '600' });
const scheduler = createScheduler({ workers: availableParallelism() });
await scheduler.ready();
const schemas = loadSchemas();
const solveOnce = async () => {
  const started = performance.now();
  const answer = await scheduleRequest(
    request,
    { backend: backend as 'highs' | 'jslp', timeLimitS: Number(limit), debug: 'true' },
    { schemas, limits: { ...config.limits, maxShifts: 100_000, maxJsonBodyBytes: 1e9 }, scheduler },
  );
  return { answer, ms: performance.now() - started };
};
// The first solve in fresh workers pays for compiling the solver; a running service is warm.
const first = await solveOnce();
const warm = await solveOnce();
const answer = warm.answer;
const wallMs = first.ms;
await scheduler.close();

const result = JSON.parse(answer.json) as DebugResult;
const groupOf = new Map<string, string>(request.volunteers.map((v) => [v.id, v.group]));
const locked = new Map<string, number>();
for (const a of request.current_assignments ?? []) {
  const key = `${a.shift_id}\u0000${groupOf.get(a.volunteer_id) ?? 'undefined'}`;
  locked.set(key, (locked.get(key) ?? 0) + 1);
}
let demanded = 0;
let filled = 0;
let lockedFilled = 0;
for (const s of request.unassigned_shifts) {
  const members: string[] = result.assigned_shifts[s.id] ?? [];
  for (const [g, n] of Object.entries(s.required_groups)) {
    demanded += n;
    filled += Math.min(n, members.filter((v) => groupOf.get(v) === g).length);
    lockedFilled += Math.min(n, locked.get(`${s.id}\u0000${g}`) ?? 0);
  }
}
const subs: SubproblemDiagnostics[] = result.diagnostics.subproblems;
const bound = lockedFilled + subs.reduce((t, s) => t + s.fill_bound, 0);
const greedy = lockedFilled + subs.reduce((t, s) => t + (s.phases[0]?.objective ?? 0), 0);
const figures: Figures = {
  volunteers: request.volunteers.length,
  shifts: request.unassigned_shifts.length,
  demanded,
  filled,
  bound,
  greedy,
  fairness: result.fairness_score,
  status: result.diagnostics.status,
  wall_ms: Math.round(wallMs),
  warm_ms: Math.round(warm.ms),
  same: first.answer.json.replace(/,"diagnostics":.*$/s, '') === warm.answer.json.replace(/,"diagnostics":.*$/s, ''),
  explain_ms: Math.round(result.diagnostics.explanation.ms),
  solve_ms: Math.round(result.diagnostics.timings.solve_ms),
  resolves: result.diagnostics.explanation.resolves,
  incomplete: result.diagnostics.explanation.incomplete_shifts,
  conflicts: result.conflicts.length,
  checker: checkSchedule(request, result).length,
  peak_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  backend,
};
process.stdout.write(`${JSON.stringify(figures)}\n`);
