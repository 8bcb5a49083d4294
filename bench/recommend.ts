// npm run bench:recommend: POST /api/recommendations end to end over HTTP on the 2,500-volunteer
// festivals and on the scarce 150 x 400 instance (where most candidates need moves). Starts the
// service (a real process, SQLite in a temp folder), issues a key, solves each instance once
// with POST /api/schedule and publishes the result (its roster becomes the previous_assignments,
// groups included), then asks two questions of many shifts, each timed from the client (body
// upload, validation, the schedule as it stands, candidates, JSON back): who could replace the
// first volunteer on the shift, and who could take the slot one volunteer dropped out of (their
// previous assignment removed). Prints a table of p50 / p95 / max.
import type { RecommendationResult, ScheduleRequest, ScheduleResult } from '../src/types/schema-types.js';
import { generatedInstance } from './generate.js';
import { startService } from './service-process.js';

/** Shifts asked about per question, spread over the instance; each asked ROUNDS times. */
const SHIFTS = Number(process.env.RECOMMEND_SHIFTS ?? 20);
const ROUNDS = Number(process.env.RECOMMEND_ROUNDS ?? 3);
const INSTANCES = (process.env.RECOMMEND_INSTANCES ?? 'festival-2500x1200,rules-festival-2500x1200,scarce-150x400').split(',');

const { port, key, stop } = await startService('bench-recommend');

async function post(path: string, body: unknown): Promise<{ status: number; json: unknown; ms: number; bytes: number }> {
  const text = JSON.stringify(body);
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: text,
  });
  const json: unknown = await res.json();
  return { status: res.status, json, ms: performance.now() - started, bytes: Buffer.byteLength(text) };
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface Row {
  instance: string;
  volunteers: number;
  question: string;
  asks: number;
  candidates: number;
  withMoves: number;
  bodyKb: number;
  times: number[];
}

const rows: Row[] = [];
try {
  for (const name of INSTANCES) {
    const instance = generatedInstance(name);
    if (!instance) throw new Error(`no generated instance ${name}`);
    const request: ScheduleRequest = instance.request;
    const solved = await post('/api/schedule', request);
    if (solved.status !== 200) throw new Error(`solving ${name}: ${solved.status} ${JSON.stringify(solved.json).slice(0, 300)}`);
    const roster = (solved.json as ScheduleResult).roster;
    const published: ScheduleRequest = {
      ...request,
      previous_assignments: roster
        .filter((r) => !r.locked)
        .map((r) => ({ shift_id: r.shift_id, volunteer_id: r.volunteer_id, ...(r.group === null ? {} : { group: r.group }) })),
    };
    const staffed = request.unassigned_shifts.filter((s) => roster.some((r) => r.shift_id === s.id && !r.locked));
    const asked = Array.from(
      { length: Math.min(SHIFTS, staffed.length) },
      (_, k) => staffed[Math.floor((k * staffed.length) / Math.min(SHIFTS, staffed.length))]!,
    );
    const questions: Array<[string, (shift: string) => unknown]> = [
      [
        'replace the first volunteer on the shift',
        (shift) => ({ request: published, shift_id: shift, replace_volunteer_id: roster.find((r) => r.shift_id === shift && !r.locked)!.volunteer_id }),
      ],
      [
        'fill the slot one volunteer dropped out of',
        (shift) => {
          const gone = published.previous_assignments!.findIndex((a) => a.shift_id === shift);
          return { request: { ...published, previous_assignments: published.previous_assignments!.filter((_, i) => i !== gone) }, shift_id: shift };
        },
      ],
    ];
    for (const [question, body] of questions) {
      const row: Row = { instance: name, volunteers: request.volunteers.length, question, asks: 0, candidates: 0, withMoves: 0, bodyKb: 0, times: [] };
      // One unmeasured call first: the route's first use compiles its code paths.
      await post('/api/recommendations', body(asked[0]!.id));
      for (let round = 0; round < ROUNDS; round++) {
        for (const shift of asked) {
          const res = await post('/api/recommendations', body(shift.id));
          const answer = res.json as RecommendationResult;
          if (res.status !== 200) throw new Error(`${name} ${shift.id}: ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`);
          row.asks++;
          row.times.push(res.ms);
          row.bodyKb = Math.round(res.bytes / 1024);
          row.candidates += answer.candidates.length;
          row.withMoves += answer.candidates.filter((c) => c.moves.length > 0).length;
        }
      }
      rows.push(row);
    }
  }
} finally {
  await stop();
}

console.log(`POST /api/recommendations over HTTP: ${SHIFTS} shifts per question, each asked ${ROUNDS} times (limit 10), service on SQLite\n`);
console.log('| instance | volunteers | question | body | asks | candidates per answer (with moves) | p50 | p95 | max |');
console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  const sorted = [...r.times].sort((a, b) => a - b);
  const ms = (x: number): string => `${Math.round(x)} ms`;
  console.log(
    `| ${r.instance} | ${r.volunteers} | ${r.question} | ${r.bodyKb} kB | ${r.asks} | ${(r.candidates / r.asks).toFixed(1)} (${(r.withMoves / r.asks).toFixed(1)}) | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 95))} | ${ms(sorted.at(-1)!)} |`,
  );
}
