// Benchmarks one instance in a fresh process (so peak memory is this instance's alone): starts
// the solver pool, then times POST /api/schedule's path (validation, engine, JSON) and prints
// one JSON line of figures. With --root <checkout>, the service code is loaded from that
// checkout's dist/ instead of this one's (bench/compare.ts measures a baseline that way); the
// figures are computed here, the same way for both.
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { SubproblemDiagnostics } from '../src/engine/solve-subproblem.js';
import type { Diagnostics, ScheduleRequest, ScheduleResult } from '../src/types/schema-types.js';
import { generatedInstance, requestFor } from './generate.js';
import type { StartEntry } from './same-model.js';
import { checkSchedule } from './schedule-checker.js';

/** The one JSON line this prints (bench/run.ts and bench/compare.ts read it). */
export interface Figures {
  volunteers: number;
  shifts: number;
  demanded: number;
  filled: number;
  /** Slots demanded and filled per priority, index 0 = priority 5 ... index 4 = priority 1. */
  demanded_by_priority: number[];
  filled_by_priority: number[];
  /** Proven upper bound on fillable slots; null when the diagnostics give no per-subproblem bound. */
  bound: number | null;
  greedy: number | null;
  fairness: number;
  /** Shifts with every group they ask for filled (the result's summary.fully_staffed_shifts). */
  fully_staffed: number | null;
  /** Sum over volunteers of assigned hours squared (objective level 3 of 2.1). */
  sum_squared_hours: number;
  /** A lower bound on it: less each subproblem's fairness gap (its value less its proven bound); null without diagnostics. */
  sum_squares_bound: number | null;
  status: string;
  wall_ms: number;
  warm_ms: number;
  same: boolean;
  /**
   * Whether the clock stopped any work in either call (diagnostics.time_limited); null when the
   * checkout measured does not report it. Two calls may differ only when it is true.
   */
  time_limited: boolean | null;
  explain_ms: number;
  solve_ms: number;
  resolves: number;
  incomplete: number;
  conflicts: number;
  /** Warnings of the result by code. */
  warnings: Record<string, number>;
  /** Checker violations; null when another checkout was measured (the checker is this tree's). */
  checker: number | null;
  peak_mb: number;
  backend: string;
  /** The wishes met, judged against the request with its wishes (for a nowish- instance, the wished one). */
  wishes: { avoided: number; hours_below_min: number; preferred: number };
  /** Objective levels not proven in some subproblem (diagnostics' levels), fairness aside; [] when levels 1-6 are all proven. */
  unproven: string[];
  /** Sum over subproblems of the fairness level's value against its bound: value / bound - 1 (0 when proven exactly). */
  fairness_gap: number | null;
}

/** Assignments to avoided and preferred shifts and hours short of min_hours, by `request`'s wishes, of a result. */
function wishesMet(request: ScheduleRequest, result: ScheduleResult): Figures['wishes'] {
  let avoided = 0;
  let preferred = 0;
  let below = 0;
  for (const v of request.volunteers) {
    const mine = result.volunteers[v.id]!;
    avoided += mine.assigned_shifts.filter((id) => v.avoid_shifts?.includes(id)).length;
    preferred += mine.assigned_shifts.filter((id) => v.preferred_shifts?.includes(id)).length;
    below += Math.max(0, (v.min_hours ?? 0) - mine.assigned_hours);
  }
  return { avoided, hours_below_min: Math.round(below * 100) / 100, preferred };
}

/** The response with debug=true: the result with its diagnostics, as schedule-service renders them. */
type DebugResult = ScheduleResult & {
  diagnostics: Diagnostics & {
    subproblems?: SubproblemDiagnostics[];
    explanation?: { ms: number; resolves: number; incomplete_shifts: number };
  };
};

/** The service modules a measurement needs, loaded from a checkout's dist/. */
interface Service {
  config: typeof import('../src/config/config.js');
  scheduler: typeof import('../src/engine/scheduler.js');
  registry: typeof import('../src/input/schema-registry.js');
  service: typeof import('../src/service/schedule-service.js');
}

const here = fileURLToPath(new URL('../..', import.meta.url));

async function loadService(root: string): Promise<Service> {
  const load = <T>(path: string): Promise<T> => import(pathToFileURL(resolve(root, 'dist', 'src', path)).href) as Promise<T>;
  return {
    config: await load<Service['config']>('config/config.js'),
    scheduler: await load<Service['scheduler']>('engine/scheduler.js'),
    registry: await load<Service['registry']>('input/schema-registry.js'),
    service: await load<Service['service']>('service/schedule-service.js'),
  };
}

