// The schedule command: where it solves (in its own thread for a small request, on the solver
// pool for a large one), and that the two give the schedule the HTTP path gives, byte for byte,
// for the examples, generated requests and a rule-heavy one, from JSON and from CSV. Options,
// exit codes, SIGINT and a clean exit on both paths. Speed is measured by `npm run bench --
// --only cli`, never here.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { festival, generatedInstance } from '../../bench/generate.js';
import { packageRoot } from '../../src/package-root.js';
import { IN_THREAD_MAX_SIZE } from '../../src/service/schedule-service.js';
import { fixture, testApp } from '../helpers/app.js';
import { BIN, collect, runCli, type CliResult } from '../helpers/cli.js';

type Json = Record<string, any>;
const tmp = mkdtempSync(join(tmpdir(), 'vs-schedule-'));
const example = (name: string): string => join(packageRoot, 'examples', name);
const CSV_ARGS = ['--volunteers', example('volunteers.csv'), '--shifts', example('shifts.csv'), '--timezone', 'America/Chicago'];

/** Writes a request to a file of its own and returns the path. */
function requestFile(name: string, request: unknown): string {
  const file = join(tmp, `${name}.json`);
  writeFileSync(file, JSON.stringify(request));
  return file;
}

/** The JSON text without the whitespace between its tokens: the CLI's indented output as the API sends it. */
function compact(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += json[++i]!;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      out += c;
      inString = true;
    } else if (c !== ' ' && c !== '\n') out += c;
  }
  return out;
}

/** The diagnostics without their timings (every `ms` and `*_ms`), which differ from run to run. */
function untimed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untimed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'ms' && !k.endsWith('_ms'))
      .map(([k, v]) => [k, untimed(v)]),
  );
}

function ok(r: CliResult): string {
  expect(r.code, r.stderr).to.equal(0);
  return r.stdout;
}

/** Where the run said it solved (with --debug). */
const where = (r: CliResult): string => /solving (in this thread|on \d+ solver worker threads?)/.exec(r.stderr)?.[1] ?? `(no line) ${r.stderr}`;

