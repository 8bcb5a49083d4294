// What a hostile client tried (issue 11), each kept as a test that failed before the fix: work
// bounded per request (hints, regular expressions, echoed entries), policies decided by the
// matched route, each body-reading failure its own 4xx, numbers bounded, slow clients cut off,
// a read-only database not ready, usage history pruned, keys in paths kept out of logs.
import { expect } from 'chai';
import { brotliCompressSync } from 'node:zlib';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { formatKey } from '../../src/auth/api-keys.js';
import { loadConfig } from '../../src/config/config.js';
import { createApp } from '../../src/http/app.js';
import { httpServer } from '../../src/http/server.js';
import { bearerToken } from '../../src/http/middleware/access-control.js';
import { createLogger } from '../../src/logging/logger.js';
import { boundedDistance, HINT_WORK_BUDGET, NameSuggester, newHintBudget } from '../../src/input/did-you-mean.js';
import { TRUNCATED_CODE, WARNINGS_PER_CODE } from '../../src/input/entry-caps.js';
import { validateScheduleRequest } from '../../src/input/validate-request.js';
import { lockWarnings } from '../../src/rules/lock-warnings.js';
import { inlinePreparer, readyOrClose, workerPreparer } from '../../src/service/input-preparer.js';
import { KeyStore } from '../../src/store/key-store.js';
import { DATABASES, PG_ADMIN_URL, requirePostgres, type TestDatabase } from '../helpers/databases.js';
import { fixture, pool, releaseIfSet, schemas, testApp } from '../helpers/app.js';

const SECRET = 'hostile-test-secret-0123456789-0123456789';
type Json = Record<string, any>;