/** A result's assignments as roster entries: its roster (2.2), or assigned_shifts with each volunteer's own group (2.1). */
function rosterOf(request: ScheduleRequest, result: ScheduleResult): StartEntry[] {
  const roster = (result as Partial<ScheduleResult>).roster;
  if (roster) return roster.map((e) => ({ volunteer_id: e.volunteer_id, shift_id: e.shift_id, group: e.group }));
  const groupOf = new Map<string, string>(request.volunteers.map((v) => [v.id, v.group]));
  return Object.entries(result.assigned_shifts).flatMap(([shift_id, vs]) =>
    vs.map((volunteer_id) => ({ volunteer_id, shift_id, group: groupOf.get(volunteer_id) ?? null })),
  );
}

/** A (shift, group) slot kind's key in the maps below. */
const key = (shift: string, group: string | null | undefined): string => `${shift}\u0000${group ?? ''}`;

/** Slots demanded and filled, overall and per priority. A slot is filled by a roster entry of its group (2.2), or by a member of the group (2.1, no roster). */
function coverage(request: ScheduleRequest, result: ScheduleResult) {
  const groupOf = new Map<string, string>(request.volunteers.map((v) => [v.id, v.group]));
  const count = new Map<string, number>();
  const roster = (result as Partial<ScheduleResult>).roster;
  if (roster) for (const e of roster) count.set(key(e.shift_id, e.group), (count.get(key(e.shift_id, e.group)) ?? 0) + 1);
  else
    for (const [s, vs] of Object.entries(result.assigned_shifts))
      for (const v of vs) count.set(key(s, groupOf.get(v)), (count.get(key(s, groupOf.get(v))) ?? 0) + 1);
  const demanded = [0, 0, 0, 0, 0];
  const filled = [0, 0, 0, 0, 0];
  for (const s of request.unassigned_shifts) {
    const p = 5 - (s.priority ?? 1);
    for (const [g, n] of Object.entries(s.required_groups)) {
      demanded[p]! += n;
      filled[p]! += Math.min(n, count.get(key(s.id, g)) ?? 0);
    }
  }
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  return { demanded: sum(demanded), filled: sum(filled), demanded_by_priority: demanded, filled_by_priority: filled };
}

/**
 * The slots the locks fill (the part of the bound no subproblem reports), at most each group's
 * headcount per shift: the roster's locked entries that fill a group's slot (2.2), else each
 * locked volunteer in their own group (2.1, no roster). Read from the answer, since which of a
 * volunteer's groups a lock fills is the engine's choice (problem.ts lockGroup, with
 * additional_groups not always the volunteer's group): counted by the volunteer's group alone,
 * y-locked-rules-festival-450x350's bound was 973, under its 976 filled slots.
 */
function lockedSlots(request: ScheduleRequest, result: ScheduleResult): number {
  const roster = (result as Partial<ScheduleResult>).roster;
  const groupOf = new Map<string, string>(request.volunteers.map((v) => [v.id, v.group]));
  const locks = roster
    ? roster.filter((e) => e.locked && e.group !== null).map((e) => key(e.shift_id, e.group))
    : (request.current_assignments ?? []).map((a) => key(a.shift_id, groupOf.get(a.volunteer_id)));
  const locked = new Map<string, number>();
  for (const k of locks) locked.set(k, (locked.get(k) ?? 0) + 1);
  let n = 0;
  for (const s of request.unassigned_shifts) for (const [g, h] of Object.entries(s.required_groups)) n += Math.min(h, locked.get(key(s.id, g)) ?? 0);
  return n;
}

/** The sum of squared hours less every subproblem's fairness gap: no schedule with the same coverage does better. */
function sumSquaresBound(squares: number, subs: SubproblemDiagnostics[]): number {
  const fair = subs.flatMap((s) => (s.levels ?? []).filter((l) => l.name === 'fairness'));
  return squares - fair.reduce((t, l) => t + Math.max(0, l.value - l.bound), 0);
}

/** The fairness level's value against its bound, summed over subproblems: value / bound - 1. */
function fairnessGap(subs: SubproblemDiagnostics[] | undefined): number | null {
  const fair = (subs ?? []).flatMap((s) => (s.levels ?? []).filter((l) => l.name === 'fairness'));
  if (fair.length === 0) return null;
  const bound = fair.reduce((t, l) => t + l.bound, 0);
  return bound > 0 ? fair.reduce((t, l) => t + l.value, 0) / bound - 1 : 0;
}