describe('volunteer-scheduler schedule', function () {
  this.timeout(180_000);

  it('--help says where it solves, the size threshold and --pool', async () => {
    const r = await runCli(['schedule', '--help']);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.match(/^Usage: volunteer-scheduler schedule/);
    expect(r.stdout)
      .to.include('--pool auto|yes|no')
      .and.include(`size ${IN_THREAD_MAX_SIZE.toLocaleString('en-US')} or less is solved in`)
      .and.include('SOLVER_WORKERS');
  });

  describe('the same schedule in this thread, on the pool and over HTTP', () => {
    const jsonCases: Array<{ name: string; file: () => string; pooledCli?: boolean }> = [
      { name: 'examples/request.json', file: () => example('request.json'), pooledCli: true },
      { name: 'the lock-breaks fixture', file: () => requestFile('lock-breaks', fixture('requests/lock-breaks.json')) },
      { name: 'generated festival-50x30', file: () => requestFile('festival-50x30', generatedInstance('festival-50x30')!.request) },
      { name: 'rule-heavy rules-foodbank-40x35', file: () => requestFile('rules-foodbank-40x35', generatedInstance('rules-foodbank-40x35')!.request) },
    ];

    for (const c of jsonCases) {
      const also = c.pooledCli ? ', and --pool yes' : '';
      it(`${c.name}: solved in this thread, the same bytes as POST /api/schedule (on the pool)${also}`, async () => {
        const file = c.file();
        const inThread = ok(await runCli(['schedule', file]));
        const res = await testApp().request.post('/api/schedule').set('Content-Type', 'application/json').send(readFileSync(file, 'utf8'));
        expect(res.status, res.text).to.equal(200);
        expect(compact(inThread.trimEnd())).to.equal(res.text);
        if (c.pooledCli) expect(ok(await runCli(['schedule', file, '--pool', 'yes']))).to.equal(inThread);
        const said = await runCli(['schedule', file, '--debug', 'true']);
        expect(said.stderr).to.match(/size [\d,]+, solving in this thread \(the pool starts above 2,000\)/);
      });
    }

    it('the CSV exports: solved in this thread, the same bytes as POST /api/schedule/csv, and --pool yes', async () => {
      const inThread = ok(await runCli(['schedule', ...CSV_ARGS]));
      const pooled = ok(await runCli(['schedule', ...CSV_ARGS, '--pool', 'yes']));
      expect(inThread).to.equal(pooled);
      const res = await testApp()
        .request.post('/api/schedule/csv')
        .attach('volunteers', readFileSync(example('volunteers.csv')), 'volunteers.csv')
        .attach('shifts', readFileSync(example('shifts.csv')), 'shifts.csv')
        .field('timezone', 'America/Chicago');
      expect(res.status, res.text).to.equal(200);
      expect(compact(inThread.trimEnd())).to.equal(res.text);
      expect(where(await runCli(['schedule', ...CSV_ARGS, '--debug', 'true']))).to.equal('in this thread');
    });

    it('a request above the threshold goes to the pool, and --pool no gives the same schedule', async () => {
      // 100 volunteers in 4 groups on 80 shifts: size 2,460.
      const file = requestFile('festival-100x80', festival({ seed: 11, volunteers: 100, shifts: 80, days: 2, groups: 4 }));
      const auto = await runCli(['schedule', file, '--debug', 'true']);
      expect(auto.code, auto.stderr).to.equal(0);
      expect(where(auto)).to.match(/^on \d+ solver worker threads?$/);
      expect(auto.stderr).to.include('size 2,460');
      const forced = await runCli(['schedule', file, '--debug', 'true', '--pool', 'no']);
      expect(where(forced)).to.equal('in this thread');
      expect(forced.stderr).to.include('(--pool no)');
      const schedule = (r: CliResult): Json => {
        const result = JSON.parse(ok(r)) as Json;
        delete result.diagnostics;
        return result;
      };
      expect(schedule(forced)).to.deep.equal(schedule(auto));
    });

    it('--debug lp: the same diagnostics and models in this thread and on the pool, timings aside', async () => {
      const args = ['schedule', example('request.json'), '--debug', 'lp'];
      const inThread = JSON.parse(ok(await runCli(args))) as Json;
      const pooled = JSON.parse(ok(await runCli([...args, '--pool', 'yes']))) as Json;
      expect(inThread.diagnostics.status).to.equal('optimal');
      expect(inThread.diagnostics.subproblems[0].lp).to.be.a('string').and.include('volunteer "v1"');
      expect(untimed(inThread)).to.deep.equal(untimed(pooled));
    });

    it('--solver jslp: solved in this thread with javascript-lp-solver, as on the pool', async () => {
      const args = ['schedule', example('request.json'), '--solver', 'jslp', '--debug', 'true'];
      const inThread = await runCli(args);
      expect(where(inThread)).to.equal('in this thread');
      const pooled = await runCli([...args, '--pool', 'yes']);
      const a = JSON.parse(ok(inThread)) as Json;
      expect(a.diagnostics.backend).to.equal('jslp');
      expect(untimed(a)).to.deep.equal(untimed(JSON.parse(ok(pooled))));
    });
  });

  describe('options and exit codes on the in-thread path', () => {
    it('--time-limit is the budget: a large request forced into this thread with 1 s still answers with its best schedule', async () => {
      const file = requestFile('festival-400x300', generatedInstance('festival-400x300')!.request);
      const r = await runCli(['schedule', file, '--pool', 'no', '--time-limit', '1', '--debug', 'true']);
      const result = JSON.parse(ok(r)) as Json;
      expect(result.diagnostics.time_limit_s).to.equal(1);
      expect(result.diagnostics.status).to.equal('feasible');
      expect(Object.keys(result.assigned_shifts).length).to.be.greaterThan(0);
    });

    it('a time limit over the maximum is capped with a warning', async () => {
      const result = JSON.parse(ok(await runCli(['schedule', example('request.json'), '--time-limit', '5000']))) as Json;
      expect(result.warnings.map((w: Json) => w.code)).to.include('time_limit_capped');
    });

    it('exits 1 for an invalid request before any solver loads, listing the errors', async () => {
      const request = fixture('requests/festival-small.json') as Json;
      request.volunteers[0].max_hours = null;
      const r = await runCli(['schedule', requestFile('bad', request), '--debug', 'true']);
      expect(r.code).to.equal(1);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.include('max_hours must be a number, not null').and.not.include('solving');
    });

    it('exits 1 for CSV files in an unknown time zone, 2 for a missing file or a wrong --pool', async () => {
      const zone = await runCli(['schedule', '--volunteers', example('volunteers.csv'), '--shifts', example('shifts.csv'), '--timezone', 'Mars/Olympus']);
      expect(zone.code).to.equal(1);
      const missing = await runCli(['schedule', join(tmp, 'nope.json')]);
      expect(missing.code).to.equal(2);
      expect(missing.stderr).to.match(/cannot read .*nope\.json: ENOENT/);
      const pool = await runCli(['schedule', example('request.json'), '--pool', 'maybe']);
      expect(pool.code).to.equal(2);
      expect(pool.stderr).to.include("--pool is 'maybe'; use auto (the default), yes or no");
    });

    it('reads the request from standard input with -', async () => {
      const r = await runCli(['schedule', '-'], {}, readFileSync(example('request.json'), 'utf8'));
      expect(ok(r)).to.equal(ok(await runCli(['schedule', example('request.json')])));
    });
  });

  describe('stopping', () => {
    /** Starts a long solve, sends SIGINT once it says where it solves, and waits for the end. */
    async function interrupted(pool: 'yes' | 'no'): Promise<CliResult> {
      const file = requestFile('festival-400x300', generatedInstance('festival-400x300')!.request);
      const child = spawn(process.execPath, [BIN, 'schedule', file, '--debug', 'true', '--pool', pool], { cwd: packageRoot });
      child.stdin.end();
      const ended = new Promise<CliResult>((resolve, reject) => {
        const seen = collect(child, resolve, reject);
        child.stderr.on('data', () => {
          if (seen.stderr().includes('solving')) child.kill('SIGINT');
        });
      });
      return ended;
    }

    for (const pool of ['no', 'yes'] as const) {
      it(`SIGINT stops a solve ${pool === 'no' ? 'in this thread' : 'on the pool'} at once, printing no schedule`, async () => {
        const r = await interrupted(pool);
        expect(r.signal).to.equal('SIGINT');
        expect(r.stdout).to.equal('');
      });
    }

    it('leaves no handle open once it has answered: the process ends by itself', async () => {
      // main() in a process of its own, then what would keep that process alive.
      const script = join(tmp, 'handles.mjs');
      const mainUrl = pathToFileURL(join(packageRoot, 'dist', 'src', 'cli', 'main.js')).href;
      writeFileSync(
        script,
        `const { main } = await import(${JSON.stringify(mainUrl)});
let out = '';
const code = await main(process.argv.slice(2), { out: (t) => (out += t), err: () => {} });
process.stdout.write(JSON.stringify({ code, bytes: out.length, open: process.getActiveResourcesInfo() }));`,
      );
      for (const args of [
        ['schedule', example('request.json')],
        ['schedule', ...CSV_ARGS],
        ['schedule', example('request.json'), '--pool', 'yes'],
      ]) {
        const r = await new Promise<CliResult>((resolve, reject) => {
          const child = spawn(process.execPath, [script, ...args], { cwd: packageRoot, stdio: ['ignore', 'pipe', 'pipe'] });
          collect(child, resolve, reject);
        });
        expect(r.code, r.stderr).to.equal(0);
        const seen = JSON.parse(r.stdout) as { code: number; bytes: number; open: string[] };
        expect(seen.code).to.equal(0);
        expect(seen.bytes).to.be.greaterThan(100);
        // Only the standard streams it wrote to (as pipes here) may be open.
        expect(
          seen.open.filter((h) => h !== 'PipeWrap' && h !== 'TTYWrap'),
          args.join(' '),
        ).to.deep.equal([]);
      }
    });
  });
});
