// What every benchmark table shares: the list of instances and one measurement of an instance in
// a child process (bench/solve-one.ts), so that each instance's peak memory is its own.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedInstances, rulesInstances, wishesInstances } from './generate.js';
import type { Figures } from './solve-one.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const solveOne = join(here, 'solve-one.js');
export const curtoisDir = join(here, '..', '..', '..', 'shared', 'benchmarks', 'curtois');

/** An instance to measure: a generated name, or the path of a request file. */
export interface Job {
  name: string;
  arg: string;
}

export interface JobSelection {
  only?: string;
  /** Curtois instance numbers, such as "1-12,20" (default 1-24). */
  curtois?: string;
  noCurtois?: boolean;
}

function range(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    return b === undefined ? [a!] : Array.from({ length: b - a! + 1 }, (_, i) => a! + i);
  });
}

/** The 2.1 instances: the generated ones and the Curtois payloads (where ../shared has them). */
export function jobs21(o: JobSelection): Job[] {
  const jobs: Job[] = generatedInstances().map((i) => ({ name: i.name, arg: i.name }));
  if (!o.noCurtois && existsSync(curtoisDir)) {
    for (const n of range(o.curtois ?? '1-24')) jobs.push({ name: `curtois-${n}`, arg: join(curtoisDir, `instance${n}.json`) });
  }
  return jobs.filter((j) => !o.only || j.name.includes(o.only));
}

/** The 2.2 rule-heavy instances. */
export function jobsRules(o: JobSelection): Job[] {
  return rulesInstances()
    .map((i) => ({ name: i.name, arg: i.name }))
    .filter((j) => !o.only || j.name.includes(o.only));
}

/** The wish-heavy instances (generate.ts wishesInstances). */
export function jobsWishes(o: JobSelection): Job[] {
  return wishesInstances()
    .map((i) => ({ name: i.name, arg: i.name }))
    .filter((j) => !o.only || j.name.includes(o.only));
}

/** Measures one instance in a fresh process; `root` loads the service from another checkout's dist/. */
export function measure(
  job: Job,
  backend: string,
  limit: string,
  root?: string,
  roster?: string,
): { ok: true; figures: Figures } | { ok: false; error: string } {
  const args = ['--max-old-space-size=4096', solveOne, ...(root ? ['--root', root] : []), ...(roster ? ['--roster', roster] : []), job.arg, backend, limit];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const line = run.stdout.trim().split('\n').pop() ?? '';
  try {
    return { ok: true, figures: JSON.parse(line) as Figures };
  } catch {
    return { ok: false, error: (run.stderr || run.stdout).trim().split('\n').slice(-1)[0] ?? `exit ${run.status}` };
  }
}
