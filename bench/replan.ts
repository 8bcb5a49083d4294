// Benchmarks re-planning (CONTRACT.md section 14): a festival is solved and published; then
// three volunteers who had shifts cancel (they leave the request) and it is re-planned with the
// published schedule as previous_assignments. Times POST /api/schedule's path (validation,
// engine, JSON) on the solver pool, first call and warm, and prints one table: the assignments
// the cancellations freed, the ones dropped (by reason) and added, whether the dropped count is
// proven minimal (the level 'previous' of every subproblem proven), coverage before and after,
// and, for comparison, how many assignments a re-solve from scratch changes. Every result is
// checked by the independent checker (bench/schedule-checker.ts), `changes` included.
//
//   npm run bench:replan [-- --only NAME] [--time-limit 10]
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/config.js';
import { createScheduler, type Scheduler } from '../src/engine/scheduler.js';
import type { SubproblemDiagnostics } from '../src/engine/solve-subproblem.js';
import { loadSchemas } from '../src/input/schema-registry.js';
import { scheduleRequest } from '../src/service/schedule-service.js';
import type { ScheduleRequest, ScheduleResult } from '../src/types/schema-types.js';
import { generatedInstance, rng } from './generate.js';
import { checkSchedule } from './schedule-checker.js';

type Result = ScheduleResult & { diagnostics: { subproblems?: SubproblemDiagnostics[] } };

const INSTANCES = ['festival-400x300', 'rules-festival-400x300', 'wishes-festival-400x300', 'festival-2500x1200'];
const CANCELLATIONS = 3;

async function solveTimed(scheduler: Scheduler, request: ScheduleRequest, timeLimitS: number): Promise<{ result: Result; ms: number }> {
  const config = loadConfig({ ...process.env, SOLVE_TIME_LIMIT_MAX: '600' });
  const started = performance.now();
  const answer = await scheduleRequest(request, { backend: 'highs', timeLimitS, debug: 'true' }, { schemas: loadSchemas(), limits: config.limits, scheduler });
  return { result: JSON.parse(answer.json) as Result, ms: performance.now() - started };
}

const pairKey = (shift: string, volunteer: string): string => `${shift}\u0000${volunteer}`;

/** Assignments of `a` that `b` does not have, both as roster entries (locks aside). */
function differing(a: ScheduleResult['roster'], b: ScheduleResult['roster']): number {
  const inB = new Set(b.map((e) => pairKey(e.shift_id, e.volunteer_id)));
  return a.filter((e) => !e.locked && !inB.has(pairKey(e.shift_id, e.volunteer_id))).length;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, 'time-limit': { type: 'string', default: '10' } } });
  const limit = Number(values['time-limit']);
  const scheduler = createScheduler({ workers: availableParallelism() });
  await scheduler.ready();
  const rows: string[][] = [];
  try {
    for (const name of INSTANCES.filter((n) => values.only === undefined || n === values.only)) {
      const instance = generatedInstance(name);
      if (!instance) throw new Error(`unknown instance ${name}`);
      const request = instance.request;
      const published = (await solveTimed(scheduler, request, limit)).result;
      // Three volunteers who had shifts, picked with a fixed seed, cancel.
      const random = rng(7);
      const busy = request.volunteers.filter((v) => published.roster.some((e) => e.volunteer_id === v.id && !e.locked));
      const gone = new Set<string>();
      while (gone.size < CANCELLATIONS) gone.add(busy[Math.floor(random() * busy.length)]!.id);
      const previous = published.roster.filter((e) => !e.locked).map((e) => ({ shift_id: e.shift_id, volunteer_id: e.volunteer_id, group: e.group! }));
      const freed = previous.filter((a) => gone.has(a.volunteer_id)).length;
      const after: ScheduleRequest = {
        ...request,
        volunteers: request.volunteers.filter((v) => !gone.has(v.id)),
        current_assignments: (request.current_assignments ?? []).filter((a) => !gone.has(a.volunteer_id)),
      };
      const replan: ScheduleRequest = { ...after, previous_assignments: previous };
      if (process.env.REPLAN_DUMP) writeFileSync(`${process.env.REPLAN_DUMP}/${name}.json`, JSON.stringify(replan));
      const first = await solveTimed(scheduler, replan, limit);
      const warm = await solveTimed(scheduler, replan, limit);
      const { result } = warm;
      const subs = result.diagnostics.subproblems;
      const levels = subs.flatMap((s) => (s.levels ?? []).filter((l) => l.name === 'previous'));
      const proven = levels.every((l) => l.proven);
      const changes = result.changes!;
      const reasons: Record<string, number> = {};
      for (const d of changes.dropped) reasons[d.reason] = (reasons[d.reason] ?? 0) + 1;
      const scratch = (await solveTimed(scheduler, after, limit)).result;
      const violations = checkSchedule(replan, result).length;
      rows.push([
        name,
        `${request.volunteers.length} x ${request.unassigned_shifts.length}`,
        String(previous.length),
        String(freed),
        String(changes.dropped.length),
        Object.entries(reasons)
          .map(([k, n]) => `${k} ${n}`)
          .join(', '),
        String(changes.added.length),
        proven ? 'yes' : `no (${levels.filter((l) => !l.proven).length} of ${levels.length} subproblems)`,
        `${published.summary.filled_slots} -> ${result.summary.filled_slots} (scratch ${scratch.summary.filled_slots})`,
        String(differing(published.roster, scratch.roster)),
        String(Math.round(first.ms)),
        String(Math.round(warm.ms)),
        String(violations),
      ]);
      process.stderr.write(`${name}: done\n`);
    }
  } finally {
    await scheduler.close();
  }
  const header = [
    'instance',
    'size',
    'published',
    'freed by 3 cancellations',
    'dropped',
    'dropped by reason',
    'added',
    'dropped proven minimal',
    'filled: published -> re-planned',
    'moved by a re-solve from scratch',
    'first ms',
    'warm ms',
    'checker',
  ];
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  process.stdout.write(`${[line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')}\n`);
}

await main();
