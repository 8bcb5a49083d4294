import { expect } from 'chai';
import { fixture, testApp } from '../helpers/app.js';

describe('hardening: headers, CORS, admission control', function () {
  this.timeout(60_000);

  it('puts security headers on every response, success and problem', async () => {
    const t = testApp();
    for (const res of [await t.request.post('/api/validate').send({ volunteers: [], unassigned_shifts: [] }), await t.anonymous.get('/nope'), await t.anonymous.get('/docs')]) {
      expect(res.headers['x-content-type-options']).to.equal('nosniff');
      expect(res.headers['content-security-policy']).to.include("default-src 'self'").and.include("frame-ancestors 'none'").and.include("script-src 'self'");
      expect(res.headers['referrer-policy']).to.equal('no-referrer');
      expect(res.headers['access-control-allow-origin']).to.equal(undefined);
      expect(res.headers['x-powered-by']).to.equal(undefined);
    }
  });

  it('answers CORS only for the configured origins', async () => {
    const t = testApp({ CORS_ORIGINS: 'https://rota.example.org' });
    const preflight = await t.anonymous.options('/api/schedule').set('Origin', 'https://rota.example.org').set('Access-Control-Request-Method', 'POST').set('Access-Control-Request-Headers', 'authorization,content-type');
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-allow-origin']).to.equal('https://rota.example.org');
    expect(preflight.headers['access-control-allow-headers']).to.match(/Authorization/);
    const allowed = await t.request.post('/api/validate').set('Origin', 'https://rota.example.org').send({ volunteers: [], unassigned_shifts: [] });
    expect(allowed.headers['access-control-allow-origin']).to.equal('https://rota.example.org');
    expect(allowed.headers['access-control-expose-headers']).to.include('RateLimit-Remaining');
    const other = await t.request.post('/api/validate').set('Origin', 'https://evil.example.com').send({ volunteers: [], unassigned_shifts: [] });
    expect(other.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('answers 503 at once past the solve capacity, while cheap endpoints keep answering', async () => {
    const { generatedInstances } = await import('../../bench/generate.js');
    const scarce = generatedInstances().find((i) => i.name === 'scarce-150x400')!.request;
    const t = testApp({ SOLVER_WORKERS: '1', SOLVE_QUEUE_MAX: '0' });
    const first = t.request.post('/api/schedule?time_limit=3').send(scarce);
    const firstDone = first.then((r) => r);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const second = await t.request.post('/api/schedule?time_limit=3').send(fixture('requests/festival-small.json'));
    expect(second.status).to.equal(503);
    expect(second.body.type).to.equal('/problems/overloaded');
    expect(second.headers['retry-after']).to.equal('5');
    const cheap = await t.request.post('/api/validate').send({ volunteers: [], unassigned_shifts: [] });
    expect(cheap.status).to.equal(200);
    expect(Date.now() - started).to.be.lessThan(1500);
    expect((await firstDone).status).to.equal(200);
    const after = await t.request.post('/api/schedule').send(fixture('requests/festival-small.json'));
    expect(after.status).to.equal(200);
  });
});