describe('hostile input: bounded work per request', () => {
  it('edit distance is banded: a pair of 200-character names costs (n+1)(2k+1) cells, not n*n', () => {
    const budget = newHintBudget();
    const a = 'a'.repeat(200);
    expect(boundedDistance(a, `${'a'.repeat(199)}b`, 3, budget)).to.equal(1);
    expect(HINT_WORK_BUDGET - budget.cells).to.equal(201 * 7);
    expect(boundedDistance('kitchen', 'kitchn', 3, budget)).to.equal(1);
    expect(boundedDistance('kitchen', 'bar', 3, budget)).to.equal(4);
  });

  it('hints for 1,000 long ids and many unknown ones stay within one budget per request', () => {
    const volunteers = Array.from({ length: 1000 }, (_, i) => ({ id: `v${i}`.padEnd(200, 'x'), group: 'g', max_hours: 8 }));
    const current_assignments = Array.from({ length: 400 }, (_, i) => ({ shift_id: 's', volunteer_id: `w${i}`.padEnd(200, 'y') }));
    const body = {
      volunteers,
      unassigned_shifts: [{ id: 's', start: '2026-06-01T08:00:00Z', end: '2026-06-01T12:00:00Z', required_groups: { g: 1 } }],
      current_assignments,
    };
    const result = validateScheduleRequest(body, schemas(), lockWarnings);
    expect(result.valid).to.equal(false);
    // Long names get no hint at all (MAX_HINT_NAME_LENGTH), so nothing is compared.
    expect(result.errors.filter((e) => e.code === 'unknown_volunteer')).to.have.length(400);
    expect(result.errors.every((e) => !e.message.includes('did you mean'))).to.equal(true);
  });

  it('a suggester stops comparing once the request budget is spent, and still hints before', () => {
    const budget = { cells: 50 };
    const hints = new NameSuggester(['kitchen', 'bar', 'medic'], budget);
    expect(hints.closest('kitchn')).to.equal('kitchen');
    expect(budget.cells).to.be.at.most(0);
    expect(hints.closest('medc')).to.equal(undefined);
  });

  it('the Bearer header is read without a regular expression: 16,000 spaces are one linear pass', async () => {
    expect(bearerToken(`Bearer ${' '.repeat(16_000)}x y`)).to.equal(undefined);
    expect(bearerToken('bearer   abc.def  ')).to.equal('abc.def');
    expect(bearerToken('Basic abc')).to.equal(undefined);
    const res = await testApp()
      .anonymous.post('/api/validate')
      .set('Authorization', `Bearer ${' '.repeat(16_000)}x y`)
      .send({});
    expect(res.status).to.equal(401);
  });

  it('a Groups cell of 40,000 spaces and a colon is read in linear time and reported', async () => {
    const shifts = `Name,Start,End,Groups\r\nA,6/6/2026 8:00 AM,6/6/2026 12:00 PM,"${' '.repeat(40_000)}:x"\r\n`;
    const res = await testApp()
      .request.post('/api/schedule/csv')
      .attach('volunteers', Buffer.from('Name,Group,Max Hours\r\nAna,g,8\r\n'), 'v.csv')
      .attach('shifts', Buffer.from(shifts), 's.csv');
    expect(res.status).to.equal(400);
    expect(res.body.errors[0].message).to.match(/has no group name before the colon/);
  });

  it('lists at most 100 warnings of a code, then one entry saying how many more', async () => {
    const body: Json = { volunteers: [], unassigned_shifts: [] };
    for (let i = 0; i < 5000; i++) body[`extra${i}`] = i;
    const res = await testApp().request.post('/api/validate').send(body);
    expect(res.status).to.equal(200);
    const unknown = res.body.warnings.filter((w: Json) => w.code === 'unknown_property');
    expect(unknown).to.have.length(WARNINGS_PER_CODE);
    const truncated = res.body.warnings.filter((w: Json) => w.code === TRUNCATED_CODE);
    expect(truncated).to.have.length(1);
    expect(truncated[0].message).to.equal(
      "4,900 more warnings of code 'unknown_property' are not listed (at most 100 per code are); fix the ones listed and check again.",
    );
  });

  it('caps the ignored-column warnings of a CSV header with thousands of extra columns', async () => {
    const header = ['Name', 'Group', 'Max Hours', ...Array.from({ length: 3000 }, (_, i) => `c${i}`)].join(',');
    const res = await testApp()
      .request.post('/api/schedule/csv?time_limit=1')
      .attach('volunteers', Buffer.from(`${header}\r\nAna,g,8\r\n`), 'v.csv')
      .attach('shifts', Buffer.from('Name,Start,End,Groups\r\nA,6/6/2026 8:00 AM,6/6/2026 12:00 PM,g:1\r\n'), 's.csv');
    expect(res.status).to.equal(200);
    expect(res.body.warnings.filter((w: Json) => w.code === 'csv_column_ignored')).to.have.length(WARNINGS_PER_CODE);
    expect(res.body.warnings.find((w: Json) => w.code === TRUNCATED_CODE).message).to.match(/^2,900 more warnings of code 'csv_column_ignored'/);
  });

  it('many locks of one volunteer in one hour: overlaps are counted, not all listed', () => {
    const shifts = Array.from({ length: 2000 }, (_, i) => ({
      id: `s${i}`,
      start: '2026-06-01T08:00:00Z',
      end: '2026-06-01T09:00:00Z',
      required_groups: { g: 1 },
    }));
    const body = {
      volunteers: [{ id: 'v', group: 'g', max_hours: 999 }],
      unassigned_shifts: shifts,
      current_assignments: shifts.map((s) => ({ shift_id: s.id, volunteer_id: 'v' })),
    };
    const result = validateScheduleRequest(body, schemas(), lockWarnings);
    expect(result.warnings.filter((w) => w.code === 'lock_overlap')).to.have.length(WARNINGS_PER_CODE);
    const pairs = (2000 * 1999) / 2;
    expect(result.warnings.find((w) => w.code === TRUNCATED_CODE)?.message).to.equal(
      `${(pairs - 100).toLocaleString('en-US')} more warnings of code 'lock_overlap' are not listed (at most 100 per code are); fix the ones listed and check again.`,
    );
  });

  it('refuses a property name over MAX_STRING_LENGTH with 413, before echoing it', async () => {
    const body: Json = { volunteers: [], unassigned_shifts: [] };
    body['k'.repeat(5000)] = 1;
    const res = await testApp().request.post('/api/validate').send(body);
    expect(res.status).to.equal(413);
    expect(res.body.limit).to.deep.equal({ name: 'MAX_STRING_LENGTH', value: 1000 });
  });
});

