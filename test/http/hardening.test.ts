// Hardening seen from a client: security headers on every answer, CORS only for configured
// origins, and admission control (503 at once past the solve capacity).
import { expect } from 'chai';
import type { Scheduler } from '../../src/engine/scheduler.js';
import { fixture, pool, testApp } from '../helpers/app.js';

describe('hardening: headers, CORS, admission control', function () {
  this.timeout(60_000);

  it('puts security headers on every response, success and problem', async () => {
    const t = testApp();
    for (const res of [
      await t.request.post('/api/validate').send({ volunteers: [], unassigned_shifts: [] }),
      await t.anonymous.get('/nope'),
      await t.anonymous.get('/docs'),
    ]) {
      expect(res.headers['x-content-type-options']).to.equal('nosniff');
      expect(res.headers['content-security-policy']).to.include("default-src 'self'").and.include("frame-ancestors 'none'").and.include("script-src 'self'");
      expect(res.headers['referrer-policy']).to.equal('no-referrer');
      expect(res.headers['access-control-allow-origin']).to.equal(undefined);
      expect(res.headers['x-powered-by']).to.equal(undefined);
    }
  });

  it('answers CORS only for the configured origins', async () => {
    const t = testApp({ CORS_ORIGINS: 'https://rota.example.org' });
    const preflight = await t.anonymous
      .options('/api/schedule')
      .set('Origin', 'https://rota.example.org')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type');
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-allow-origin']).to.equal('https://rota.example.org');
    expect(preflight.headers['access-control-allow-headers']).to.match(/Authorization/);
    const allowed = await t.request.post('/api/validate').set('Origin', 'https://rota.example.org').send({ volunteers: [], unassigned_shifts: [] });
    expect(allowed.headers['access-control-allow-origin']).to.equal('https://rota.example.org');
    expect(allowed.headers['access-control-expose-headers']).to.include('RateLimit-Remaining');
    const other = await t.request.post('/api/validate').set('Origin', 'https://evil.example.com').send({ volunteers: [], unassigned_shifts: [] });
    expect(other.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('answers 503 past the solve capacity while a solve is in flight, and cheap endpoints keep answering', async () => {
    // The first request's solve is held at the solver (an injected runner) until the test lets
    // it go, so "in flight" is an event, not a guess about how long a solve takes.
    let reachedSolver!: () => void;
    const inFlight = new Promise<void>((resolve) => (reachedSolver = resolve));
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const t = testApp(
      { SOLVER_WORKERS: '1', SOLVE_QUEUE_MAX: '0' },
      {
        scheduler: Object.assign(Object.create(pool()) as Scheduler, {
          solve: async (request: Parameters<Scheduler['solve']>[0]) => {
            reachedSolver();
            await held;
            return pool().solve(request);
          },
        }),
      },
    );
    const first = t.request
      .post('/api/schedule')
      .send(fixture('requests/festival-small.json'))
      .then((r) => r);
    await inFlight;
    const second = await t.request.post('/api/schedule').send(fixture('requests/festival-small.json'));
    expect(second.status).to.equal(503);
    expect(second.body.type).to.equal('/problems/overloaded');
    expect(second.headers['retry-after']).to.equal('5');
    const cheap = await t.request.post('/api/validate').send({ volunteers: [], unassigned_shifts: [] });
    expect(cheap.status).to.equal(200);
    letGo();
    expect((await first).status).to.equal(200);
    const after = await t.request.post('/api/schedule').send(fixture('requests/festival-small.json'));
    expect(after.status).to.equal(200);
  });
});
