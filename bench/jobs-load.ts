// npm run load:jobs: the job queue's overhead and capacity on PostgreSQL, with real processes
// (one API instance `serve` with JOB_WORKERS=0, and `worker` processes), each phase on a fresh
// database (JOBS_LOAD_PG, default postgres://postgres@127.0.0.1:5432/postgres, creates and
// drops it). Three phases:
//  1. latency: ~200 small jobs one after another with 2 idle workers; submit-to-start as the
//     service records it (started_at - created_at) and as the client sees it (from sending the
//     POST until GET /api/jobs/<id> first shows it started, polled every 5 ms); p50/p95/max.
//  2. throughput: 1,000 small jobs submitted at once through 2 workers; every job must end
//     completed, run once; jobs/s from the first submit to the last finish.
//  3. memory: 10,000 jobs queued with no worker (JOB_WORKERS=0, none started); the API
//     process's VmRSS and VmHWM (/proc/<pid>/status) every 1,000 jobs.
// Prints Markdown tables (BENCHMARKS.md, "Jobs") and exits 1 when a job is lost or fails.
// JOBS_LOAD_LATENCY, JOBS_LOAD_THROUGHPUT and JOBS_LOAD_HELD set the counts (0 skips a phase).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'volunteer-scheduler.js');
const adminUrl = process.env.JOBS_LOAD_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECRET = 'jobs-load-secret-0123456789-0123456789-abcdef';
const LATENCY_JOBS = Number(process.env.JOBS_LOAD_LATENCY ?? 200);
const THROUGHPUT_JOBS = Number(process.env.JOBS_LOAD_THROUGHPUT ?? 1000);
const HELD_JOBS = Number(process.env.JOBS_LOAD_HELD ?? 10_000);
const small = readFileSync(join(root, 'examples', 'request.json'), 'utf8');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Proc {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `vs_jobs_load_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function start(kind: 'serve' | 'worker', env: Record<string, string>): Promise<Proc> {
  const child = spawn(process.execPath, [bin, kind], {
    env: {
      ...process.env,
      SCHEDULER_SECRET: SECRET,
      LOG_LEVEL: 'info',
      SOLVER_WORKERS: '1',
      MAX_ACTIVE_JOBS_PER_USER: '1000000',
      ...env,
      ...(kind === 'serve' ? { PORT: '0', HOST: '127.0.0.1' } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const marker = kind === 'serve' ? '"listening"' : '"worker started"';
  const line = await new Promise<Record<string, unknown>>((resolve, reject) => {
    let out = '';
    const look = (c: Buffer): void => {
      out += c.toString();
      const found = out.split('\n').find((l) => l.includes(marker));
      if (found) {
        child.stdout.off('data', look);
        child.stdout.resume();
        resolve(JSON.parse(found) as Record<string, unknown>);
      }
    };
    child.stdout.on('data', look);
    child.on('exit', () => {
      reject(new Error(`${kind} exited: ${out}`));
    });
  });
  return {
    child,
    port: kind === 'serve' ? (line.port as number) : 0,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function issueKey(url: string): string {
  const r = spawnSync(
    process.execPath,
    [bin, 'keys', 'issue', '--user', 'load', '--name', 'jobs load', '--description', 'npm run load:jobs', '--quota', '100000000'],
    {
      env: { ...process.env, DATABASE_URL: url, SCHEDULER_SECRET: SECRET, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`keys issue: ${r.stderr}`);
  return r.stdout.trim();
}

function client(port: number, key: string) {
  const base = `http://127.0.0.1:${port}`;
  const headers = { Authorization: `Bearer ${key}` };
  return {
    submit: async (): Promise<string> => {
      const res = await fetch(`${base}/api/jobs`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: small });
      const body = (await res.json()) as { id: string };
      if (res.status !== 202) throw new Error(`POST /api/jobs: ${res.status} ${JSON.stringify(body)}`);
      return body.id;
    },
    status: async (id: string): Promise<{ status: string; created_at: string; started_at: string | null; finished_at: string | null }> => {
      const res = await fetch(`${base}/api/jobs/${id}`, { headers });
      return (await res.json()) as { status: string; created_at: string; started_at: string | null; finished_at: string | null };
    },
  };
}

const pct = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};

function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
}

async function rows(url: string): Promise<Array<{ status: string; run: number; n: number }>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ status: string; run: number; n: string }>(
      'select status, run, count(*) as n from jobs group by status, run order by status, run',
    );
    return r.rows.map((x) => ({ status: x.status, run: x.run, n: Number(x.n) }));
  } finally {
    await c.end();
  }
}

/** A fresh database with a key, one API instance (JOB_WORKERS=0) and `workers` worker processes. */
async function cluster(workers: number) {
  const db = await createDatabase();
  const key = issueKey(db.url);
  const env = { DATABASE_URL: db.url };
  const apiProc = await start('serve', { ...env, JOB_WORKERS: '0' });
  const started = await Promise.all(Array.from({ length: workers }, () => start('worker', { ...env, JOB_WORKERS: '1' })));
  return { db, apiProc, workers: started, c: client(apiProc.port, key) };
}

let failed = false;
const lines: string[] = [];
const say = (line: string): void => {
  lines.push(line);
  console.log(line);
};

