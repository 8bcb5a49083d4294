// The service as a benchmark drives it: a real `serve` process on a fresh SQLite database in a
// temp folder, listening on a free port, with a key issued by the operator CLI (quota
// 100,000,000, so a benchmark never meets it). Used by npm run load and npm run bench:recommend.
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'volunteer-scheduler.js');

export interface ServiceProcess {
  child: ChildProcessByStdio<null, Readable, null>;
  port: number;
  /** A complete API key (Bearer). */
  key: string;
  /** Stops the service (SIGTERM) and waits for it to exit. */
  stop: () => Promise<void>;
}

/** Starts the service; `name` names the temp folder and the key's user. */
export async function startService(name: string): Promise<ServiceProcess> {
  const env = { ...process.env, DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), `vs-${name}-`)), `${name}.db`)}`, LOG_LEVEL: 'warn' };
  const key = spawnSync(
    process.execPath,
    [bin, 'keys', 'issue', '--user', name, '--name', `${name} benchmark`, '--description', `the ${name} benchmark`, '--quota', '100000000'],
    { env, encoding: 'utf8' },
  ).stdout.trim();
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.includes('"listening"'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.on('exit', () => {
      reject(new Error(`service exited: ${out}`));
    });
  });
  child.stdout.resume();
  return {
    child,
    port,
    key,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
