// npm run bench:cbc: our engine and CBC (Debian's coinor-cbc 2.10, installed on demand with
// apt-get when `cbc` is not on the PATH) side by side in one run, on the same model: for every
// instance (the generated families and Curtois 1-24), our engine in a fresh process as
// `npm run bench` measures it (bench/measure.ts), then CBC on exactly the models our engine builds
// (the request split into subproblems, each prepared and formulated by src/engine, written as LP
// text by MipModel.toLpText). CBC solves them lexicographically as our levels do: coverage (one
// MIP per priority class, highest first, each reached value held on its row), then the sum of
// fully staffed shifts, the wishes' levels the subproblem has (previous assignments kept, avoided
// shifts, hours short of min_hours, preferred shifts), then the sum of squared hours (the model's
// piecewise objective), each with the levels before it held.
//
// Time: CBC gets --cbc-limit seconds per instance (default 300), split among subproblems by
// candidate pairs; within a subproblem coverage has two thirds, and each later level a share of
// what is left (fairness the most). Figures: wall time (CBC: summed over its runs), slots filled (locks included),
// coverage's upper bound (CBC: its best possible bound, floored; ours: the diagnostics'), the sum
// of squared hours and a lower bound on it (ours: less each fairness level's gap; CBC: less its
// fairness MIPs' gaps), and peak memory (ours: the process's max RSS; CBC: the largest max RSS of
// its runs, from /usr/bin/time). CBC's assignment is checked with the engine's own rule check
// (greedy.ts checkAssignment). Never part of npm test.
//
// Options: --only <substring>, --curtois <list> (default 1-24), --no-curtois, --no-families (not
// the 2.2 rule and wish families), --cbc-limit <s>,
// --time-limit <s> (ours, default 10), --json <file> (the raw figures).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadsOf, prepare } from '../src/engine/candidates.js';
import { formulate, type Formulation } from '../src/engine/formulate.js';
import { bestGreedyFill, checkAssignment } from '../src/engine/greedy.js';
import type { Objective } from '../src/engine/mip-model.js';
import { decompose } from '../src/engine/subproblem.js';
import { normalizeRequest } from '../src/input/problem.js';
import type { ScheduleRequest } from '../src/types/schema-types.js';
import { generatedInstance } from './generate.js';
import { jobs21, jobsRules, jobsWishes, measure, type Job } from './measure.js';
import type { Figures } from './solve-one.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    curtois: { type: 'string' },
    'no-curtois': { type: 'boolean' },
    'no-families': { type: 'boolean' },
    'cbc-limit': { type: 'string' },
    'time-limit': { type: 'string' },
    json: { type: 'string' },
  },
});
const cbcLimit = Number(values['cbc-limit'] ?? '300');
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

interface CbcRun {
  status: string;
  objective: number | null;
  /** CBC's best possible objective (a bound), when it says. */
  bound: number | null;
  /** Column values by name (CBC writes only the nonzero ones). */
  values: Map<string, number>;
  ms: number;
  peakMb: number;
}

/** Solves LP text with CBC within `seconds`; `sense` says which way the bound goes. */
function runCbc(dir: string, name: string, lp: string, seconds: number, sense: Objective['sense']): CbcRun {
  const lpFile = join(dir, `${name}.lp`);
  const solFile = join(dir, `${name}.sol`);
  const timeFile = join(dir, `${name}.time`);
  writeFileSync(lpFile, lp);
  const started = performance.now();
  const run = spawnSync(
    '/usr/bin/time',
    ['-f', '%M', '-o', timeFile, 'cbc', lpFile, 'sec', String(Math.max(1, Math.round(seconds))), 'ratio', '0', 'solve', 'solu', solFile],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  );
  const ms = performance.now() - started;
  const peakMb = Math.round(Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) / 1024);
  let text = '';
  try {
    text = readFileSync(solFile, 'utf8');
  } catch {
    return { status: `no solution (${run.stdout.trim().split('\n').slice(-1)[0] ?? ''})`, objective: null, bound: null, values: new Map(), ms, peakMb };
  }
  const [head = '', ...lines] = text.split('\n');
  const status = head.split(' - ')[0]!.trim();
  // Out of time before any integer solution, CBC writes the LP relaxation's values: no schedule.
  if (/no integer solution/i.test(head)) return { status, objective: null, bound: null, values: new Map(), ms, peakMb };
  const objective = /objective value\s+(-?[\d.e+-]+)/i.exec(head);
  const vals = new Map<string, number>();
  for (const line of lines) {
    const parts = line.trim().split(/\s+/);
    if (parts.length >= 3) vals.set(parts[1]!, Number(parts[2]));
  }
  // The log's last "best possible" (CBC minimizes internally: a maximization's bound is printed negated).
  const possible = [...run.stdout.matchAll(/best possible:?\s+(-?[\d.e+-]+)/gi)].pop();
  const found = objective ? Math.abs(Number(objective[1])) : null;
  let bound = possible ? Math.abs(Number(possible[1])) : null;
  if (/^Optimal/i.test(status) && found !== null) bound = found;
  if (bound !== null && found !== null) bound = sense === 'max' ? Math.max(bound, found) : Math.min(bound, found);
  return { status, objective: found, bound, values: vals, ms, peakMb };
}

