// npm run load: starts the service (a real process, SQLite in a temp folder), issues a key, and
// drives it with autocannon: small schedules at concurrency 16, then a mix with large solves.
// Prints throughput, p50/p99 latency, statuses and errors, and the service's RSS before and
// after. Deliberate answers (503 overloaded past the solve capacity, 429) are counted apart.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedInstances } from './generate.js';
import { startService } from './service-process.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const seconds = Number(process.env.LOAD_SECONDS ?? 30);

const { child, port, key, stop } = await startService('load');

const rssMb = (): number => {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

const small = readFileSync(join(root, 'examples', 'request.json'), 'utf8');
const large = JSON.stringify(generatedInstances().find((i) => i.name === 'festival-400x300')!.request);
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

interface Row {
  phase: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: string;
  errors: number;
  rssBefore: number;
  rssAfter: number;
}

async function phase(name: string, requests: autocannon.Request[]): Promise<Row> {
  const rssBefore = rssMb();
  const statusCounts = new Map<number, number>();
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 16,
    duration: seconds,
    timeout: 30,
    requests,
    setupClient: (client: { on(event: 'response', listener: (status: number) => void): void }) => {
      client.on('response', (status: number) => statusCounts.set(status, (statusCounts.get(status) ?? 0) + 1));
    },
  });
  return {
    phase: name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses: [...statusCounts]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}: ${n}`)
      .join(', '),
    errors: result.errors + result.timeouts,
    rssBefore,
    rssAfter: rssMb(),
  };
}

const mix: autocannon.Request[] = [
  { method: 'POST', path: '/api/schedule', headers, body: small },
  { method: 'POST', path: '/api/validate', headers, body: small },
  { method: 'GET', path: '/api/usage?limit=5', headers },
  { method: 'POST', path: '/api/schedule?time_limit=2', headers, body: large },
];
const rssStart = rssMb();
const rows = [
  await phase('small schedules (4 volunteers x 3 shifts)', [{ method: 'POST', path: '/api/schedule', headers, body: small }]),
  await phase('mix: small, validate, usage, 400x300 solves (time_limit=2)', mix),
  // The same mix again: memory that keeps growing here would be a leak, not warm-up.
  await phase('the same mix again (memory plateau check)', mix),
];
await stop();

console.log(`Load: ${seconds} s per phase, 16 connections, service on SQLite; RSS of the service process at start ${rssStart} MB\n`);
console.log('| phase | requests | req/s | p50 | p99 | statuses | errors | RSS before | RSS after |');
console.log('| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |');
for (const r of rows)
  console.log(`| ${r.phase} | ${r.requests} | ${r.rps} | ${r.p50} ms | ${r.p99} ms | ${r.statuses} | ${r.errors} | ${r.rssBefore} MB | ${r.rssAfter} MB |`);
const bad = rows.some((r) => r.errors > 0 || /\b500\b/.test(r.statuses));
process.exitCode = bad ? 1 : 0;
