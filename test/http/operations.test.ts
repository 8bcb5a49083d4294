import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatKey } from '../../src/auth/api-keys.js';
import { schemaDir } from '../../src/package-root.js';
import type { KeyStore } from '../../src/store/key-store.js';
import { fixture, pool, sharedStore, TEST_SECRET, testApp } from '../helpers/app.js';

const metricValue = (text: string, line: RegExp): number => {
  const found = text.split('\n').find((l) => line.test(l));
  return found ? Number(found.split(' ').pop()) : 0;
};

describe('operations endpoints', function () {
  this.timeout(30_000);

  it('GET /healthz answers without a key', async () => {
    const res = await testApp().anonymous.get('/healthz');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok' });
    expect(res.headers['api-version']).to.equal('2.1');
  });

  it('GET /readyz is ready when the database answers and the pool is ready', async () => {
    await pool().ready();
    const res = await testApp().anonymous.get('/readyz');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ready', checks: { database: 'ok', solver_pool: 'ok' } });
  });

  it('GET /readyz answers 503 when the database is unreachable or the pool is starting', async () => {
    const down = Object.create(sharedStore().store) as KeyStore;
    down.ping = () => Promise.resolve('unreachable' as const);
    const db = await testApp({}, { store: down }).anonymous.get('/readyz');
    expect(db.status).to.equal(503);
    expect(db.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(db.body.detail).to.equal('Not ready: database unreachable.');
    const starting = await testApp({}, { pool: { stats: () => ({ size: 2, busy: 0, queued: 0 }), isReady: () => false } }).anonymous.get('/readyz');
    expect(starting.status).to.equal(503);
    expect(starting.body.detail).to.equal('Not ready: solver_pool starting.');
  });

  it('answers 503 with Retry-After, not 500, when the database cannot be reached', async () => {
    const down = Object.create(sharedStore().store) as KeyStore;
    down.find = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    const t = testApp({}, { store: down });
    const res = await t.request.post('/api/validate').send({ volunteers: [], unassigned_shifts: [] });
    expect(res.status).to.equal(503);
    expect(res.body.type).to.equal('/problems/overloaded');
    expect(res.headers['retry-after']).to.equal('5');
    expect(JSON.stringify(res.body)).to.not.include('ECONNREFUSED');
    expect(t.logs().find((l) => l.msg === 'database unavailable')?.request_id).to.equal(res.body.request_id);
  });

  it('GET /metrics changes as requests are made', async () => {
    const t = testApp();
    const before = (await t.anonymous.get('/metrics')).text;
    expect(before).to.include('# TYPE volunteer_scheduler_http_requests_total counter');
    expect(before).to.match(/volunteer_scheduler_solver_pool_workers \d/);
    await t.request.post('/api/validate').send({ volunteers: [], unassigned_shifts: [] });
    await t.request.post('/api/schedule').send(fixture('requests/festival-small.json'));
    const { store } = sharedStore();
    const tight = formatKey(TEST_SECRET, 'metrics-q1', (await store.issue('metrics-q1', 'm', 'm', 1, new Date())).nonce);
    for (let i = 0; i < 2; i++) await t.anonymous.post('/api/validate').set('Authorization', `Bearer ${tight}`).send({ volunteers: [], unassigned_shifts: [] });
    const after = (await t.anonymous.get('/metrics')).text;
    expect(metricValue(after, /^volunteer_scheduler_http_requests_total\{route="\/api\/validate",method="POST",status="200"\}/)).to.equal(
      metricValue(before, /^volunteer_scheduler_http_requests_total\{route="\/api\/validate",method="POST",status="200"\}/) + 2,
    );
    expect(metricValue(after, /^volunteer_scheduler_solve_seconds_count\{endpoint="\/api\/schedule",status="ok"\}/)).to.equal(1);
    expect(metricValue(after, /^volunteer_scheduler_quota_rejections_total /)).to.equal(1);
    expect(metricValue(after, /^volunteer_scheduler_http_requests_total\{route="\/api\/validate",method="POST",status="429"\}/)).to.equal(1);
  });

  it('GET /schemas lists the schema files and GET /schemas/<name>.json serves each with its $id', async () => {
    const t = testApp();
    const list = await t.anonymous.get('/schemas');
    expect(list.status).to.equal(200);
    expect(list.body.map((s: { name: string }) => s.name)).to.include.members(['volunteer.json', 'schedule-result.json', 'problem-details.json']);
    for (const { href, name } of list.body as Array<{ href: string; name: string }>) {
      const res = await t.anonymous.get(href);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^application\/schema\+json/);
      expect(JSON.parse(res.text)).to.deep.equal(JSON.parse(readFileSync(join(schemaDir, name), 'utf8')));
    }
    const missing = await t.anonymous.get('/schemas/nope.json');
    expect(missing.status).to.equal(404);
    expect(missing.body.type).to.equal('/problems/not-found');
  });
});
