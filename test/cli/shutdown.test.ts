import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedInstances } from '../../bench/generate.js';
import { runCli, startService } from '../helpers/cli.js';

describe('shutdown on SIGTERM', function () {
  this.timeout(90_000);

  it('stops accepting, lets an in-flight solve finish, closes the pool and database, exits 0', async () => {
    const env = { DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'vs-stop-')), 'stop.db')}`, SCHEDULER_SECRET: 'x'.repeat(40) };
    const key = (await runCli(['keys', 'issue', '--user', 'stopper', '--name', 's', '--description', 'shutdown test'], env)).stdout.trim();
    const service = await startService(env);
    try {
      const scarce = generatedInstances().find((i) => i.name === 'scarce-150x400')!.request;
      const inFlight = fetch(`http://127.0.0.1:${service.port}/api/schedule?time_limit=3`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(scarce) });
      await new Promise((r) => setTimeout(r, 500));
      const stopped = service.stop();
      await new Promise((r) => setTimeout(r, 200));
      const refused = await fetch(`http://127.0.0.1:${service.port}/healthz`).then(
        (r) => r.status,
        () => 'refused',
      );
      const answer = await inFlight;
      expect(answer.status).to.equal(200);
      expect(((await answer.json()) as { unfilled_shifts: unknown[] }).unfilled_shifts).to.be.an('array');
      expect(refused).to.equal('refused');
      const result = await stopped;
      expect(result.code).to.equal(0);
      expect(result.stdout).to.include('"shutting down"').and.include('"stopped"');
    } finally {
      service.kill();
    }
  });
});
