import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/package-root.js';
import { fixture } from '../helpers/app.js';
import { runCli, startService } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'vs-cli-'));

describe('volunteer-scheduler CLI', () => {
  it('--help lists the commands', async () => {
    const r = await runCli(['--help']);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.include('serve').and.include('validate FILE');
  });

  it('every command has --help', async () => {
    for (const command of ['serve', 'validate', 'schedule']) {
      const r = await runCli([command, '--help']);
      expect(r.code).to.equal(0);
      expect(r.stdout).to.match(new RegExp(`^Usage: volunteer-scheduler ${command}`));
    }
    expect((await runCli(['serve', '--help'])).stdout).to.include('SOLVE_TIME_LIMIT_MAX');
  });

  it('an unknown command exits 2 with a message on stderr', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/^volunteer-scheduler: unknown command 'frobnicate'/);
    expect(r.stdout).to.equal('');
  });

  it('schedule and validate load neither the HTTP service nor a database driver nor a worker pool', function () {
    this.timeout(30_000);
    // main() in a process of its own, then the packages it loaded (CommonJS ones register in require.cache).
    const script = join(tmp, 'loaded.mjs');
    writeFileSync(
      script,
      `import { createRequire } from 'node:module';
const { main } = await import(${JSON.stringify(pathToFileURL(join(packageRoot, 'dist', 'src', 'cli', 'main.js')).href)});
const code = await main(process.argv.slice(2), { out: () => {}, err: () => {} });
const packages = Object.keys(createRequire(import.meta.url).cache).map((p) => /node_modules[\\/]((@[^\\/]+[\\/])?[^\\/]+)/.exec(p)?.[1]);
process.stdout.write(JSON.stringify({ code, packages: [...new Set(packages.filter(Boolean))] }));`,
    );
    const example = join(packageRoot, 'examples', 'request.json');
    for (const args of [
      ['schedule', example],
      ['validate', example],
    ]) {
      const r = spawnSync(process.execPath, [script, ...args], { cwd: packageRoot, encoding: 'utf8' });
      expect(r.status, r.stderr).to.equal(0);
      const { code, packages } = JSON.parse(r.stdout) as { code: number; packages: string[] };
      expect(code).to.equal(0);
      expect(packages).to.include('ajv');
      expect(
        packages.filter((p) => /^(koa|@koa\/|pg|better-sqlite3|kysely|piscina|pino|prom-client)/.test(p)),
        args[0],
      ).to.deep.equal([]);
    }
  });

  describe('validate FILE', () => {
    it('prints the validation result and exits 0 when valid', async () => {
      const r = await runCli(['validate', join(packageRoot, 'test/fixtures/requests/festival-small.json')]);
      expect(r.code).to.equal(0);
      expect(JSON.parse(r.stdout)).to.deep.include({ valid: true, errors: [] });
    });

    it('exits 1 when invalid, listing the errors', async () => {
      const request = fixture('requests/festival-small.json') as Record<string, any>;
      request.volunteers[0].max_hours = null;
      const file = join(tmp, 'bad.json');
      writeFileSync(file, JSON.stringify(request));
      const r = await runCli(['validate', file]);
      expect(r.code).to.equal(1);
      expect(JSON.parse(r.stdout).errors[0].message).to.equal('max_hours must be a number, not null; use 999 for unlimited.');
    });

    it('reads standard input with -', async () => {
      const r = await runCli(['validate', '-'], {}, JSON.stringify({ volunteers: [], unassigned_shifts: [] }));
      expect(r.code).to.equal(0);
    });

    it('exits 2 for a missing file or a file that is not JSON', async () => {
      const missing = await runCli(['validate', join(tmp, 'nope.json')]);
      expect(missing.code).to.equal(2);
      expect(missing.stderr).to.match(/cannot read .*nope\.json: ENOENT/);
      const file = join(tmp, 'text.json');
      writeFileSync(file, 'Name,Group\n');
      const notJson = await runCli(['validate', file]);
      expect(notJson.code).to.equal(2);
      expect(notJson.stderr).to.match(/is not valid JSON/);
    });
  });

  describe('schedule --volunteers --shifts (CSV)', () => {
    const csvFile = (name: string, lines: string[]): string => {
      const file = join(tmp, name);
      writeFileSync(file, '\ufeff' + lines.join('\r\n') + '\r\n');
      return file;
    };

    it('reads 24-hour day-first volunteers and ISO shifts, and prints warnings with file, row, column and id', async () => {
      const volunteers = csvFile('uk-volunteers.csv', ['Name,Group,Max Hours,Available', 'Ana,medics,8,"13/6/2026 07:00 - 13:00"', 'Ben,medics,8,']);
      const shifts = csvFile('iso-shifts.csv', ['ID,Name,Start,End,Groups', 's1,Aid tent,2026-06-13T08:00:00,2026-06-13T12:00:00,"medics:2, medic:1"']);
      const r = await runCli(['schedule', '--volunteers', volunteers, '--shifts', shifts, '--timezone', 'Europe/London']);
      expect(r.code, r.stderr).to.equal(0);
      const result = JSON.parse(r.stdout);
      expect(result.assigned_shifts).to.deep.equal({ s1: ['Ana', 'Ben'] });
      expect(result.warnings).to.deep.equal([
        {
          code: 'group_without_volunteers',
          message: "No volunteer belongs to group 'medic', which shift 's1' requires; those slots will stay empty. Did you mean 'medics'?",
          pointer: '/unassigned_shifts/0/required_groups/medic',
          id: 's1',
          file: 'shifts',
          row: 2,
          column: 'Groups',
        },
      ]);
    });

    it('exits 1 with the invalid-csv problem on stderr for what validation finds once the cells are read', async () => {
      const volunteers = csvFile('names.csv', ['Name,Group,Max Hours', 'Ana,kitchen,8', 'Ana,kitchen,8', 'Ana #2,kitchen,8']);
      const shifts = csvFile('iso.csv', ['Name,Start,End,Groups', 'Lunch,2026-06-07 11:00,2026-06-07 15:00,kitchen:1']);
      const r = await runCli(['schedule', '--volunteers', volunteers, '--shifts', shifts]);
      expect(r.code).to.equal(1);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.equal(
        'volunteer-scheduler: The CSV files have 1 problem; each is listed in errors with its file, row and column.\n' +
          "  volunteers, row 4, Name, id Ana #2, duplicate_id: id 'Ana #2' is already used by volunteers[1]; each volunteer needs its own id.\n",
      );
    });

    it('takes the upload rules as --min-rest-hours and --max-shifts-per-day, and refuses them with a JSON file', async () => {
      const examples = (name: string): string => join(packageRoot, 'examples', name);
      const r = await runCli([
        'schedule',
        '--volunteers',
        examples('volunteers.csv'),
        '--shifts',
        examples('shifts.csv'),
        '--timezone',
        'America/Chicago',
        '--min-rest-hours',
        '12',
        '--max-shifts-per-day',
        '1',
      ]);
      expect(r.code, r.stderr).to.equal(0);
      const result = JSON.parse(r.stdout);
      expect(result.conflicts.flatMap((c: { reasons: string[] }) => c.reasons).join(' ')).to.include('they need 12.');
      const json = await runCli(['schedule', examples('request.json'), '--min-rest-hours', '3']);
      expect(json.code).to.equal(2);
      expect(json.stderr).to.include('--min-rest-hours and --max-shifts-per-day go with --volunteers and --shifts');
      const bad = await runCli(['schedule', '--volunteers', examples('volunteers.csv'), '--shifts', examples('shifts.csv'), '--min-rest-hours', 'abc']);
      expect(bad.code).to.equal(1);
      expect(bad.stderr).to.include('min_rest_hours');
    });
  });

  describe('serve', () => {
    it('stops at start on a bad configuration value, naming it', async () => {
      const r = await runCli(['serve'], { PORT: 'eighty', LOG_LEVEL: 'quiet' });
      expect(r.code).to.equal(2);
      expect(r.stderr).to.include("PORT is 'eighty'").and.include("LOG_LEVEL is 'quiet'");
    });

    it('issue a key, start on that database, answer with the key, exit 0 on SIGTERM', async function () {
      this.timeout(30000);
      const env = { DATABASE_URL: `sqlite:${join(tmp, 'serve.db')}`, SCHEDULER_SECRET: 's'.repeat(40) };
      const issued = await runCli(['keys', 'issue', '--user', 'food-bank', '--name', 'Food bank', '--description', 'weekly rota', '--quota', '5'], env);
      expect(issued.code, issued.stderr).to.equal(0);
      const key = issued.stdout.trim();
      expect(key).to.match(/^food-bank\.[A-Za-z0-9_-]{43}$/);
      const service = await startService(env);
      try {
        const port = service.port;
        const call = (auth?: string) =>
          fetch(`http://127.0.0.1:${port}/api/validate`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: auth } : {}) },
            body: '{"volunteers": [], "unassigned_shifts": []}',
          });
        const ok = await call(`Bearer ${key}`);
        expect(ok.status).to.equal(200);
        expect(ok.headers.get('api-version')).to.equal('2.1');
        expect(ok.headers.get('ratelimit-remaining')).to.equal('4');
        expect((await call()).status).to.equal(401);
        const r = await service.stop();
        expect(r.code).to.equal(0);
        expect(r.stdout).to.include('"shutting down"').and.include('"stopped"');
        expect(r.stdout).to.not.include(key.split('.')[1]);
      } finally {
        service.kill();
      }
    });
  });
});