/** Whether the clock stopped work in the call answered `json` or the one with `diagnostics`; null when neither says. */
function timeLimited(json: string, diagnostics: DebugResult['diagnostics']): boolean | null {
  const other = (JSON.parse(json) as DebugResult).diagnostics.time_limited as boolean | undefined;
  const here = diagnostics.time_limited as boolean | undefined;
  return typeof other === 'boolean' && typeof here === 'boolean' ? other || here : null;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { root: { type: 'string' }, roster: { type: 'string' } } });
  const [spec, backend = 'highs', limit = '10'] = positionals;
  if (!spec) throw new Error('usage: solve-one [--root CHECKOUT] <generated name | path.json> [backend] [time limit]');
  const request = requestFor(spec);
  const root = resolve(values.root ?? here);
  const { config: configModule, scheduler: schedulerModule, registry, service } = await loadService(root);

  const config = configModule.loadConfig({ ...process.env, SOLVE_TIME_LIMIT_MAX: '600' });
  const scheduler = schedulerModule.createScheduler({ workers: availableParallelism() });
  await scheduler.ready();
  const schemas = registry.loadSchemas();
  const solveOnce = async () => {
    const started = performance.now();
    const answer = await service.scheduleRequest(
      request,
      { backend: backend as 'highs' | 'jslp', timeLimitS: Number(limit), debug: 'true' },
      { schemas, limits: { ...config.limits, maxShifts: 100_000, maxJsonBodyBytes: 1e9 }, scheduler },
    );
    return { answer, ms: performance.now() - started };
  };
  // The first solve in fresh workers pays for compiling the solver; a running service is warm.
  const first = await solveOnce();
  const warm = await solveOnce();
  await scheduler.close();

  const result = JSON.parse(warm.answer.json) as DebugResult;
  const diagnostics = result.diagnostics;
  const subs = diagnostics.subproblems as SubproblemDiagnostics[] | undefined;
  const warnings: Record<string, number> = {};
  for (const w of result.warnings) warnings[w.code] = (warnings[w.code] ?? 0) + 1;
  const figures: Figures = {
    volunteers: request.volunteers.length,
    shifts: request.unassigned_shifts.length,
    ...coverage(request, result),
    bound: subs ? lockedSlots(request, result) + subs.reduce((t, s) => t + s.fill_bound, 0) : null,
    greedy: subs ? lockedSlots(request, result) + subs.reduce((t, s) => t + (s.phases[0]?.objective ?? 0), 0) : null,
    fairness: result.fairness_score,
    fully_staffed: (result as Partial<ScheduleResult>).summary?.fully_staffed_shifts ?? null,
    sum_squared_hours: Object.values(result.volunteers).reduce((t, v) => t + v.assigned_hours ** 2, 0),
    sum_squares_bound: subs
      ? sumSquaresBound(
          Object.values(result.volunteers).reduce((t, v) => t + v.assigned_hours ** 2, 0),
          subs,
        )
      : null,
    status: diagnostics.status,
    wall_ms: Math.round(first.ms),
    warm_ms: Math.round(warm.ms),
    same: first.answer.json.replace(/,"diagnostics":.*$/s, '') === warm.answer.json.replace(/,"diagnostics":.*$/s, ''),
    time_limited: timeLimited(first.answer.json, diagnostics),
    explain_ms: Math.round(diagnostics.explanation?.ms ?? 0),
    solve_ms: Math.round(diagnostics.timings.solve_ms ?? 0),
    resolves: diagnostics.explanation?.resolves ?? 0,
    incomplete: diagnostics.explanation?.incomplete_shifts ?? 0,
    conflicts: result.conflicts.length,
    warnings,
    checker: root === resolve(here) ? checkSchedule(request, result).length : null,
    peak_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    backend,
    wishes: wishesMet(spec.startsWith('nowish-') ? generatedInstance(spec.slice('nowish-'.length))!.request : request, result),
    unproven: [...new Set((subs ?? []).flatMap((s) => (s.levels ?? []).filter((l) => !l.proven && l.name !== 'fairness').map((l) => l.name)))],
    fairness_gap: fairnessGap(subs),
  };
  // --roster FILE: the schedule itself (who fills which group's slot of which shift), for bench:cbc's --start ours.
  if (values.roster) writeFileSync(values.roster, JSON.stringify(rosterOf(request, result)));
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

await main();
