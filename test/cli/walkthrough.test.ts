import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { startService } from '../helpers/cli.js';

describe('examples/walkthrough.sh against a fresh service', function () {
  this.timeout(90_000);

  it('runs as written: key, validate, schedule JSON, schedule CSV, usage', async () => {
    const env = { DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'vs-walk-')), 'walk.db')}`, LOG_LEVEL: 'warn' };
    const service = await startService(env);
    try {
      const port = service.port;
      const run = spawnSync('bash', [join(packageRoot, 'examples', 'walkthrough.sh')], {
        env: { ...process.env, ...env, BASE_URL: `http://127.0.0.1:${port}` },
        encoding: 'utf8',
        cwd: packageRoot,
      });
      expect(run.status, `${run.stdout}\n${run.stderr}`).to.equal(0);
      expect(run.stdout).to.include('key for user walkthrough issued');
      expect(run.stdout).to.include('"valid":true');
      expect(run.stdout).to.include('"assigned_shifts":{"sat-am":');
      expect(run.stdout).to.match(/HTTP 200, \d+ bytes of schedule/);
      expect(run.stdout).to.include('"status":"queued"');
      expect(run.stdout).to.include('event: end');
      expect(run.stdout).to.match(/HTTP 200, \d+ bytes of job result/);
      expect(run.stdout).to.include('"usage_count":4');
      expect((await service.stop()).code).to.equal(0);
    } finally {
      service.kill();
    }
  });
});