interface CbcFigures {
  ms: number;
  filled: number;
  bound: number;
  sumSquares: number;
  sumSquaresBound: number;
  fullyStaffed: number;
  peakMb: number;
  /** Subproblems where a level before fairness found no integer solution in its time (CBC's answer stops at the level before). */
  unsolved: number;
  statuses: string[];
  problems: number;
}

/** The 0/1 pair vector of a CBC solution. */
function pairsOf(f: Formulation, run: CbcRun): Uint8Array {
  return Uint8Array.from({ length: f.numPairs }, (_, j) => ((run.values.get(f.model.colNames[j]!) ?? 0) > 0.5 ? 1 : 0));
}

/** CBC on every subproblem of the request, the same models our engine solves. */
function solveWithCbc(request: ScheduleRequest, limitS: number): CbcFigures {
  const dir = mkdtempSync(join(tmpdir(), 'vs-cbc-'));
  try {
    const problem = normalizeRequest(request);
    const filledKind = new Map<string, number>();
    const kind = (shift: number, group: string): string => `${shift}\u0000${group}`;
    const subs = decompose(problem).map((sub) => {
      const p = prepare(sub);
      const x = bestGreedyFill(p);
      return { sub, p, f: formulate(p, loadsOf(p, x)) };
    });
    const totalPairs = Math.max(
      1,
      subs.reduce((t, s) => t + s.p.candShift.length, 0),
    );
    const out: CbcFigures = {
      ms: 0,
      filled: 0,
      bound: 0,
      sumSquares: 0,
      sumSquaresBound: 0,
      fullyStaffed: 0,
      peakMb: 0,
      unsolved: 0,
      statuses: [],
      problems: 0,
    };
    subs.forEach(({ sub, p, f }, i) => {
      const locked = sub.shifts.reduce((t, s) => t + Math.min(s.required, s.locked), 0);
      const hours = (x: Uint8Array): number => loadsOf(p, x).reduce((t, v) => t + v * v, 0);
      for (const s of sub.shifts) filledKind.set(kind(s.index, s.group), (filledKind.get(kind(s.index, s.group)) ?? 0) + s.locked);
      if (p.candShift.length === 0) {
        out.filled += locked;
        out.bound += locked;
        const sq = hours(new Uint8Array(0));
        out.sumSquares += sq;
        out.sumSquaresBound += sq;
        return;
      }
      const share = (limitS * p.candShift.length) / totalPairs;
      let left = share;
      const held = new Map<number, [number, number]>();
      let x: Uint8Array = new Uint8Array(f.numPairs);
      let bound = locked;
      let covered = true;
      for (const [k, level] of f.coverage.entries()) {
        const seconds = (left * 2) / 3 / (f.coverage.length - k);
        const run = runCbc(dir, `s${i}-cover${k}`, f.model.toLpText(level.objective, held), seconds, 'max');
        left -= run.ms / 1000;
        out.ms += run.ms;
        out.peakMb = Math.max(out.peakMb, run.peakMb);
        out.statuses.push(`cover:${run.status}`);
        if (run.objective === null) {
          covered = false;
          break;
        }
        x = pairsOf(f, run);
        let reached = 0;
        x.forEach((b, pair) => (reached += b && p.slotClass[p.candShift[pair]!] === k ? 1 : 0));
        bound += Math.floor((run.bound ?? reached) + 1e-6);
        held.set(level.fixRow, [reached, Infinity]);
      }
      // Then staffing and the wishes' levels the subproblem has, in the contract's order, each held at its reached value.
      const after = covered
        ? [
            { name: 'staff', objective: f.staffing, fixRow: f.staffFixRow },
            ...(['previous', 'avoided', 'short', 'preferred'] as const).flatMap((name) => {
              const w = f.wishes[name];
              return w ? [{ name, objective: w.objective, fixRow: w.fixRow }] : [];
            }),
          ]
        : [];
      for (const [k, level] of after.entries()) {
        const sense = level.objective.sense;
        const run = runCbc(dir, `s${i}-${level.name}`, f.model.toLpText(level.objective, held), Math.max(1, left / (after.length - k + 1)), sense);
        left -= run.ms / 1000;
        out.ms += run.ms;
        out.peakMb = Math.max(out.peakMb, run.peakMb);
        out.statuses.push(`${level.name}:${run.status}`);
        if (run.objective === null) {
          covered = false;
          break;
        }
        x = pairsOf(f, run);
        // CBC prints |objective|: the objectives of these levels are never negative.
        held.set(level.fixRow, sense === 'max' ? [run.objective - 1e-6, Infinity] : [-Infinity, run.objective + 1e-6]);
      }
      // A level CBC found no schedule for ends the subproblem: fairness without it held would not compare.
      const fair = !covered ? undefined : runCbc(dir, `s${i}-fair`, f.model.toLpText(f.fairness, held), Math.max(1, left), 'min');
      if (fair) {
        out.ms += fair.ms;
        out.peakMb = Math.max(out.peakMb, fair.peakMb);
        out.statuses.push(`fair:${fair.status}`);
        if (fair.objective !== null) x = pairsOf(f, fair);
      } else out.unsolved++;
      if (checkAssignment(p, x) !== undefined) out.problems++;
      x.forEach((b, pair) => {
        const s = sub.shifts[p.candShift[pair]!]!;
        if (b) filledKind.set(kind(s.index, s.group), (filledKind.get(kind(s.index, s.group)) ?? 0) + 1);
      });
      const sq = hours(x);
      out.filled += locked + x.reduce((t: number, b) => t + b, 0);
      out.bound += bound;
      out.sumSquares += sq;
      // The piecewise objective equals the sum of squares at the breakpoints; less CBC's gap on it.
      out.sumSquaresBound += fair && fair.objective !== null && fair.bound !== null ? sq - Math.max(0, fair.objective - fair.bound) : 0;
    });
    // Fully staffed shifts as the result's summary counts them: every group the shift asks for filled.
    for (const s of problem.shifts) {
      const asked = [...s.required].filter(([, n]) => n > 0);
      if (asked.length > 0 && asked.every(([g, n]) => (filledKind.get(kind(s.index, g)) ?? 0) >= n)) out.fullyStaffed++;
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function requestOf(job: Job): ScheduleRequest {
  return job.arg.endsWith('.json') ? (JSON.parse(readFileSync(job.arg, 'utf8')) as ScheduleRequest) : generatedInstance(job.arg)!.request;
}

ensureCbc();
const selection = { only: values.only, curtois: values.curtois, noCurtois: values['no-curtois'] };
// The 2.1 families and Curtois, then (unless --no-families) the 2.2 rule and wish families.
const jobs = [...jobs21(selection), ...(values['no-families'] ? [] : [...jobsRules(selection), ...jobsWishes(selection)])];
console.log(`Ours: time limit ${ourLimit} s, first solve in a fresh process. CBC: ${cbcLimit} s per instance on the same models.\n`);
console.log(
  '| instance | ours: time | filled | bound | staffed | sum sq. | its bound | peak | CBC: time | filled | bound | staffed | sum sq. | its bound | peak | coverage |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
const raw: Array<{ name: string; ours: Figures | { error: string }; cbc: CbcFigures }> = [];
for (const job of jobs) {
  const measured = measure(job, 'highs', ourLimit);
  const cbc = solveWithCbc(requestOf(job), cbcLimit);
  raw.push({ name: job.name, ours: measured.ok ? measured.figures : { error: measured.error }, cbc });
  const o = measured.ok ? measured.figures : undefined;
  const cell = (v: number | null | undefined): string => (v === null || v === undefined || Number.isNaN(v) ? '?' : String(Math.round(v)));
  const verdict = !o
    ? `ours failed: ${measured.ok ? '' : measured.error}`
    : o.filled > cbc.filled
      ? 'ours more'
      : o.filled === cbc.filled
        ? 'same'
        : 'CBC more';
  console.log(
    `| ${job.name} | ${o ? (o.wall_ms / 1000).toFixed(2) : '?'} s | ${cell(o?.filled)} | ${cell(o?.bound)} | ${cell(o?.fully_staffed)} | ${cell(o?.sum_squared_hours)} | ${cell(o?.sum_squares_bound)} | ${cell(o?.peak_mb)} MB | ${(cbc.ms / 1000).toFixed(1)} s | ${cbc.filled} | ${cbc.bound} | ${cbc.fullyStaffed} | ${cell(cbc.sumSquares)} | ${cbc.unsolved ? '?' : cell(cbc.sumSquaresBound)} | ${cbc.peakMb} MB | ${verdict}${cbc.problems ? ` (CBC: ${cbc.problems} subproblems break a rule)` : ''}${cbc.unsolved ? ` (CBC: no integer solution for a level in ${cbc.unsolved} subproblems)` : ''} |`,
  );
}
if (values.json) writeFileSync(values.json, JSON.stringify(raw, null, 2));
