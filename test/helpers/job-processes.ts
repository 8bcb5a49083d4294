// Real processes for the jobs tests on PostgreSQL: `serve` (API instances) and `worker`
// processes spawned from bin/volunteer-scheduler.js on one database, a key issued by the real
// `keys issue` command, reads of the jobs table, and a TCP proxy that can cut the processes
// off from PostgreSQL and let them back.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { packageRoot } from '../../src/package-root.js';
import { BIN, runCli } from './cli.js';
import { sleep, type Json } from './jobs.js';

export const PG_SECRET = 'jobs-pg-secret-0123456789-0123456789-abcdef';

export interface JobProcess {
  kind: 'serve' | 'worker';
  child: ChildProcess;
  /** The API port (serve). */
  port: number;
  /** The worker's name in the jobs table (worker). */
  name: string;
  out: () => string;
  /** Resolves with the exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): void;
}

/** Starts `serve` (PORT=0, read from its "listening" line) or `worker` (its "worker started" line). */
export async function startProcess(kind: 'serve' | 'worker', env: Record<string, string>): Promise<JobProcess> {
  const child = spawn(process.execPath, [BIN, kind], {
    env: {
      ...process.env,
      SCHEDULER_SECRET: PG_SECRET,
      LOG_LEVEL: 'info',
      SOLVER_WORKERS: '1',
      INPUT_WORKERS: '1',
      ...env,
      ...(kind === 'serve' ? { PORT: '0', HOST: '127.0.0.1' } : {}),
    },
    cwd: packageRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      resolve({ code, signal });
    }),
  );
  const marker = kind === 'serve' ? '"listening"' : '"worker started"';
  const line = await new Promise<Json>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${kind} did not start within 60 s: ${out}`));
    }, 60_000);
    const look = (): void => {
      const found = out.split('\n').find((l) => l.includes(marker));
      if (found) {
        clearTimeout(timer);
        child.stdout.off('data', look);
        resolve(JSON.parse(found) as Json);
      }
    };
    child.stdout.on('data', look);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${kind} exited before it started: ${out}`));
    });
  });
  return {
    kind,
    child,
    port: kind === 'serve' ? (line.port as number) : 0,
    name: kind === 'worker' ? (line.worker as string) : '',
    out: () => out,
    exited,
    kill: (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

/** Issues a key with the real command on the database. */
export async function issueKey(databaseUrl: string, user: string): Promise<string> {
  const r = await runCli(['keys', 'issue', '--user', user, '--name', `${user} key`, '--description', 'jobs tests', '--quota', '1000000'], {
    DATABASE_URL: databaseUrl,
    SCHEDULER_SECRET: PG_SECRET,
    LOG_LEVEL: 'warn',
  });
  if (r.code !== 0) throw new Error(`keys issue failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** An HTTP client of one API instance with one key. */
export function api(port: number, key: string) {
  const base = `http://127.0.0.1:${port}`;
  const call = async (
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Json; text: string; headers: Headers }> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body } : {}),
    });
    const text = await res.text();
    let parsed: Json = {};
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      // not JSON (an export)
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  };
  return {
    base,
    post: (path: string, body: string) => call('POST', path, body),
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    del: (path: string) => call('DELETE', path),
  };
}
export type Api = ReturnType<typeof api>;

export interface JobRow {
  id: string;
  status: string;
  run: number;
  crashes: number;
  worker: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}

/** Reads the jobs table directly. */
export async function jobRows(databaseUrl: string, where = 'true'): Promise<JobRow[]> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const r = await c.query<JobRow>(`select id, status, run, crashes, worker, created_at, started_at, finished_at, error from jobs where ${where}`);
    return r.rows;
  } finally {
    await c.end();
  }
}

/** Polls the jobs table until `done` holds. */
export async function waitRows(databaseUrl: string, where: string, done: (rows: JobRow[]) => boolean, timeoutMs: number, what: string): Promise<JobRow[]> {
  const until = Date.now() + timeoutMs;
  let rows: JobRow[] = [];
  while (Date.now() < until) {
    rows = await jobRows(databaseUrl, where);
    if (done(rows)) return rows;
    await sleep(100);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms; rows: ${JSON.stringify(rows.map((r) => [r.id.slice(0, 8), r.status, r.run, r.crashes, r.worker]))}`);
}

/** A TCP proxy to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored. */
export class PgProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(port = 0): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      this.sockets.add(client);
      this.sockets.add(upstream);
      const drop = (): void => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop);
      upstream.on('error', drop);
      client.on('close', drop);
      upstream.on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Drops every connection and refuses new ones (the port is closed). */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server)
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
  }

  /** Accepts again on the same port. */
  async restore(): Promise<void> {
    await this.start(this.port);
  }

  /** The database URL through the proxy. */
  url(databaseUrl: string): string {
    const u = new URL(databaseUrl);
    u.host = `127.0.0.1:${this.port}`;
    return u.toString();
  }
}
