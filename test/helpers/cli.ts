// Runs the real command (bin/volunteer-scheduler.js) in a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';

export const BIN = join(packageRoot, 'bin', 'volunteer-scheduler.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, cwd: packageRoot });
    collect(child, resolve, reject);
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

export function collect(child: ChildProcess, resolve: (r: CliResult) => void, reject: (e: Error) => void): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer | string) => {
    stdout += c.toString();
  });
  child.stderr?.on('data', (c: Buffer | string) => {
    stderr += c.toString();
  });
  child.on('error', reject);
  child.on('close', (code, signal) => {
    resolve({ code, signal, stdout, stderr });
  });
  return { stdout: () => stdout, stderr: () => stderr };
}

export interface RunningService {
  port: number;
  /** Everything the service printed so far. */
  stdout: () => string;
  /** Resolves once the service has printed `text` on stdout (at once if it already has). */
  printed(text: string): Promise<void>;
  /** Sends SIGTERM and resolves with how the process ended. */
  stop(): Promise<CliResult>;
  /** Kills it if still running (for finally blocks). */
  kill(): void;
}

/** Starts `volunteer-scheduler serve` on a free port and waits for its "listening" line. */
export async function startService(env: Record<string, string>): Promise<RunningService> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }, cwd: packageRoot });
  const exited = new Promise<CliResult>((resolve, reject) => collect(child, resolve, reject));
  let out = '';
  child.stdout.on('data', (c: Buffer | string) => {
    out += c.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no listening line: ${out}`));
    }, 30_000);
    child.stdout.on('data', () => {
      const line = out.split('\n').find((l) => l.includes('"listening"'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      }
    });
    child.on('exit', () => {
      reject(new Error(`the service exited before listening: ${out}`));
    });
  });
  return {
    port,
    stdout: () => out,
    printed: (text) =>
      new Promise<void>((resolve, reject) => {
        const look = (): boolean => {
          if (!out.includes(text)) return false;
          child.stdout.off('data', look);
          resolve();
          return true;
        };
        if (look()) return;
        child.stdout.on('data', look);
        child.once('exit', () => {
          if (out.includes(text)) resolve();
          else reject(new Error(`the service exited without printing ${text}: ${out}`));
        });
      }),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: () => void child.kill('SIGKILL'),
  };
}
