// pg-boss queue start-up when several processes start together on a new database (two API
// instances and two workers, as in jobs-postgres.test.ts): each creates the queue, and
// PostgreSQL may end one creation with a deadlock or a unique violation. Every start must
// succeed (src/jobs/pg-boss-queue.ts start looks again when it collides).
import { expect } from 'chai';
import pg from 'pg';
import { QUEUE_NAME, pgBossQueue } from '../../src/jobs/pg-boss-queue.js';
import { createLogger } from '../../src/logging/logger.js';
import { postgresDatabase, requirePostgres, type TestDatabase } from '../helpers/databases.js';

describe('job queue start-up on PostgreSQL [postgres]', function () {
  this.timeout(120_000);

  it('six queues starting together on a new database all start, and share one queue', async function () {
    await requirePostgres(this);
    const logger = createLogger('silent');
    // Several rounds: the collision depends on timing, so one round alone would rarely meet it.
    for (let round = 0; round < 5; round++) {
      const db: TestDatabase = await postgresDatabase();
      const queues = Array.from({ length: 6 }, () => pgBossQueue(db.url, logger));
      try {
        const started = await Promise.allSettled(queues.map((q) => q.start()));
        expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).to.deep.equal(Array(6).fill('started'));
        // One queue, not six, and it takes a job.
        const c = new pg.Client({ connectionString: db.url });
        await c.connect();
        try {
          const { rows } = await c.query<{ n: number }>('select count(*)::int as n from pgboss.queue where name = $1', [QUEUE_NAME]);
          expect(rows[0]!.n).to.equal(1);
        } finally {
          await c.end();
        }
        expect(await queues[0]!.send('job-1', 60)).to.be.a('string');
      } finally {
        await Promise.allSettled(queues.map((q) => q.close()));
        await db.drop();
      }
    }
  });
});
