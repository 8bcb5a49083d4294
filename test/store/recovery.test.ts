// A PostgreSQL restart seen from the service: every server connection is terminated under a
// live app, which must answer 503 at worst and then recover on its own.
import { expect } from 'chai';
import pg from 'pg';
import supertest from 'supertest';
import { formatKey } from '../../src/auth/api-keys.js';
import { loadConfig } from '../../src/config/config.js';
import { createApp } from '../../src/http/app.js';
import { createLogger } from '../../src/logging/logger.js';
import { KeyStore } from '../../src/store/key-store.js';
import { pool, releaseIfSet, schemas } from '../helpers/app.js';
import { PG_ADMIN_URL, postgresDatabase, requirePostgres, type TestDatabase } from '../helpers/databases.js';

describe('PostgreSQL connections dropped (a database restart): the service recovers [postgres]', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let store: KeyStore;
  before(async function () {
    await requirePostgres(this);
    database = await postgresDatabase();
    store = await KeyStore.open(database.url);
  });
  after(async () => {
    await releaseIfSet(store, (s) => s.close());
    await releaseIfSet(database, (d) => d.drop());
  });

  it('answers again after every server connection of its database was terminated', async () => {
    const secret = 'recovery-secret-0123456789-0123456789-ab';
    const key = formatKey(secret, 'r', (await store.issue('r', 'r', 'r', 1000, new Date())).nonce);
    const app = createApp({ config: loadConfig({}), logger: createLogger('silent'), schemas: schemas(), scheduler: pool(), store, secret });
    const call = () => supertest(app.callback()).post('/api/validate').set('Authorization', `Bearer ${key}`).send({ volunteers: [], unassigned_shifts: [] });
    expect((await call()).status).to.equal(200);
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    admin.on('error', () => {});
    await admin.connect();
    const name = new URL(database.url).pathname.slice(1);
    const killed = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    await admin.end();
    expect(killed.rowCount).to.be.greaterThan(0);
    // A request on a dropped connection may fail with 503 (never a 500); the pool reconnects.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call()).status);
    expect(
      statuses.every((s) => s === 200 || s === 503),
      String(statuses),
    ).to.equal(true);
    expect(statuses.at(-1)).to.equal(200);
    expect((await supertest(app.callback()).get('/readyz')).status).to.equal(200);
  });
});
