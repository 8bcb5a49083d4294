// fast-check generators of hostile input for the API: valid requests mutated field by field,
// arbitrary JSON, deeply nested and oversized bodies, raw bytes, and CSV files with broken
// cells, formula cells, odd encodings and shapes. The property: the service never answers
// 500, never hangs, and every non-200 answer is problem+json. Every value comes from the
// run's seed (no fc.sample inside a generator), so a seed replays a run case for case.
import fc from 'fast-check';
import { expect } from 'chai';
import type { TestApp } from '../helpers/app.js';

type Json = any;

const BASE: Json = {
  volunteers: [
    { id: 'v1', name: 'Ana', group: 'kitchen', max_hours: 8 },
    { id: 'v2', group: 'bar', max_hours: 999 },
  ],
  unassigned_shifts: [{ id: 's1', start: '2026-06-06T08:00:00Z', end: '2026-06-06T12:00:00Z', required_groups: { kitchen: 1, bar: 1 } }],
  current_assignments: [{ shift_id: 's1', volunteer_id: 'v1' }],
};

const weird = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -0, '', ' ', '__proto__', 'constructor', '\u0000', '999', 'NaN', [], {}, [[[]]], { __proto__: 1 }),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.double(),
  fc.integer(),
  fc.jsonValue({ maxDepth: 3 }),
);

const paths = [
  'volunteers',
  'unassigned_shifts',
  'current_assignments',
  'volunteers.0',
  'volunteers.0.id',
  'volunteers.0.group',
  'volunteers.0.max_hours',
  'volunteers.1.name',
  'unassigned_shifts.0',
  'unassigned_shifts.0.id',
  'unassigned_shifts.0.start',
  'unassigned_shifts.0.end',
  'unassigned_shifts.0.required_groups',
  'unassigned_shifts.0.required_groups.kitchen',
  'current_assignments.0.shift_id',
  'current_assignments.0.volunteer_id',
];

function mutate(path: string, value: unknown): Json {
  const body = structuredClone(BASE);
  const keys = path.split('.');
  let node = body;
  for (const k of keys.slice(0, -1)) node = node[k];
  node[keys[keys.length - 1]!] = value;
  return body;
}

/** A JSON body as text: a mutated valid request, arbitrary JSON, deep nesting, or broken text. */
export const jsonBodies: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.constantFrom(...paths), weird).map(([p, v]) => JSON.stringify(mutate(p, v))),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.integer({ min: 1, max: 20_000 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
  fc.integer({ min: 1, max: 5_000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)),
  fc.tuple(fc.constantFrom(...paths), fc.string({ minLength: 1000, maxLength: 20_000 })).map(([p, v]) => JSON.stringify(mutate(p, v))),
  fc.string().map((s) => JSON.stringify(BASE).slice(0, Math.max(1, s.length))),
  fc.string(),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
  fc.constant('{"volunteers": [], "unassigned_shifts": [], "__proto__": {"polluted": true}}'),
);

const cell = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '=cmd|" /C calc"!A0',
    '+1+1',
    '-2',
    '@SUM(A1)',
    '"',
    '""',
    ',',
    '\r\n',
    '12:00 AM',
    '2/30/2026 9:00 AM',
    'kitchen:',
    ':2',
    'a:1,a:2',
    '999',
    '-1',
    '1e9',
    'NaN',
  ),
);
const row = fc.array(cell, { minLength: 0, maxLength: 7 }).map((cells) => cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','));

/** A CSV file: a plausible header and random rows, or raw bytes. */
export const csvFiles = (header: string): fc.Arbitrary<Buffer> =>
  fc.oneof(
    fc.tuple(fc.array(row, { maxLength: 8 }), fc.constantFrom('\n', '\r\n')).map(([rows, eol]) => Buffer.from([header, ...rows].join(eol))),
    fc.array(row, { maxLength: 8 }).map((rows) => Buffer.from(`\ufeff${rows.join('\r\n')}`)),
    fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
    fc.constant(Buffer.from([0xff, 0xfe, 0x41, 0x00])),
  );

/** The checks every answer must pass. */
export function expectSane(res: { status: number; headers: Record<string, string>; text: string }, what: string): void {
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).to.not.equal(500);
  expect(res.status, what).to.be.lessThan(500 + (res.status === 503 ? 4 : 0));
  if (res.status !== 200) expect(res.headers['content-type'], `${what} ${res.status}`).to.match(/^application\/problem\+json/);
  else expect(res.headers['content-type'], what).to.match(/^application\/json/);
  expect(({} as Record<string, unknown>).polluted, what).to.equal(undefined);
}

/** A seed for a fuzz run: FUZZ_SEED when set (to replay a run), else a fresh one. */
export function fuzzSeed(env: Record<string, string | undefined> = process.env): number {
  const given = env.FUZZ_SEED;
  if (given === undefined || given.trim() === '') return (Date.now() ^ Math.floor(Math.random() * 0x1_0000_0000)) | 0;
  if (!/^-?\d+$/.test(given.trim()) || Number(given) !== (Number(given) | 0))
    throw new Error(`FUZZ_SEED is '${given}'; expected a 32-bit integer, as printed by an earlier run.`);
  return Number(given);
}

/**
 * Runs `runs` cases against validate, schedule and schedule/csv from `seed`; returns how many
 * requests were made. A failure names the seed to replay with, then fast-check's report (the
 * shrunk case, and the seed and path of the property that failed).
 */
export async function fuzzApi(t: TestApp, runs: number, seed: number): Promise<number> {
  let requests = 0;
  const params = { numRuns: runs, seed };
  const replayable = async (what: string, run: () => Promise<void>): Promise<void> => {
    try {
      await run();
    } catch (e) {
      throw new Error(`fuzz ${what} failed with FUZZ_SEED=${seed} (replay: FUZZ_SEED=${seed} npm test)\n${e instanceof Error ? e.message : String(e)}`, {
        cause: e,
      });
    }
  };
  await replayable('JSON bodies', () =>
    fc.assert(
      fc.asyncProperty(jsonBodies, fc.constantFrom('/api/validate', '/api/schedule?time_limit=1'), async (body, path) => {
        const res = await t.request.post(path).set('Content-Type', 'application/json').send(body);
        requests++;
        expectSane(res, `${path} ${body.slice(0, 200)}`);
      }),
      params,
    ),
  );
  await replayable('CSV files', () =>
    fc.assert(
      fc.asyncProperty(
        csvFiles('Name,Group,Max Hours'),
        csvFiles('Name,Start,End,Groups'),
        fc.constantFrom(undefined, 'UTC', 'America/Chicago', 'Nowhere/City', ''),
        async (v, s, tz) => {
          let req = t.request.post('/api/schedule/csv?time_limit=1').attach('volunteers', v, 'v.csv').attach('shifts', s, 's.csv');
          if (tz !== undefined) req = req.field('timezone', tz);
          const res = await req;
          requests++;
          expectSane(res, `csv ${v.toString('latin1').slice(0, 120)} | ${s.toString('latin1').slice(0, 120)}`);
        },
      ),
      params,
    ),
  );
  return requests;
}
