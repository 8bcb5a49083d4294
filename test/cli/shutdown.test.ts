// Graceful shutdown of the real service process: on SIGTERM it stops accepting connections,
// lets a request already in flight finish (its solve runs after the signal), closes the pool
// and the database, and exits 0. Sequenced by events (a 100 Continue, the "shutting down"
// log line), never by sleeps.
import { expect } from 'chai';
import { readFileSync, mkdtempSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { runCli, startService } from '../helpers/cli.js';

describe('shutdown on SIGTERM', function () {
  this.timeout(90_000);

  it('stops accepting, lets an in-flight request finish its solve, closes the pool and database, exits 0', async () => {
    const env = { DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'vs-stop-')), 'stop.db')}`, SCHEDULER_SECRET: 'x'.repeat(40) };
    const key = (await runCli(['keys', 'issue', '--user', 'stopper', '--name', 's', '--description', 'shutdown test'], env)).stdout.trim();
    const service = await startService(env);
    try {
      const body = readFileSync(join(packageRoot, 'test/fixtures/requests/festival-small.json'));
      // Expect: 100-continue makes the server answer once it has taken the connection and read
      // the headers: from then on the request is in flight, and its body is sent only after
      // the shutdown has begun.
      const inFlight = httpRequest({
        host: '127.0.0.1',
        port: service.port,
        method: 'POST',
        path: '/api/schedule',
        agent: false,
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          'Content-Length': body.length,
          Expect: '100-continue',
          Connection: 'close',
        },
      });
      const accepted = new Promise<void>((resolve, reject) => {
        inFlight.once('continue', resolve);
        inFlight.once('error', reject);
      });
      const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
        inFlight.once('response', (res: IncomingMessage) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, text });
          });
          res.on('error', reject);
        });
        inFlight.once('error', reject);
      });
      inFlight.flushHeaders();
      await accepted;

      const stopped = service.stop();
      await service.printed('"shutting down"');
      const refused = await fetch(`http://127.0.0.1:${service.port}/healthz`).then(
        (r) => r.status,
        () => 'refused',
      );
      expect(refused).to.equal('refused');

      inFlight.end(body);
      const answer = await answered;
      expect(answer.status, answer.text).to.equal(200);
      expect((JSON.parse(answer.text) as { unfilled_shifts: unknown[] }).unfilled_shifts).to.be.an('array');
      const result = await stopped;
      expect(result.code).to.equal(0);
      expect(result.stdout).to.include('"shutting down"').and.include('"stopped"');
    } finally {
      service.kill();
    }
  });
});