describe('hostile input: CSV row counts', () => {
  it('a volunteers file past MAX_VOLUNTEERS rows is 413 before its rows are read', async () => {
    const res = await testApp({ MAX_VOLUNTEERS: '5' })
      .request.post('/api/schedule/csv')
      .attach('volunteers', Buffer.from(`Name,Group,Max Hours\r\n${'Ana,,x\r\n'.repeat(6)}`), 'v.csv')
      .attach('shifts', Buffer.from('Name,Start,End,Groups\r\nA,6/6/2026 8:00 AM,6/6/2026 12:00 PM,g:1\r\n'), 's.csv');
    expect(res.status).to.equal(413);
    expect(res.body.detail).to.equal(
      'volunteers is 6 entries (data rows of the volunteers file); the limit is 5 entries (MAX_VOLUNTEERS). A background job (POST /api/jobs, the same body) takes up to 20,000 (JOB_MAX_VOLUNTEERS).',
    );
  });
});

describe('hostile input: numbers have upper bounds', () => {
  it('a headcount of 1e308 and a max_hours of 1e308 are 400s naming the bound', async () => {
    const body = fixture('requests/festival-small.json') as Json;
    body.unassigned_shifts[0].required_groups = { kitchen: 1e308 };
    body.volunteers[0].max_hours = 1e308;
    const res = await testApp().request.post('/api/schedule').send(body);
    expect(res.status).to.equal(400);
    const byPointer = new Map(res.body.errors.map((e: Json) => [e.pointer, e]));
    expect(byPointer.get('/unassigned_shifts/0/required_groups/kitchen')).to.include({
      code: 'out_of_range',
      message: "the headcount of group 'kitchen' must be at most 100,000, not 1e+308.",
    });
    expect(byPointer.get('/volunteers/0/max_hours')).to.include({
      code: 'out_of_range',
      message: 'max_hours must be at most 100,000; use 999 for unlimited, not 1e+308.',
    });
  });

  it('a CSV count or Max Hours past the bound is a bad cell', async () => {
    const res = await testApp()
      .request.post('/api/schedule/csv')
      .attach('volunteers', Buffer.from(`Name,Group,Max Hours\r\nAna,g,${'9'.repeat(400)}\r\n`), 'v.csv')
      .attach('shifts', Buffer.from('Name,Start,End,Groups\r\nA,6/6/2026 8:00 AM,6/6/2026 12:00 PM,g:1000001\r\n'), 's.csv');
    expect(res.status).to.equal(400);
    expect(res.body.errors.map((e: Json) => e.column)).to.deep.equal(['Max Hours', 'Groups']);
    expect(res.body.errors[1].message).to.match(/is over 100,000, the most one shift can ask of a group/);
  });
});

