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
  child.stdout?.on('data', (c) => (stdout += c));
  child.stderr?.on('data', (c) => (stderr += c));
  child.on('error', reject);
  child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  return { stdout: () => stdout, stderr: () => stderr };
}
