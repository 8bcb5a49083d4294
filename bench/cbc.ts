// npm run bench:cbc: our engine, CBC (Debian's coinor-cbc 2.10, installed on demand with apt-get
// when `cbc` is not on the PATH) and CP-SAT (OR-Tools 9.15 as WebAssembly, the npm package
// or-tools-wasm, installed on demand into .cache/) side by side in one run, on the same model: for
// every instance (the generated families and Curtois 1-24), our engine in a fresh process as `npm
// run bench` measures it (bench/measure.ts), then each other solver on exactly the models our
// engine builds, level by level as our engine solves them (bench/same-model.ts). CBC reads each
// level as LP text (MipModel.toLpText) with no start; CP-SAT gets it as an MPModelRequest with the
// level before's schedule (the greedy fill for the first) as its hint (bench/cpsat.ts).
//
// Figures: wall time (CBC, CP-SAT: summed over their runs), slots filled (locks included),
// coverage's upper bound (theirs: the best possible bound, floored; ours: the diagnostics'),
// fully staffed shifts, the wishes met (avoided shifts assigned / hours short of min_hours /
// preferred shifts assigned, locks included), the sum of squared hours and a lower bound on it (ours: less each
// fairness level's gap; theirs: less their fairness MIPs' gaps), and peak memory (ours: the
// process's max RSS; CBC: the largest max RSS of its runs, from /usr/bin/time; CP-SAT: its
// process's VmHWM). Where a request has several priorities and the solvers fill the classes
// differently, the verdict adds each one's slots by priority (5 down to 1) and who is ahead
// lexicographically, as coverage is ranked (CONTRACT 10). Their schedules are checked with the engine's own rule check (greedy.ts
// checkAssignment). Never part of npm test.
//
// Options: --only <substring>, --curtois <list> (default 1-24), --no-curtois, --no-families (not
// the 2.2 rule and wish families), --solvers cbc,cpsat (default both), --cbc-limit <s> and
// --cpsat-limit <s> (per instance, default 300 each), --time-limit <s> (ours, default 10),
// --json <file> (the raw figures), --start ours (CP-SAT starts from our engine's schedule, as
// bench/solve-one.ts --roster writes it, instead of the greedy fill: asked to improve on ours;
// CBC's LP text carries no start), --file <request.json> (repeatable: those requests alone, named
// by their file, instead of the benchmark instances).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { ScheduleRequest } from '../src/types/schema-types.js';
import { ensureOrTools } from './cpsat.js';
import { requestFor } from './generate.js';
import { jobs21, jobsRules, jobsWishes, measure, type Job } from './measure.js';
import { solveSameModel, type LevelTask, type SameModelFigures, type SolverRun } from './same-model.js';
import type { Figures } from './solve-one.js';

const here = fileURLToPath(new URL('.', import.meta.url));

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    file: { type: 'string', multiple: true },
    curtois: { type: 'string' },
    'no-curtois': { type: 'boolean' },
    'no-families': { type: 'boolean' },
    solvers: { type: 'string' },
    'cbc-limit': { type: 'string' },
    'cpsat-limit': { type: 'string' },
    'time-limit': { type: 'string' },
    json: { type: 'string' },
    start: { type: 'string' },
  },
});
if (values.start !== undefined && values.start !== 'ours' && values.start !== 'greedy') throw new Error(`--start: "${values.start}" (greedy, ours)`);
const fromOurs = values.start === 'ours';
const cbcLimit = Number(values['cbc-limit'] ?? '300');
const cpsatLimit = Number(values['cpsat-limit'] ?? '300');
const solvers = new Set((values.solvers ?? 'cbc,cpsat').split(',').map((x) => x.trim()));
for (const name of solvers) if (name !== 'cbc' && name !== 'cpsat') throw new Error(`--solvers: unknown solver "${name}" (cbc, cpsat)`);
const ourLimit = values['time-limit'] ?? '10';

/** CBC on the PATH, installed from Debian when it is not. */
function ensureCbc(): void {
  if (!spawnSync('cbc', ['-quit'], { encoding: 'utf8' }).error) return;
  console.error('cbc is not installed: apt-get install -y coinor-cbc');
  const install = spawnSync('apt-get', ['install', '-y', '-qq', 'coinor-cbc'], { stdio: 'inherit' });
  if (install.status !== 0 || spawnSync('cbc', ['-quit']).error) {
    console.error('could not install coinor-cbc (apt-get install -y coinor-cbc as root, with the Debian mirror reachable)');
    process.exit(1);
  }
}

