// Keys, quota and usage history through the HTTP app, on each storage back end: SQLite always,
// PostgreSQL when reachable (`[postgres]`; see test/helpers/databases.ts).
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import supertest from 'supertest';
import { formatKey } from '../../src/auth/api-keys.js';
import { loadConfig } from '../../src/config/config.js';
import { createApp } from '../../src/http/app.js';
import { createLogger } from '../../src/logging/logger.js';
import { KeyStore } from '../../src/store/key-store.js';
import { DATABASES, requirePostgres, type TestDatabase } from '../helpers/databases.js';
import { listener, pool, releaseIfSet, schemas } from '../helpers/app.js';
import { expectSchema } from '../helpers/schema-assert.js';

const SECRET = 'access-test-secret-0123456789-0123456789';
const BODY = { volunteers: [], unassigned_shifts: [] };
type Json = Record<string, any>;

for (const { label, tag, create, needsPostgres } of DATABASES) {
  describe(`keys, quota and usage on ${label}${tag}`, function () {
    this.timeout(60_000);
    let database: TestDatabase;
    let store: KeyStore;
    let now: Date;
    let pending: Set<Promise<void>>;
    const keyOf = async (user: string, quota: number): Promise<string> =>
      formatKey(SECRET, user, (await store.issue(user, `${user} name`, `${user} use`, quota, now)).nonce);
    const app = () =>
      createApp({
        config: loadConfig({}),
        logger: createLogger('silent'),
        schemas: schemas(),
        scheduler: pool(),
        store,
        secret: SECRET,
        clock: () => now,
        pendingWrites: pending,
      });
    const settle = async (): Promise<void> => {
      await Promise.all([...pending]);
    };

    before(async function () {
      if (needsPostgres) await requirePostgres(this);
      database = await create();
      store = await KeyStore.open(database.url);
    });
    after(async () => {
      await releaseIfSet(store, (s) => s.close());
      await releaseIfSet(database, (d) => d.drop());
    });
    beforeEach(() => {
      now = new Date('2026-06-01T22:00:00Z');
      pending = new Set();
    });

    describe('authentication', () => {
      const expect401 = (res: supertest.Response, detail: RegExp): void => {
        expect(res.status, JSON.stringify(res.body)).to.equal(401);
        expect(res.body.type).to.equal('/problems/unauthorized');
        expect(res.headers['www-authenticate']).to.equal('Bearer realm="volunteer-scheduler", error="invalid_token"');
        expect(res.body.detail).to.match(detail);
        expectSchema('problem-details', res.body);
      };
      let key: string;
      before(async () => {
        key = await keyOf('auth-user', 100);
      });

      it('accepts a valid key', async () => {
        expect((await supertest(app().callback()).post('/api/validate').set('Authorization', `Bearer ${key}`).send(BODY)).status).to.equal(200);
      });
      it('401: no Authorization header', async () => {
        expect401(await supertest(app().callback()).post('/api/validate').send(BODY), /^The Authorization header is missing/);
      });
      it('401: not a Bearer key', async () => {
        expect401(
          await supertest(app().callback())
            .post('/api/validate')
            .set('Authorization', `Basic ${Buffer.from('a:b').toString('base64')}`)
            .send(BODY),
          /is not a Bearer key.*'Basic'/,
        );
      });
      for (const [what, bad] of [
        ['one part only', 'auth-user'],
        ['an empty signature', 'auth-user.'],
        ['an empty user id', `.${'a'.repeat(43)}`],
        ['a trimmed signature', 'TRIM'],
        ['a version 1.0 key', '3f2a9c1e5b7d4f60a8e2c1b3d5f7a9e1'],
      ] as const) {
        it(`401: malformed key (${what}) says v1.0 keys are not accepted`, async () => {
          const value = bad === 'TRIM' ? key.slice(0, -5) : bad;
          expect401(
            await supertest(app().callback()).post('/api/validate').set('Authorization', `Bearer ${value}`).send(BODY),
            /^The key is malformed.*Keys from version 1\.0 are not accepted: request a new key/,
          );
        });
      }
      it('401: unknown user', async () => {
        expect401(
          await supertest(app().callback())
            .post('/api/validate')
            .set('Authorization', `Bearer nobody.${'A'.repeat(43)}`)
            .send(BODY),
          /^No key was issued for user 'nobody'/,
        );
      });
      it('401: invalid signature', async () => {
        const forged = `auth-user.${'B'.repeat(43)}`;
        expect401(
          await supertest(app().callback()).post('/api/validate').set('Authorization', `Bearer ${forged}`).send(BODY),
          /^The key's signature is not valid for user 'auth-user'/,
        );
      });
      it('401: an earlier key after a new one was issued', async () => {
        const old = await keyOf('reissued', 10);
        const fresh = await keyOf('reissued', 10);
        expect(old).to.not.equal(fresh);
        expect401(await supertest(app().callback()).post('/api/validate').set('Authorization', `Bearer ${old}`).send(BODY), /signature is not valid/);
        expect((await supertest(app().callback()).post('/api/validate').set('Authorization', `Bearer ${fresh}`).send(BODY)).status).to.equal(200);
      });
      it('401: revoked', async () => {
        const k = await keyOf('to-revoke', 10);
        await store.revoke('to-revoke', now);
        expect401(
          await supertest(app().callback()).post('/api/validate').set('Authorization', `Bearer ${k}`).send(BODY),
          /^The key of user 'to-revoke' was revoked on 2026-06-01T22:00:00.000Z/,
        );
      });
      it('401: a key in the query string or another header, even beside a valid one', async () => {
        expect401(
          await supertest(app().callback()).post(`/api/validate?key=${key}`).set('Authorization', `Bearer ${key}`).send(BODY),
          /query parameter 'key'.*only read from the Authorization header/,
        );
        expect401(await supertest(app().callback()).post('/api/validate').set('X-API-Key', key).send(BODY), /header 'x-api-key'/);
      });
      it('public paths need no key', async () => {
        expect((await supertest(app().callback()).get('/problems/unauthorized')).status).to.equal(200);
      });
      it('401s are neither counted nor recorded', async () => {
        const k = await keyOf('counted', 10);
        const user = k.split('.')[0]!;
        await supertest(app().callback())
          .post('/api/validate')
          .set('Authorization', `Bearer ${user}.${'C'.repeat(43)}`)
          .send(BODY);
        await settle();
        expect(await store.count(user, '2026-06-01')).to.equal(0);
        expect(await store.history(user, 10)).to.deep.equal([]);
      });
    });

    describe('quota', () => {
      it('lets the Q-th request through and answers the next with 429 and the headers', async () => {
        const key = await keyOf('q3', 3);
        const http = supertest(app().callback());
        const remaining: string[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await http.post('/api/validate').set('Authorization', `Bearer ${key}`).send(BODY);
          expect(res.status).to.equal(200);
          expect(res.headers['ratelimit-limit']).to.equal('3');
          expect(res.headers['ratelimit-reset']).to.equal('7200');
          remaining.push(String(res.headers['ratelimit-remaining']));
        }
        expect(remaining).to.deep.equal(['2', '1', '0']);
        const over = await http.post('/api/validate').set('Authorization', `Bearer ${key}`).send(BODY);
        expect(over.status).to.equal(429);
        expect(over.body.type).to.equal('/problems/quota-exceeded');
        expect(over.headers['retry-after']).to.equal('7200');
        expect(over.headers['ratelimit-remaining']).to.equal('0');
        expect(over.body.detail).to.equal('The daily quota of 3 requests is used up; it resets at 2026-06-02T00:00:00Z (in 7200 seconds).');
        expectSchema('problem-details', over.body);
        const usage = await http.get('/api/usage').set('Authorization', `Bearer ${key}`);
        expect(usage.status).to.equal(200);
        expect(usage.body).to.include({ quota: 3, usage_count: 3, remaining: 0 });
      });

      it('counts every status of the counted endpoints, not usage reads', async () => {
        const key = await keyOf('counting', 10);
        const http = supertest(app().callback());
        await http.post('/api/validate').set('Authorization', `Bearer ${key}`).send(BODY);
        await http.post('/api/schedule').set('Authorization', `Bearer ${key}`).send({ volunteers: 'no' });
        await http.post('/api/schedule/csv').set('Authorization', `Bearer ${key}`).set('Content-Type', 'text/plain').send('x');
        await http.get('/api/usage').set('Authorization', `Bearer ${key}`);
        await http.get('/api/usage').set('Authorization', `Bearer ${key}`);
        expect(await store.count('counting', '2026-06-01')).to.equal(3);
      });

      it('resets at 00:00 UTC', async () => {
        const key = await keyOf('daily', 1);
        const http = supertest(app().callback());
        expect((await http.post('/api/validate').set('Authorization', `Bearer ${key}`).send(BODY)).status).to.equal(200);
        now = new Date('2026-06-01T23:59:59Z');
        const late = await http.post('/api/validate').set('Authorization', `Bearer ${key}`).send(BODY);
        expect(late.status).to.equal(429);
        expect(late.headers['retry-after']).to.equal('1');
        now = new Date('2026-06-02T00:00:00Z');
        const next = await http.post('/api/validate').set('Authorization', `Bearer ${key}`).send(BODY);
        expect(next.status).to.equal(200);
        const usage = await http.get('/api/usage').set('Authorization', `Bearer ${key}`);
        expect(usage.body).to.include({ usage_count: 1, period_start: '2026-06-02T00:00:00Z', resets_at: '2026-06-03T00:00:00Z' });
      });
    });

    describe('GET /api/usage', () => {
      it('reports quota, count, period and the history, most recent first', async () => {
        const key = await keyOf('history', 100);
        const http = supertest(app().callback());
        await http.post('/api/validate').set('Authorization', `Bearer ${key}`).set('X-Request-Id', 'first-call').send(BODY);
        now = new Date('2026-06-01T22:00:01Z');
        await http.post('/api/schedule').set('Authorization', `Bearer ${key}`).set('X-Request-Id', 'second-call').send({});
        await settle();
        now = new Date('2026-06-01T22:00:02Z');
        const res = await http.get('/api/usage').set('Authorization', `Bearer ${key}`);
        expect(res.status).to.equal(200);
        expectSchema('usage-result', res.body);
        expect(res.body).to.include({ quota: 100, usage_count: 2, remaining: 98, period_start: '2026-06-01T00:00:00Z', resets_at: '2026-06-02T00:00:00Z' });
        const h = res.body.history as Json[];
        expect(h.map((e) => [e.method, e.endpoint, e.status, e.request_id])).to.deep.equal([
          ['POST', '/api/schedule', 400, 'second-call'],
          ['POST', '/api/validate', 200, 'first-call'],
        ]);
        expect(h[0]!.timestamp).to.equal('2026-06-01T22:00:01.000Z');
        expect(h[0]!.duration_ms).to.be.a('number');
        await settle();
        const again = await http.get('/api/usage?limit=1').set('Authorization', `Bearer ${key}`);
        expect(again.body.history).to.have.length(1);
        expect(again.body.history[0].endpoint).to.equal('/api/usage');
        expect(again.body.usage_count).to.equal(2);
      });

      it('400 for a bad limit or an unknown parameter', async () => {
        const key = await keyOf('limits', 100);
        const http = supertest(app().callback());
        for (const q of ['limit=0', 'limit=1001', 'limit=ten', 'page=2']) {
          const res = await http.get(`/api/usage?${q}`).set('Authorization', `Bearer ${key}`);
          expect(res.status, q).to.equal(400);
          expect(res.body.type).to.equal('/problems/invalid-request');
        }
      });
    });

    it('keeps keys, quotas and history across a restart', async () => {
      const key = await keyOf('durable', 5);
      await supertest(app().callback()).post('/api/validate').set('Authorization', `Bearer ${key}`).send(BODY);
      await settle();
      await store.close();
      store = await KeyStore.open(database.url);
      const res = await supertest(app().callback()).get('/api/usage').set('Authorization', `Bearer ${key}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ quota: 5, usage_count: 1 });
      expect(res.body.history).to.have.length(1);
    });

    it('generates the shared secret once: every instance on the database reads the same', async () => {
      const other = await KeyStore.open(database.url);
      try {
        expect(await other.sharedSecret()).to.equal(await store.sharedSecret());
      } finally {
        await other.close();
      }
    });

    it(`two instances, 200 parallel requests against a quota of 50: exactly 50 pass`, async function () {
      this.timeout(60_000);
      const key = await keyOf('burst', 50);
      const second = await KeyStore.open(database.url);
      const servers: Server[] = [];
      try {
        const appFor = (s: KeyStore) =>
          createApp({
            config: loadConfig({}),
            logger: createLogger('silent'),
            schemas: schemas(),
            scheduler: pool(),
            store: s,
            secret: SECRET,
            clock: () => now,
            pendingWrites: pending,
          });
        for (const s of [store, second]) {
          const server = createServer(listener(appFor(s)));
          await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
          servers.push(server);
        }
        const ports = servers.map((s) => (s.address() as { port: number }).port);
        const statuses = await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            fetch(`http://127.0.0.1:${ports[i % 2]}/api/validate`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
              body: JSON.stringify(BODY),
            }).then((r) => r.status),
          ),
        );
        expect(statuses.filter((s) => s === 200)).to.have.length(50);
        expect(statuses.filter((s) => s === 429)).to.have.length(150);
        await settle();
        expect(await store.count('burst', '2026-06-01')).to.equal(50);
        const usage = await supertest(appFor(second).callback()).get('/api/usage?limit=1000').set('Authorization', `Bearer ${key}`);
        expect(usage.body.usage_count).to.equal(50);
        await settle();
      } finally {
        for (const s of servers) s.close();
        await second.close();
      }
    });
  });
}
