// npm run bench -- --only cli: the wall time of the command line, `volunteer-scheduler schedule`,
// from start to exit (node's start, loading, the solver, the solve, printing, exiting), as a
// person at a terminal waits for it. Each run is a fresh process; the median of --repeat runs
// (default 5) is printed. With BENCH_BASELINE=<another checkout, built> the same requests run
// on that checkout's command too, alternating with this one's run by run, so that a drift of the
// machine's speed does not favour one side; the table then says whether both printed the same
// schedule.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { festival, generatedInstance } from './generate.js';

const here = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** A CLI benchmark: a name (selected by --only, like the instances) and the schedule command's arguments. */
export interface CliJob {
  name: string;
  request: string;
  args: string[];
}

/** The example files and a medium request, solved in the CLI's thread; one past the threshold and a large one, solved on the pool. */
export function cliJobs(only?: string): CliJob[] {
  const dir = mkdtempSync(join(tmpdir(), 'vs-bench-cli-'));
  const file = (name: string, request: unknown): string => {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify(request));
    return path;
  };
  const example = (name: string): string => join(here, 'examples', name);
  const jobs: Array<Omit<CliJob, 'args'> & { args: () => string[] }> = [
    { name: 'cli-json-example', request: 'examples/request.json: 5 volunteers, 5 shifts', args: () => [example('request.json')] },
    {
      name: 'cli-csv-example',
      request: 'examples/*.csv: 30 volunteers, 16 shifts',
      args: () => ['--volunteers', example('volunteers.csv'), '--shifts', example('shifts.csv'), '--timezone', 'America/Chicago'],
    },
    {
      name: 'cli-foodbank-60x60',
      request: 'medium: foodbank-60x60',
      args: () => [file('foodbank-60x60', generatedInstance('foodbank-60x60')!.request)],
    },
    {
      name: 'cli-festival-100x80',
      request: 'past the threshold: festival, 100 volunteers, 80 shifts',
      args: () => [file('festival-100x80', festival({ seed: 11, volunteers: 100, shifts: 80, days: 2, groups: 4 }))],
    },
    {
      name: 'cli-festival-400x300',
      request: 'large: festival-400x300',
      args: () => [file('festival-400x300', generatedInstance('festival-400x300')!.request)],
    },
  ];
  return jobs.filter((j) => !only || j.name.includes(only)).map((j) => ({ ...j, args: j.args() }));
}

interface Run {
  ms: number;
  stdout: string;
  error?: string;
}

/** One run of `schedule` from `root`'s bin, start to exit. */
function runOnce(root: string, args: string[]): Run {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [join(root, 'bin', 'volunteer-scheduler.js'), 'schedule', ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) return { ms, stdout: '', error: `exit ${run.status ?? run.signal}: ${run.stderr.trim().split('\n').pop() ?? ''}` };
  return { ms, stdout: run.stdout };
}

/** Where this checkout's command solves the request (its --debug line), if it says. */
function solvedWhere(args: string[]): string {
  const run = spawnSync(process.execPath, [join(here, 'bin', 'volunteer-scheduler.js'), 'schedule', ...args, '--debug', 'true'], {
    cwd: here,
    encoding: 'utf8',
  });
  const said = /size ([\d,]+), solving (in this thread|on \d+ solver worker threads?)/.exec(run.stderr);
  return said ? `${said[2] === 'in this thread' ? 'this thread' : 'pool'} (size ${said[1]})` : '?';
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const spread = (xs: number[]): string => `${seconds(Math.min(...xs))}-${seconds(Math.max(...xs))}`;

/**
 * Whether every run printed the same schedule; if not, how many different ones each side
 * printed, and whether the schedule each side printed most is the same. The engine stops a phase
 * on the clock (the time limit, and a MIP that finds nothing better for 0.3 s), so a machine
 * busy with other work can make either side print another schedule now and then.
 */
function sameSchedule(before: Run[], after: Run[]): string {
  const outputs = (runs: Run[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const r of runs) m.set(r.stdout, (m.get(r.stdout) ?? 0) + 1);
    return m;
  };
  const b = outputs(before);
  const a = outputs(after);
  if (b.size === 1 && a.size === 1 && b.has(after[0]!.stdout)) return 'yes';
  const common = (m: Map<string, number>): string => [...m].sort((x, y) => y[1] - x[1])[0]![0];
  return `no: ${b.size} schedules before, ${a.size} after; the commonest ${common(b) === common(a) ? 'is' : 'is not'} the same`;
}

export function runCliBenchmark(jobs: CliJob[], options: { repeat: number; baseline?: string }): void {
  const repeat = Math.max(1, Math.floor(options.repeat) || 1);
  const baseline = options.baseline ? resolve(options.baseline) : undefined;
  const load = (): string =>
    loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
  console.log(
    `\nCommand line: \`volunteer-scheduler schedule\`, wall time from start to exit, median of ${repeat} runs (fastest-slowest)${baseline ? `; before: ${baseline}, after: this checkout, alternating` : ''}. Load average at the start: ${load()}.\n`,
  );
  if (baseline) {
    console.log('| request | solved (after) | before | after | change | before, all runs | after, all runs | same schedule |');
    console.log('| --- | --- | ---: | ---: | ---: | --- | --- | --- |');
  } else {
    console.log('| request | solved | wall time | all runs |');
    console.log('| --- | --- | ---: | --- |');
  }
  for (const job of jobs) {
    const after: Run[] = [];
    const before: Run[] = [];
    for (let k = 0; k < repeat; k++) {
      const sides: Array<[string, Run[]]> = baseline
        ? [
            [baseline, before],
            [here, after],
          ]
        : [[here, after]];
      if (k % 2 === 1) sides.reverse();
      for (const [root, runs] of sides) runs.push(runOnce(root, job.args));
    }
    const failed = [...before, ...after].find((r) => r.error);
    if (failed) {
      console.log(`| ${job.request} | failed: ${failed.error} |`);
      continue;
    }
    const where = solvedWhere(job.args);
    const a = after.map((r) => r.ms);
    if (!baseline) {
      console.log(`| ${job.request} | ${where} | ${seconds(median(a))} | ${spread(a)} |`);
      continue;
    }
    const b = before.map((r) => r.ms);
    const change = `${(((median(a) - median(b)) / median(b)) * 100).toFixed(0)}%`;
    const same = sameSchedule(before, after);
    console.log(`| ${job.request} | ${where} | ${seconds(median(b))} | ${seconds(median(a))} | ${change} | ${spread(b)} | ${spread(a)} | ${same} |`);
  }
  console.log(`\nLoad average at the end: ${load()}.`);
}