/** Solves one level's LP text with CBC within its seconds; the objective's sense says which way the bound goes. */
function runCbc(dir: string, task: LevelTask): SolverRun {
  const { name, seconds } = task;
  const sense = task.objective.sense;
  const lpFile = join(dir, `${name}.lp`);
  const solFile = join(dir, `${name}.sol`);
  const timeFile = join(dir, `${name}.time`);
  writeFileSync(lpFile, task.model.toLpText(task.objective, task.held));
  const started = performance.now();
  const run = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%M',
      '-o',
      timeFile,
      'timeout',
      '-s',
      'KILL',
      String(Math.ceil(2 * seconds + 60)),
      'cbc',
      lpFile,
      'sec',
      String(Math.max(1, Math.round(seconds))),
      'ratio',
      '0',
      'solve',
      'solu',
      solFile,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const ms = performance.now() - started;
  // CBC does not always honour `sec` (its fairness LP on Curtois 22 ran for minutes at sec 1):
  // `timeout` stops it at twice its limit and a minute more (exit 137), which counts as no solution.
  const peakMb = Math.round(Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) / 1024);
  const none = (status: string): SolverRun => ({ status, objective: null, bound: null, value: () => 0, ms, peakMb });
  if (run.status === 137) return none(`stopped after ${Math.round(ms / 1000)} s (limit ${Math.round(seconds)} s)`);
  let text = '';
  try {
    text = readFileSync(solFile, 'utf8');
  } catch {
    return none(`no solution (${run.stdout.trim().split('\n').slice(-1)[0] ?? ''})`);
  }
  const [head = '', ...lines] = text.split('\n');
  const status = head.split(' - ')[0]!.trim();
  // Out of time before any integer solution, CBC writes the LP relaxation's values: no schedule.
  if (/no integer solution/i.test(head)) return none(status);
  const objective = /objective value\s+(-?[\d.e+-]+)/i.exec(head);
  const vals = new Map<string, number>();
  for (const line of lines) {
    const parts = line.trim().split(/\s+/);
    if (parts.length >= 3) vals.set(parts[1]!, Number(parts[2]));
  }
  // The log's last "best possible" (CBC minimizes internally: a maximization's bound is printed negated).
  const possible = [...run.stdout.matchAll(/best possible:?\s+(-?[\d.e+-]+)/gi)].pop();
  // CBC prints |objective|: the objectives of our levels are never negative.
  const found = objective ? Math.abs(Number(objective[1])) : null;
  let bound = possible ? Math.abs(Number(possible[1])) : null;
  if (/^Optimal/i.test(status) && found !== null) bound = found;
  if (bound !== null && found !== null) bound = sense === 'max' ? Math.max(bound, found) : Math.min(bound, found);
  const colNames = task.model.colNames;
  return { status, objective: found, bound, value: (col) => vals.get(colNames[col]!) ?? 0, ms, peakMb };
}