describe('hostile input: every body-reading failure is its own 4xx', () => {
  // Send the bytes as they are (superagent would JSON-encode a Buffer sent as application/json).
  const raw = (body: unknown): string => body as string;
  it('a corrupt br body is 400 invalid-encoding; an unknown encoding is 415', async () => {
    const t = testApp();
    const corrupt = await t.request
      .post('/api/validate')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'br')
      .serialize(raw)
      .send(Buffer.from('this is not brotli at all, not at all'));
    expect(corrupt.status).to.equal(400);
    expect(corrupt.body.type).to.equal('/problems/invalid-encoding');
    const ok = await t.request
      .post('/api/validate')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'br')
      .serialize(raw)
      .send(brotliCompressSync(Buffer.from('{"volunteers":[],"unassigned_shifts":[]}')));
    expect(ok.status).to.equal(200);
    const unknown = await t.request
      .post('/api/validate')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'zstd')
      .serialize(raw)
      .send(Buffer.from('{}'));
    expect(unknown.status).to.equal(415);
    expect(unknown.body.detail).to.equal("Content-Encoding 'zstd' is not supported; send the body uncompressed, or as gzip, deflate or br.");
  });

  it('too many files or fields is 400 invalid-multipart, not "over the limit"; part names are clipped', async () => {
    const t = testApp();
    const v = Buffer.from('Name,Group,Max Hours\r\nAna,g,8\r\n');
    const files = await t.request.post('/api/schedule/csv').attach('volunteers', v, 'a.csv').attach('shifts', v, 'b.csv').attach('other', v, 'c.csv');
    expect(files.status).to.equal(400);
    expect(files.body).to.include({
      type: '/problems/invalid-multipart',
      detail:
        'The upload has more than 2 file parts. The upload takes the file parts volunteers and shifts and the text fields timezone, min_rest_hours and max_shifts_per_day.',
    });
    let many = t.request.post('/api/schedule/csv');
    for (let i = 0; i < 6; i++) many = many.field(`f${i}`, 'x');
    const fields = await many;
    expect(fields.status).to.equal(400);
    expect(fields.body.detail).to.match(/^The upload has more than 4 text fields/);
    const longName = await t.request.post('/api/schedule/csv').attach('volunteers', v, 'a.csv').attach('shifts', v, 'b.csv').field('n'.repeat(50_000), 'x');
    expect(longName.status).to.equal(400);
    expect(longName.body.type).to.equal('/problems/invalid-multipart');
    expect(JSON.stringify(longName.body).length).to.be.below(1000);
  });
});

describe('hostile input: the prepare step on input worker threads', function () {
  this.timeout(30_000);
  const context = () => ({ schemas: schemas(), limits: loadConfig({}).limits });

  it('gives the same validation, the same problem and the same 400 as in this thread', async () => {
    const workers = workerPreparer({ limits: loadConfig({}).limits, threads: 1, queueMax: 4 });
    try {
      const inline = inlinePreparer(context());
      const body = Buffer.from(JSON.stringify(fixture('requests/festival-small.json')));
      expect(await workers.validate(body)).to.deep.equal(await inline.validate(body));
      const [a, b] = [await workers.prepareJson(body), await inline.prepareJson(body)];
      expect(a.problem).to.deep.equal(b.problem);
      expect(a.warnings).to.deep.equal(b.warnings);
      const error = (await workers.prepareJson(Buffer.from('{"volunteers": 3}')).catch((e: unknown) => e)) as Json;
      expect(error.constructor.name).to.equal('ProblemError');
      expect(error.type.slug).to.equal('invalid-request');
      expect(error.extras.errors.map((e: Json) => e.pointer)).to.deep.equal(['/unassigned_shifts', '/volunteers']);
    } finally {
      await workers.close();
    }
  });

  it('ready() settles once every thread has started and prepared the warm-up roster, whatever the limits', async () => {
    // Limits far below the warm-up roster's 16 volunteers and 24 shifts: it is prepared with the defaults.
    const tiny = { ...loadConfig({}).limits, maxVolunteers: 1, maxShifts: 1, maxCandidatePairs: 1 };
    const workers = workerPreparer({ limits: tiny, threads: 2, queueMax: 0 });
    try {
      // Two distinct threads answered, with no queue at all: the warm-up never waits for a thread.
      expect(await workers.ready()).to.equal(2);
      expect(workers.stats()).to.deep.equal({ threads: 2, queued: 0 });
      // A request still meets the service's own limits.
      const body = Buffer.from(JSON.stringify(fixture('requests/festival-small.json')));
      const refused = (await workers.prepareJson(body).catch((e: unknown) => e)) as Json;
      expect(refused.type.slug).to.equal('payload-too-large');
    } finally {
      await workers.close();
    }
    expect(await inlinePreparer(context()).ready()).to.equal(0);
  });

  it('a start whose solver pool or input threads fail closes both and the store, then fails', async () => {
    const closed: string[] = [];
    const preparer = { ...inlinePreparer(context()), close: () => Promise.resolve(void closed.push('preparer')) };
    const store = { close: () => Promise.resolve(void closed.push('store')) };
    const failing = { ready: () => Promise.reject(new Error('no solver')), close: () => Promise.resolve(void closed.push('scheduler')) };
    const error = (await readyOrClose(failing, preparer, store).catch((e: unknown) => e)) as Error;
    expect(error.message).to.equal('no solver');
    expect(closed.sort()).to.deep.equal(['preparer', 'scheduler', 'store']);
    closed.length = 0;
    const working = { ready: () => Promise.resolve(), close: () => Promise.resolve(void closed.push('scheduler')) };
    await readyOrClose(working, preparer, store);
    expect(closed).to.deep.equal([]);
  });

  it('answers 503 overloaded at once when every thread is busy and the queue is full', async () => {
    const workers = workerPreparer({ limits: loadConfig({}).limits, threads: 1, queueMax: 1 });
    try {
      const body = Buffer.from(JSON.stringify(fixture('requests/festival-small.json')));
      await workers.validate(body); // the thread is up
      const [running, queued, refused] = await Promise.allSettled([workers.validate(body), workers.validate(body), workers.validate(body)]);
      expect([running.status, queued.status, refused.status]).to.deep.equal(['fulfilled', 'fulfilled', 'rejected']);
      expect((refused as PromiseRejectedResult).reason.type.slug).to.equal('overloaded');
    } finally {
      await workers.close();
    }
  });
});

