// The PostgreSQL queue: pg-boss 10 (a maintained job queue on PostgreSQL that supports Node 20)
// stores each job's entry, and its workers fetch them with SELECT ... FOR UPDATE SKIP LOCKED,
// so any number of API processes and workers share one queue and no entry is taken twice.
// pg-boss polls at most every 0.5 s; so that a job starts at once on an idle worker, the sender
// also NOTIFYs a channel every worker LISTENs on, and a notice wakes the worker's pg-boss loops
// (notifyWorker). pg-boss retries an entry once (retryLimit 1) when the supervisor finds its
// worker dead (fail()); its own expiry, past the job's longest run, is only a last resort.
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from '../logging/logger.js';
import { Running, type JobHandler, type JobQueue } from './queue.js';

export const QUEUE_NAME = 'volunteer-scheduler-solve';
/** Tries at creating the queue when processes starting together collide (see start). */
const QUEUE_CREATE_ATTEMPTS = 5;
const WAKE_CHANNEL = 'volunteer_scheduler_jobs';
/** The slowest pg-boss poll (a missed notice costs at most this). */
const POLL_S = 0.5;

export function pgBossQueue(databaseUrl: string, logger: Logger): JobQueue {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: 'pgboss',
    max: 4,
    // Only our queue: no cron schedules; pg-boss still archives and deletes old entries itself.
    schedule: false,
    supervise: true,
    retryLimit: 1,
    retryDelay: 0,
    retryBackoff: false,
  });
  boss.on('error', (err) => {
    logger.warn({ err }, 'job queue (pg-boss) error');
  });
  const workerIds: string[] = [];
  let listener: pg.Client | undefined;
  let listening = false;
  let closed = false;
  const running = new Running();

  const wake = async (): Promise<void> => {
    try {
      await boss.getDb().executeSql(`select pg_notify($1, '')`, [WAKE_CHANNEL]);
    } catch (err) {
      // The entry is stored; a worker finds it at its next poll.
      logger.debug({ err }, 'job queue wake-up notice failed');
    }
  };

  /** LISTENs for wake-up notices on a connection of its own, reconnecting after a loss. */
  const listen = async (): Promise<void> => {
    if (closed || listening) return;
    listening = true;
    const client = new pg.Client({ connectionString: databaseUrl });
    const reconnect = (): void => {
      listening = false;
      listener = undefined;
      client.removeAllListeners();
      void client.end().catch(() => {});
      if (!closed) setTimeout(() => void listen(), 1000).unref();
    };
    client.on('error', reconnect);
    client.on('end', () => {
      if (listener === client) reconnect();
    });
    client.on('notification', () => {
      for (const id of workerIds) boss.notifyWorker(id);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${WAKE_CHANNEL}`);
      listener = client;
      // A notice sent while the connection was down is missed: look now.
      for (const id of workerIds) boss.notifyWorker(id);
    } catch (err) {
      logger.debug({ err }, 'job queue listener could not connect; retrying');
      reconnect();
    }
  };

  return {
    kind: 'pg-boss',
    async start() {
      await boss.start();
      // Processes starting together on a new database all create the queue: PostgreSQL can end
      // one of them with a deadlock (40P01, seen in the two-API-instance test) or a unique
      // violation (23505). Either way the queue is being created by another: look again.
      for (let attempt = 1; ; attempt++) {
        try {
          if (await boss.getQueue(QUEUE_NAME)) return;
          await boss.createQueue(QUEUE_NAME, { name: QUEUE_NAME, retryLimit: 1, retryDelay: 0 });
          return;
        } catch (err) {
          const code = (err as { code?: unknown }).code;
          if (attempt >= QUEUE_CREATE_ATTEMPTS || (code !== '40P01' && code !== '23505')) throw err;
          await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
        }
      }
    },
    async send(jobId, expireS) {
      const id = await boss.send(QUEUE_NAME, { jobId }, { expireInSeconds: Math.min(expireS, 23 * 3600), retryLimit: 1, retryDelay: 0 });
      if (id === null) throw new Error('pg-boss did not store the job');
      await wake();
      return id;
    },
    async retry(jobId, queueId, expireS, final) {
      // fail() puts the entry in pg-boss's retry state (or failed, its one retry spent).
      if (queueId !== null) {
        const entry = await boss.getJobById<{ jobId: string }>(QUEUE_NAME, queueId, { includeArchive: false });
        if (entry && entry.state === 'active') {
          await boss.fail(QUEUE_NAME, queueId, { message: 'the worker solving it stopped' });
          if (final || entry.retryCount >= entry.retryLimit) return undefined;
          await wake();
          return queueId;
        }
      }
      if (final) return undefined;
      // No live entry to retry (expired, or never stored): queue it anew.
      return await this.send(jobId, expireS);
    },
    async drop(queueId) {
      if (queueId === null) return;
      await boss.cancel(QUEUE_NAME, queueId).catch(() => {});
    },
    async work(concurrency, handler: JobHandler) {
      for (let i = 0; i < concurrency; i++) {
        const id = await boss.work<{ jobId: string }>(QUEUE_NAME, { batchSize: 1, pollingIntervalSeconds: POLL_S }, async ([job]) => {
          if (!job) return;
          await running.run(handler, job.data.jobId);
        });
        workerIds.push(id);
      }
      await listen();
    },
    async stopWork(timeoutMs) {
      await boss.offWork(QUEUE_NAME);
      workerIds.length = 0;
      await running.none(timeoutMs);
    },
    async close() {
      closed = true;
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
      await boss.stop({ graceful: false, wait: true });
    },
  };
}