/** CBC on every subproblem of the request (bench/same-model.ts), in a scratch directory for its LP and solution files. */
async function solveWithCbc(request: ScheduleRequest, limitS: number): Promise<SameModelFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'vs-cbc-'));
  try {
    return await solveSameModel(request, limitS, (task) => Promise.resolve(runCbc(dir, task)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CP-SAT on every subproblem of the request, in a child process (bench/cpsat.ts) so that its peak memory is its own. */
function solveWithCpsat(job: Job, limitS: number, roster?: string): SameModelFigures | { error: string } {
  const run = spawnSync(
    process.execPath,
    ['--max-old-space-size=8192', join(here, 'cpsat.js'), ...(roster ? ['--start', roster] : []), job.arg, String(limitS)],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
  try {
    return JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as SameModelFigures;
  } catch {
    return { error: failureOf(run.stderr || run.stdout) ?? `exit ${run.status}` };
  }
}

/**
 * What a failed child process says went wrong, in one line: its last error line, with the
 * WebAssembly memory message where there is one. Node prints the source line of an uncaught
 * error before it, which for minified code (OR-Tools' module) is the whole 200 KB file: lines that
 * long, stack frames and the Node.js version line are left out.
 */
function failureOf(output: string): string | undefined {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && l.length <= 300 && !l.startsWith('at ') && !l.startsWith('Node.js v') && !l.startsWith('file://') && !/^\^+$/.test(l));
  const memory = lines.find((l) => l.startsWith('Cannot enlarge memory'));
  const last = lines.filter((l) => /Error|Abort/.test(l)).pop() ?? lines.pop();
  return memory && last !== memory ? `${last} (${memory})` : last;
}

if (solvers.has('cbc')) ensureCbc();
if (solvers.has('cpsat') && !ensureOrTools()) process.exit(1);
const selection = { only: values.only, curtois: values.curtois, noCurtois: values['no-curtois'] };
// The 2.1 families and Curtois, then (unless --no-families) the 2.2 rule and wish families.
// --file: request files (an instance this project has never seen), alone.
const files = (values.file ?? []).map((arg) => ({ name: basename(arg, '.json'), arg: resolve(arg) }));
const jobs = files.length > 0 ? files : [...jobs21(selection), ...(values['no-families'] ? [] : [...jobsRules(selection), ...jobsWishes(selection)])];
const others = [...(solvers.has('cbc') ? [{ name: 'CBC', limit: cbcLimit }] : []), ...(solvers.has('cpsat') ? [{ name: 'CP-SAT', limit: cpsatLimit }] : [])];
console.log(
  `Ours: time limit ${ourLimit} s, first solve in a fresh process ("(clock)": the time limit stopped some of its work, diagnostics.time_limited). ${others.map((o) => `${o.name}: ${o.limit} s`).join(', ')} per instance on the same models.${fromOurs ? ' CP-SAT starts from our schedule.' : ''}\n`,
);
const block = (who: string): string => `${who}: time | filled | bound | staffed | wishes | sum sq. | its bound | peak`;
console.log(`| instance | ${[block('ours'), ...others.map((o) => block(o.name))].join(' | ')} | coverage |`);
console.log(`|---|${'---:|'.repeat(8 * (1 + others.length))}---|`);
const cell = (v: number | null | undefined): string => (v === null || v === undefined || Number.isNaN(v) ? '?' : String(Math.round(v)));
/** Avoided shifts assigned / hours short of min_hours / preferred shifts assigned. */
const wishCell = (w: Figures['wishes'] | undefined): string => (w ? `${w.avoided}/${w.hours_below_min}/${w.preferred}` : '?');
const theirCells = (f: SameModelFigures | { error: string }): string =>
  'error' in f
    ? `failed: ${f.error} | | | | | | |`
    : `${(f.ms / 1000).toFixed(1)} s | ${f.filled} | ${f.bound} | ${f.fullyStaffed} | ${wishCell(f.wishes)} | ${cell(f.sumSquares)} | ${cell(f.sumSquaresBound)} | ${f.peakMb} MB`;
const remarks = (name: string, f: SameModelFigures | { error: string }): string =>
  'error' in f
    ? ''
    : `${f.problems ? ` (${name}: ${f.problems} subproblems break a rule)` : ''}${f.unsolved ? ` (${name}: no integer solution for coverage in ${f.unsolved} subproblems)` : ''}${f.kept ? ` (${name}: ${f.kept} later levels found none; the level before's schedule kept)` : ''}${f.started !== undefined ? ` (${name}: started from ours in ${f.started} subproblems)` : ''}`;
const raw: Array<{ name: string; ours: Figures | { error: string }; cbc?: SameModelFigures; cpsat?: SameModelFigures | { error: string } }> = [];
const scratch = mkdtempSync(join(tmpdir(), 'vs-bench-'));
for (const job of jobs) {
  const roster = fromOurs ? join(scratch, 'roster.json') : undefined;
  if (roster) rmSync(roster, { force: true });
  const measured = measure(job, 'highs', ourLimit, undefined, roster);
  const started = roster && measured.ok && existsSync(roster) ? roster : undefined;
  const cbc = solvers.has('cbc') ? await solveWithCbc(requestFor(job.arg), cbcLimit) : undefined;
  const cpsat = solvers.has('cpsat') ? solveWithCpsat(job, cpsatLimit, started) : undefined;
  raw.push({ name: job.name, ours: measured.ok ? measured.figures : { error: measured.error }, ...(cbc ? { cbc } : {}), ...(cpsat ? { cpsat } : {}) });
  const o = measured.ok ? measured.figures : undefined;
  const theirs = [...(cbc ? [{ name: 'CBC', f: cbc }] : []), ...(cpsat ? [{ name: 'CP-SAT', f: cpsat }] : [])];
  const best = Math.max(...theirs.map((t) => ('error' in t.f ? -1 : t.f.filled)));
  const verdict = !o
    ? `ours failed: ${measured.ok ? '' : measured.error}`
    : o.filled > best
      ? 'ours more'
      : o.filled === best
        ? 'same'
        : `${theirs
            .filter((t) => !('error' in t.f) && t.f.filled === best)
            .map((t) => t.name)
            .join(', ')} more`;
  // Coverage is lexicographic by priority (CONTRACT 10): where the totals do not say it all, the classes, 5 down to 1.
  const classes = (f: readonly number[]): string => f.join('/');
  const byClass =
    o && o.demanded_by_priority.filter((d) => d > 0).length > 1
      ? theirs
          .filter((t) => !('error' in t.f) && classes(t.f.filledByPriority) !== classes(o.filled_by_priority))
          .map((t) => {
            const f = t.f as SameModelFigures;
            const first = o.filled_by_priority.findIndex((n, i) => n !== f.filledByPriority[i]);
            const ahead = o.filled_by_priority[first]! > f.filledByPriority[first]! ? 'ours' : t.name;
            return ` (by priority 5/4/3/2/1: ours ${classes(o.filled_by_priority)}, ${t.name} ${classes(f.filledByPriority)}; ${ahead} ahead at priority ${5 - first})`;
          })
          .join('')
      : '';
  const ours = `${o ? (o.wall_ms / 1000).toFixed(2) : '?'} s${o?.time_limited ? ' (clock)' : ''} | ${cell(o?.filled)} | ${cell(o?.bound)} | ${cell(o?.fully_staffed)} | ${wishCell(o?.wishes)} | ${cell(o?.sum_squared_hours)} | ${cell(o?.sum_squares_bound)} | ${cell(o?.peak_mb)} MB`;
  console.log(
    `| ${job.name} | ${[ours, ...theirs.map((t) => theirCells(t.f))].join(' | ')} | ${verdict}${byClass}${theirs.map((t) => remarks(t.name, t.f)).join('')} |`,
  );
}
rmSync(scratch, { recursive: true, force: true });
if (values.json) writeFileSync(values.json, JSON.stringify(raw, null, 2));