// ---- 1. Latency with idle workers ----
if (LATENCY_JOBS > 0) {
  const { db, apiProc, workers, c } = await cluster(2);
  // Warm-up: the workers' first solves and the pools' connections.
  for (let i = 0; i < 10; i++) {
    const id = await c.submit();
    while ((await c.status(id)).finished_at === null) await sleep(20);
  }
  const recorded: number[] = [];
  const seen: number[] = [];
  for (let i = 0; i < LATENCY_JOBS; i++) {
    const sent = performance.now();
    const id = await c.submit();
    let job = await c.status(id);
    while (job.started_at === null) {
      await sleep(5);
      job = await c.status(id);
    }
    seen.push(performance.now() - sent);
    recorded.push(Date.parse(job.started_at) - Date.parse(job.created_at));
    while (job.finished_at === null) {
      await sleep(10);
      job = await c.status(id);
    }
    if (job.status !== 'completed') failed = true;
  }
  await Promise.all([apiProc.stop(), ...workers.map((w) => w.stop())]);
  await db.drop();
  say(`### Submit to start, ${LATENCY_JOBS} sequential small jobs, 2 idle workers (PostgreSQL, pg-boss)\n`);
  say('| measure | p50 | p95 | max |');
  say('| --- | ---: | ---: | ---: |');
  say(`| started_at - created_at (service) | ${pct(recorded, 50)} ms | ${pct(recorded, 95)} ms | ${Math.max(...recorded)} ms |`);
  say(
    `| POST sent to GET showing it started (client, 5 ms polling) | ${pct(seen, 50).toFixed(0)} ms | ${pct(seen, 95).toFixed(0)} ms | ${Math.max(...seen).toFixed(0)} ms |`,
  );
  say('');
}

// ---- 2. Throughput through 2 workers ----
if (THROUGHPUT_JOBS > 0) {
  const { db, apiProc, workers, c } = await cluster(2);
  const t0 = performance.now();
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < THROUGHPUT_JOBS) {
        next++;
        ids.push(await c.submit());
      }
    }),
  );
  const submittedS = (performance.now() - t0) / 1000;
  let counts = await rows(db.url);
  while (counts.filter((r) => r.status === 'queued' || r.status === 'solving').reduce((n, r) => n + r.n, 0) > 0) {
    await sleep(200);
    counts = await rows(db.url);
  }
  const totalS = (performance.now() - t0) / 1000;
  const completedOnce = counts.find((r) => r.status === 'completed' && r.run === 1)?.n ?? 0;
  const total = counts.reduce((n, r) => n + r.n, 0);
  if (completedOnce !== THROUGHPUT_JOBS || total !== THROUGHPUT_JOBS) failed = true;
  await Promise.all([apiProc.stop(), ...workers.map((w) => w.stop())]);
  await db.drop();
  say(`### ${THROUGHPUT_JOBS} small jobs through 2 workers (JOB_WORKERS=1, SOLVER_WORKERS=1 each; PostgreSQL)\n`);
  say('| jobs submitted | submit time (4 clients) | last job ended after | throughput | ended completed, run once | other outcomes |');
  say('| ---: | ---: | ---: | ---: | ---: | --- |');
  const others = counts.filter((r) => !(r.status === 'completed' && r.run === 1)).map((r) => `${r.status} run ${r.run}: ${r.n}`);
  say(
    `| ${ids.length} | ${submittedS.toFixed(1)} s | ${totalS.toFixed(1)} s | ${(THROUGHPUT_JOBS / totalS).toFixed(1)} jobs/s | ${completedOnce} | ${others.join(', ') || 'none'} |`,
  );
  say('');
}

// ---- 3. 10,000 jobs held, API memory ----
if (HELD_JOBS > 0) {
  const { db, apiProc, c } = await cluster(0);
  const pid = apiProc.child.pid!;
  const samples: Array<{ jobs: number; rss: number; hwm: number; s: number }> = [{ jobs: 0, ...memory(pid), s: 0 }];
  const t0 = performance.now();
  let sent = 0;
  let accepted = 0;
  const every = HELD_JOBS / 10;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (sent < HELD_JOBS) {
        sent++;
        await c.submit();
        accepted++;
        if (accepted % every === 0) samples.push({ jobs: accepted, ...memory(pid), s: (performance.now() - t0) / 1000 });
      }
    }),
  );
  samples.sort((a, b) => a.jobs - b.jobs);
  const counts = await rows(db.url);
  const queued = counts.find((r) => r.status === 'queued')?.n ?? 0;
  if (queued !== HELD_JOBS) failed = true;
  await apiProc.stop();
  await db.drop();
  say(`### ${HELD_JOBS} jobs queued, no worker: the API process's memory (JOB_WORKERS=0; 4 clients submitting)\n`);
  say('| jobs queued | VmRSS | VmHWM | elapsed |');
  say('| ---: | ---: | ---: | ---: |');
  for (const s of samples) say(`| ${s.jobs} | ${s.rss} MB | ${s.hwm} MB | ${s.s.toFixed(0)} s |`);
  say(`\nJobs in the table at the end: ${queued} queued.`);
}

console.log(
  `\nMachine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; ${new Date().toISOString()}`,
);
process.exitCode = failed ? 1 : 0;
