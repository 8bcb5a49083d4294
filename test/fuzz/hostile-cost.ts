// The hostile-cost set of `npm run fuzz`: the most expensive inputs of each family at the largest
// size the limits allow, sent over real HTTP to the app as the service builds it (input worker
// threads included). For each family it prints the worst time per request, the worst event-loop
// delay meanwhile (perf_hooks), and the slowest /healthz answer meanwhile. The table goes in
// BENCHMARKS.md; the target is an event loop never held over 250 ms and /healthz under 300 ms.
import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/config.js';
import { workerPreparer } from '../../src/service/input-preparer.js';
import { festival } from '../../bench/generate.js';
import { listener, testApp } from '../helpers/app.js';

interface Family {
  name: string;
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Requests sent (one at a time). */
  times: number;
}

const MB = 1024 * 1024;
const shift = (i: number, groups: Record<string, number> = { g: 1 }): Record<string, unknown> => ({
  id: `s${i}`,
  start: '2026-06-01T08:00:00Z',
  end: '2026-06-01T12:00:00Z',
  required_groups: groups,
});

/** A JSON body of about `bytes`, repeating `item` in `key`. */
function fill(key: string, base: Record<string, unknown>, item: (i: number) => unknown, count: number): Buffer {
  return Buffer.from(JSON.stringify({ ...base, [key]: Array.from({ length: count }, (_, i) => item(i)) }));
}

