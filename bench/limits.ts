// npm run bench:limits: what a larger time limit buys, whether an identical request gets an
// identical schedule, and the service's peak memory, measured the way a client meets them: a real
// `serve` process (bench/service-process.ts, a fresh one per instance so its peak is that
// instance's alone) and POST /api/schedule over HTTP. For each instance it sends the request with
// the default limit twice, then with a larger limit (--limits, default "10,30"), and prints per
// call the wall time, slots filled, the sum of squared hours, whether the clock stopped any work
// (diagnostics.time_limited), whether the roster is the same as the first call's, and the
// process's VmHWM (peak resident memory, from /proc) after the call.
// Options: --only <substring>, --limits <a,b> (the first is repeated), --instances <list>.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ScheduleRequest, ScheduleResult } from '../src/types/schema-types.js';
import { festival, generatedInstance } from './generate.js';
import { startService } from './service-process.js';

const { values } = parseArgs({ options: { only: { type: 'string' }, limits: { type: 'string' } } });
const [base, larger] = (values.limits ?? '10,30').split(',').map(Number) as [number, number];

interface Instance {
  name: string;
  request: () => ScheduleRequest;
}

const INSTANCES: Instance[] = [
  { name: 'festival-50x30', request: () => generatedInstance('festival-50x30')!.request },
  { name: 'festival-400x300', request: () => generatedInstance('festival-400x300')!.request },
  { name: 'scarce-150x400', request: () => generatedInstance('scarce-150x400')!.request },
  { name: 'festival-2500x1200', request: () => generatedInstance('festival-2500x1200')!.request },
  { name: 'festival-5000x2500', request: () => festival({ seed: 7, volunteers: 5000, shifts: 2500, days: 5, groups: 12 }) },
];

/** The process's peak resident memory so far, in MB (VmHWM). */
function peakMb(pid: number): number {
  const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
}

interface Call {
  limit: number;
  ms: number;
  filled: number;
  sumSquares: number;
  roster: string;
  peak: number;
  status: string;
  timeLimited: boolean;
}

async function call(port: number, key: string, pid: number, body: string, limit: number): Promise<Call> {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/schedule?time_limit=${limit}&debug=true`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${text.slice(0, 300)}`);
  const result = JSON.parse(text) as ScheduleResult & { diagnostics: { status: string; time_limited: boolean } };
  const roster = result.roster
    .map((r) => `${r.shift_id}|${r.volunteer_id}|${r.group}`)
    .sort()
    .join('\n');
  return {
    limit,
    ms,
    filled: result.summary.filled_slots,
    sumSquares: Object.values(result.volunteers).reduce((t, v) => t + v.assigned_hours ** 2, 0),
    roster,
    peak: peakMb(pid),
    status: result.diagnostics.status,
    timeLimited: result.diagnostics.time_limited,
  };
}

console.log(`Limits ${base} s (twice) and ${larger} s; one fresh service process per instance.\n`);
console.log(
  '| instance | limit | wall time | slots filled | sum of squared hours | status | clock stopped work | same roster as the first call | peak memory (VmHWM) |',
);
console.log('|---|---:|---:|---:|---:|---|---|---|---:|');
for (const instance of INSTANCES.filter((i) => !values.only || i.name.includes(values.only))) {
  const body = JSON.stringify(instance.request());
  const service = await startService('limits');
  try {
    const pid = service.child.pid!;
    const calls: Call[] = [];
    for (const limit of [base, base, larger]) calls.push(await call(service.port, service.key, pid, body, limit));
    for (const c of calls) {
      const same = c === calls[0] ? '-' : c.roster === calls[0]!.roster ? 'yes' : 'no';
      console.log(
        `| ${instance.name} | ${c.limit} s | ${(c.ms / 1000).toFixed(2)} s | ${c.filled} | ${Math.round(c.sumSquares)} | ${c.status} | ${c.timeLimited ? 'yes' : 'no'} | ${same} | ${c.peak} MB |`,
      );
    }
  } finally {
    await service.stop();
  }
}