describe('hostile input: slow clients and connection cap', function () {
  this.timeout(20_000);
  const http = { headersTimeoutS: 0.3, requestTimeoutS: 0.6, keepAliveTimeoutS: 0.3, maxConnections: 2 };
  const start = async (): Promise<{ port: number; close: () => void }> => {
    const server = httpServer((_req, res) => res.end('ok'), http);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { port: (server.address() as AddressInfo).port, close: () => server.close() };
  };
  const open = async (port: number): Promise<{ socket: Socket; received: () => string }> => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += String(d)));
    socket.on('error', () => {});
    await once(socket, 'connect');
    return { socket, received: () => text };
  };

  it('closes a connection whose headers never finish (408) and one whose body never finishes', async () => {
    const server = await start();
    try {
      const headers = await open(server.port);
      headers.socket.write('POST /api/validate HTTP/1.1\r\nHost: x\r\n');
      await once(headers.socket, 'close');
      expect(headers.received()).to.match(/^HTTP\/1\.1 408/);
      const body = await open(server.port);
      body.socket.write('POST /api/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a":');
      await once(body.socket, 'close');
    } finally {
      server.close();
    }
  });

  it('accepts MAX_CONNECTIONS connections and closes the next on arrival', async () => {
    const server = await start();
    try {
      const a = await open(server.port);
      const b = await open(server.port);
      const c = await open(server.port);
      await once(c.socket, 'close');
      expect(c.received()).to.equal('');
      expect(a.socket.destroyed || b.socket.destroyed).to.equal(false);
      a.socket.destroy();
      b.socket.destroy();
    } finally {
      server.close();
    }
  });
});

describe('hostile input: logs', () => {
  it('a key put in the path of a request does not reach the access log', async () => {
    const t = testApp();
    const res = await t.anonymous.get(`/api/usage/${t.key}`);
    expect(res.status).to.equal(404);
    expect(t.logText()).to.not.include(t.key.split('.')[1]!);
    expect(t.logs().find((l) => l.msg === 'request')).to.include({ route: 'unmatched', status: 404 });
  });
});