function multipart(parts: Array<{ name: string; file?: string; content: string }>): { body: Buffer; type: string } {
  const boundary = 'hostilecostboundary';
  const chunks = parts.map(
    (p) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.file ? `; filename="${p.file}"` : ''}\r\n${p.file ? 'Content-Type: text/csv\r\n' : ''}\r\n${p.content}\r\n`,
  );
  return { body: Buffer.from(`${chunks.join('')}--${boundary}--\r\n`), type: `multipart/form-data; boundary=${boundary}` };
}

function families(key: string): Family[] {
  const json = { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` };
  const limitedVolunteers = 10_000;
  const longIds = fill(
    'current_assignments',
    {
      volunteers: Array.from({ length: limitedVolunteers }, (_, i) => ({ id: `v${i}`.padEnd(200, 'x'), group: 'g', max_hours: 8 })),
      unassigned_shifts: [shift(0)],
    },
    (i) => ({ shift_id: 's0', volunteer_id: `w${i}`.padEnd(60, 'y') }),
    45_000,
  );
  const manyKeys: Record<string, unknown> = { volunteers: [], unassigned_shifts: [] };
  for (let i = 0; i < 800_000; i++) manyKeys[`k${i}`] = 0;
  const orphanGroups = fill(
    'unassigned_shifts',
    { volunteers: Array.from({ length: limitedVolunteers }, (_, i) => ({ id: `v${i}`, group: `group-${i}`.padEnd(60, 'q'), max_hours: 8 })) },
    (i) => shift(i, { [`other-${i}`.padEnd(60, 'z')]: 1 }),
    10_000,
  );
  const badTypes = fill(
    'volunteers',
    { unassigned_shifts: Array.from({ length: 10_000 }, () => ({ id: '', start: 'nope', end: 3, required_groups: 'x' })) },
    () => ({ id: 5, group: [], max_hours: 'x' }),
    10_000,
  );
  const wide = fill(
    'current_assignments',
    {
      volunteers: Array.from({ length: 10_000 }, (_, i) => ({ id: `v${i}`, group: `g${i % 50}`, max_hours: 20 })),
      unassigned_shifts: Array.from({ length: 10_000 }, (_, i) => shift(i, { [`g${i % 50}`]: 2 })),
    },
    (i) => ({ shift_id: `s${i % 10_000}`, volunteer_id: `v${(i * 7) % 10_000}` }),
    50_000,
  );
  const scarce = Buffer.from(JSON.stringify(festival({ seed: 5, volunteers: 2000, shifts: 5000, demand: 3 })));
  const deep = Buffer.from(`${'['.repeat(5 * MB)}${']'.repeat(5 * MB)}`);
  const cell = multipart([
    { name: 'volunteers', file: 'v.csv', content: 'Name,Group,Max Hours\r\nAna,g,8\r\n' },
    { name: 'shifts', file: 's.csv', content: `Name,Start,End,Groups\r\nA,6/6/2026 8:00 AM,6/6/2026 12:00 PM,"${' '.repeat(9 * MB)}:x"\r\n` },
  ]);
  const columns = multipart([
    { name: 'volunteers', file: 'v.csv', content: `Name,Group,Max Hours,${Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(',')}\r\nAna,g,8\r\n` },
    { name: 'shifts', file: 's.csv', content: 'Name,Start,End,Groups\r\nA,6/6/2026 8:00 AM,6/6/2026 12:00 PM,g:1\r\n' },
  ]);
  const manyRows = multipart([
    { name: 'volunteers', file: 'v.csv', content: `Name,Group,Max Hours\r\n${'Ana,,x\r\n'.repeat(1_200_000)}` },
    { name: 'shifts', file: 's.csv', content: 'Name,Start,End,Groups\r\nA,6/6/2026 8:00 AM,6/6/2026 12:00 PM,g:1\r\n' },
  ]);
  const badCells = multipart([
    {
      name: 'volunteers',
      file: 'v.csv',
      content: `Name,Group,Max Hours\r\n${Array.from({ length: 10_000 }, (_, i) => `${`v${i}`.padEnd(990, 'n')},,${'9'.repeat(9)}x\r\n`).join('')}`,
    },
    { name: 'shifts', file: 's.csv', content: 'Name,Start,End,Groups\r\nA,6/6/2026 8:00 AM,6/6/2026 12:00 PM,g:1\r\n' },
  ]);
  return [
    { name: 'long ids, 45k unknown ids (validate)', method: 'POST', path: '/api/validate', headers: json, body: longIds, times: 3 },
    { name: '800k unknown properties (validate)', method: 'POST', path: '/api/validate', headers: json, body: Buffer.from(JSON.stringify(manyKeys)), times: 3 },
    { name: '10k groups nobody belongs to (validate)', method: 'POST', path: '/api/validate', headers: json, body: orphanGroups, times: 3 },
    { name: '70k type errors (validate)', method: 'POST', path: '/api/validate', headers: json, body: badTypes, times: 3 },
    { name: '10k x 10k, 50k locks (validate)', method: 'POST', path: '/api/validate', headers: json, body: wide, times: 3 },
    { name: '5M-deep JSON array (schedule)', method: 'POST', path: '/api/schedule', headers: json, body: deep, times: 3 },
    {
      name: 'scarce 2000 x 5000 schedule, 3.7k short slots explained (time_limit=5)',
      method: 'POST',
      path: '/api/schedule?time_limit=5',
      headers: json,
      body: scarce,
      times: 1,
    },
    {
      name: '9 MB Groups cell of spaces (csv)',
      method: 'POST',
      path: '/api/schedule/csv',
      headers: { 'Content-Type': cell.type, Authorization: `Bearer ${key}` },
      body: cell.body,
      times: 3,
    },
    {
      name: '1M extra CSV columns (csv)',
      method: 'POST',
      path: '/api/schedule/csv',
      headers: { 'Content-Type': columns.type, Authorization: `Bearer ${key}` },
      body: columns.body,
      times: 3,
    },
    {
      name: '1.2M CSV rows, past MAX_VOLUNTEERS (csv)',
      method: 'POST',
      path: '/api/schedule/csv',
      headers: { 'Content-Type': manyRows.type, Authorization: `Bearer ${key}` },
      body: manyRows.body,
      times: 3,
    },
    {
      name: '10k CSV rows of long bad cells (csv)',
      method: 'POST',
      path: '/api/schedule/csv',
      headers: { 'Content-Type': badCells.type, Authorization: `Bearer ${key}` },
      body: badCells.body,
      times: 3,
    },
    {
      name: 'Bearer + 16k spaces, no key',
      method: 'POST',
      path: '/api/validate',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${' '.repeat(16_000)}x y` },
      body: Buffer.from('{}'),
      times: 200,
    },
  ];
}

function send(port: number, family: Pick<Family, 'method' | 'path' | 'headers' | 'body'>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: family.method, path: family.path, headers: { ...family.headers, 'Content-Length': String(family.body.length) } },
      (res) => {
        let bytes = 0;
        res.on('data', (d: Buffer) => (bytes += d.length));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, bytes });
        });
      },
    );
    req.on('error', reject);
    req.end(family.body);
  });
}

export interface CostRow {
  family: string;
  body_mb: number;
  statuses: string;
  worst_request_ms: number;
  worst_loop_delay_ms: number;
  worst_healthz_ms: number;
  response_kb: number;
}

export async function hostileCost(): Promise<CostRow[]> {
  const config = loadConfig({});
  const preparer = workerPreparer({ limits: config.limits, threads: config.inputWorkers, queueMax: config.inputQueueMax });
  const t = testApp({}, { preparer });
  const server = createServer(listener(t.app));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const rows: CostRow[] = [];
  try {
    for (const family of families(t.key)) {
      await send(port, family); // warm-up: threads started, code compiled
      const loop = monitorEventLoopDelay({ resolution: 10 });
      let worstHealthz = 0;
      const polling = new AbortController();
      const poller = (async () => {
        while (!polling.signal.aborted) {
          const started = performance.now();
          await send(port, { method: 'GET' as 'POST', path: '/healthz', headers: {}, body: Buffer.alloc(0) });
          worstHealthz = Math.max(worstHealthz, performance.now() - started);
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      loop.enable();
      let worst = 0;
      let bytes = 0;
      const statuses = new Set<number>();
      for (let i = 0; i < family.times; i++) {
        const started = performance.now();
        const res = await send(port, family);
        worst = Math.max(worst, performance.now() - started);
        bytes = Math.max(bytes, res.bytes);
        statuses.add(res.status);
      }
      loop.disable();
      polling.abort();
      await poller;
      const row = {
        family: family.name,
        body_mb: Math.round((family.body.length / MB) * 10) / 10,
        statuses: [...statuses].join('/'),
        worst_request_ms: Math.round(worst),
        worst_loop_delay_ms: Math.round(loop.max / 1e6),
        worst_healthz_ms: Math.round(worstHealthz),
        response_kb: Math.round(bytes / 1024),
      };
      console.log(
        `| ${row.family} | ${row.body_mb} | ${row.statuses} | ${row.worst_request_ms} | ${row.worst_loop_delay_ms} | ${row.worst_healthz_ms} | ${row.response_kb} |`,
      );
      rows.push(row);
    }
  } finally {
    server.close();
    await preparer.close();
  }
  return rows;
}
