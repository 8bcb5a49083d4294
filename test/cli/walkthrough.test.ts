import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { BIN, collect, type CliResult } from '../helpers/cli.js';

describe('examples/walkthrough.sh against a fresh service', function () {
  this.timeout(90_000);

  it('runs as written: key, validate, schedule JSON, schedule CSV, usage', async () => {
    const env = { ...process.env, DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'vs-walk-')), 'walk.db')}`, LOG_LEVEL: 'warn' };
    const child = spawn(process.execPath, [BIN, 'serve'], { env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }, cwd: packageRoot });
    const exited = new Promise<CliResult>((resolve, reject) => collect(child, resolve, reject));
    try {
      let out = '';
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout.on('data', (c) => {
          out += c;
          const line = out.split('\n').find((l) => l.includes('"listening"'));
          if (line) resolve((JSON.parse(line) as { port: number }).port);
        });
        setTimeout(() => reject(new Error(`no listening line: ${out}`)), 30_000);
      });
      const run = spawnSync('bash', [join(packageRoot, 'examples', 'walkthrough.sh')], { env: { ...env, BASE_URL: `http://127.0.0.1:${port}` }, encoding: 'utf8', cwd: packageRoot });
      expect(run.status, `${run.stdout}\n${run.stderr}`).to.equal(0);
      expect(run.stdout).to.include('key for user walkthrough issued');
      expect(run.stdout).to.include('"valid":true');
      expect(run.stdout).to.include('"assigned_shifts":{"sat-am":');
      expect(run.stdout).to.match(/HTTP 200, \d+ bytes of schedule/);
      expect(run.stdout).to.include('"usage_count":3');
      child.kill('SIGTERM');
      expect((await exited).code).to.equal(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