for (const { label, tag, create, needsPostgres } of DATABASES) {
  describe(`hostile input on ${label}${tag}: quota, readiness, history`, function () {
    this.timeout(60_000);
    let database: TestDatabase;
    let store: KeyStore;
    const now = new Date('2026-06-01T12:00:00Z');
    const app = (s: KeyStore = store) =>
      createApp({ config: loadConfig({}), logger: createLogger('silent'), schemas: schemas(), scheduler: pool(), store: s, secret: SECRET, clock: () => now });

    before(async function () {
      if (needsPostgres) await requirePostgres(this);
      database = await create();
      store = await KeyStore.open(database.url);
    });
    after(async () => {
      await releaseIfSet(store, (s) => s.close());
      await releaseIfSet(database, (d) => d.drop());
    });

    it('no spelling of a counted path runs it once the quota is used up, and none is counted', async () => {
      const key = formatKey(SECRET, 'alias-user', (await store.issue('alias-user', 'n', 'd', 1, now)).nonce);
      const agent = supertest(app().callback());
      const body = { volunteers: [], unassigned_shifts: [] };
      expect((await agent.post('/api/validate').set('Authorization', `Bearer ${key}`).send(body)).status).to.equal(200);
      expect((await agent.post('/api/schedule').set('Authorization', `Bearer ${key}`).send(body)).status).to.equal(429);
      for (const path of [
        '/api/schedule/',
        '/API/SCHEDULE',
        '/api/schedule/csv/',
        '/API/VALIDATE',
        '/api/Validate',
        '/api/%73chedule',
        '/api/validate%2F',
        '//api/validate',
        '/api/./validate',
      ]) {
        const res = await agent.post(path).set('Authorization', `Bearer ${key}`).send(body);
        expect(res.status, path).to.be.oneOf([404, 429]);
      }
      const usage = await agent.get('/api/usage').set('Authorization', `Bearer ${key}`);
      expect(usage.body.usage_count).to.equal(1);
      expect(usage.body.history.map((h: Json) => h.endpoint)).to.deep.equal(['/api/schedule', '/api/validate']);
    });

    it('prunes history older than USAGE_HISTORY_DAYS and beyond the newest rows per key', async () => {
      const entry = (timestamp: string) => ({ timestamp, method: 'POST', endpoint: '/api/validate', status: 200, duration_ms: 1, request_id: 'r' });
      for (let i = 0; i < 5; i++) await store.record('old-user', entry('2026-01-01T00:00:00.000Z'));
      for (let i = 0; i < 1500; i += 500) {
        await Promise.all(Array.from({ length: 500 }, () => store.record('busy-user', entry('2026-05-31T00:00:00.000Z'))));
      }
      const deleted = await store.pruneHistory(now, 90, 1000);
      expect(deleted).to.equal(5 + 500);
      expect(await store.history('old-user', 10)).to.deep.equal([]);
      expect(await store.history('busy-user', 1000)).to.have.length(1000);
      expect(await store.pruneHistory(now, 90, 1000)).to.equal(0);
    });

    if (needsPostgres) {
      it('a read-only database: /readyz says so, and a new start refuses it', async () => {
        const name = new URL(database.url).pathname.slice(1);
        const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
        await admin.connect();
        try {
          await admin.query(`alter database ${name} set default_transaction_read_only = on`);
          await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
          // A check may meet a pooled connection the server just closed (unreachable), one per
          // connection the pool held; it then connects afresh, read-only.
          let ready = await supertest(app().callback()).get('/readyz');
          for (let i = 0; i < 10 && ready.body.detail === 'Not ready: database unreachable.'; i++) ready = await supertest(app().callback()).get('/readyz');
          expect(ready.status).to.equal(503);
          expect(ready.body.detail).to.equal('Not ready: database read-only.');
          const refused = await KeyStore.open(database.url).then(
            () => 'opened',
            (e: unknown) => (e as Error).message,
          );
          expect(refused).to.match(/^The database cannot be written \(it is read-only/);
        } finally {
          await admin.query(`alter database ${name} set default_transaction_read_only = off`);
          await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
          await admin.end();
        }
      });
    } else {
      it('a read-only database: /readyz says so', async () => {
        const readOnly = await KeyStore.open(database.url);
        try {
          // The embedded database as a read-only file would leave it (root ignores file modes here).
          await sql`pragma query_only = on`.execute((readOnly as unknown as { store: { db: Kysely<unknown> } }).store.db);
          const ready = await supertest(app(readOnly).callback()).get('/readyz');
          expect(ready.status).to.equal(503);
          expect(ready.body.detail).to.equal('Not ready: database read-only.');
        } finally {
          await readOnly.close();
        }
      });
    }
  });
}
