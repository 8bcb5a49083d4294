// `volunteer-scheduler worker`: a solver-only process. It takes jobs from the PostgreSQL queue
// (pg-boss) that the API processes fill, solves them on its SOLVER_WORKERS threads, JOB_WORKERS
// at a time, and answers no API request; with WORKER_METRICS_PORT it serves GET /metrics and
// GET /healthz for the operator. SIGTERM (or Ctrl-C) stops it cleanly: it takes no new job,
// lets running ones finish within JOB_SHUTDOWN_GRACE_SECONDS and hands the rest back to the
// queue, then exits 0. A worker killed outright is found by the supervisor of any other process
// on the database within JOB_STALE_SECONDS, and its job is queued again once.
import { createServer, type Server } from 'node:http';
import { loadConfig, type Config } from '../config/config.js';
import { loadSchemas } from '../input/schema-registry.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { createScheduler } from '../engine/scheduler.js';
import { readyOrClose, workerPreparer } from '../service/input-preparer.js';
import { KeyStore } from '../store/key-store.js';
import { createMetrics } from '../http/metrics.js';
import { Jobs } from '../jobs/jobs.js';
import { JobStore } from '../jobs/job-store.js';

export class WorkerSetupError extends Error {}

export interface RunningWorker {
  jobs: Jobs;
  /** The metrics server's port, when one runs. */
  port?: number;
  /** Stops as SIGTERM does; `graceS` overrides JOB_SHUTDOWN_GRACE_SECONDS. */
  stop(graceS?: number): Promise<void>;
}

export async function startWorker(config: Config = loadConfig(), logger: Logger = createLogger(config.logLevel)): Promise<RunningWorker> {
  if (!config.databaseUrl.startsWith('postgres')) {
    throw new WorkerSetupError(
      'the worker command needs a PostgreSQL DATABASE_URL (postgres://...), shared with the API processes; with the SQLite default, `volunteer-scheduler serve` solves jobs itself (JOB_WORKERS, default 1).',
    );
  }
  if (config.jobs.workers < 1) throw new WorkerSetupError('JOB_WORKERS is 0; a worker solves at least one job at a time (set JOB_WORKERS=1 or more).');
  const store = await KeyStore.open(config.databaseUrl);
  const secret = config.schedulerSecret ?? (await store.sharedSecret());
  const scheduler = createScheduler({ workers: config.solverWorkers });
  const preparer = workerPreparer({ limits: config.limits, threads: 1, queueMax: 1000 });
  await readyOrClose(scheduler, preparer, store);
  const jobCounts = new JobStore(store.database);
  const metrics = createMetrics(
    () => scheduler.stats(),
    () => jobCounts.countByStatus(),
  );
  const jobs = new Jobs({ config, database: store.database, logger, schemas: loadSchemas(), secret, scheduler, preparer, metrics });
  await jobs.start();
  let server: Server | undefined;
  let port: number | undefined;
  if (config.jobs.workerMetricsPort > 0) {
    server = createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/metrics') {
        void metrics.registry.metrics().then((text) => {
          res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
          res.end(text);
        });
      } else if (req.method === 'GET' && req.url === '/healthz') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ status: 'ok', busy: jobs.runner?.busy ?? 0 }));
      } else {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('This worker serves GET /metrics and GET /healthz only.\n');
      }
    });
    await new Promise<void>((resolve) => server!.listen(config.jobs.workerMetricsPort, config.host, resolve));
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : undefined;
  }
  logger.info({ worker: jobs.runner?.name, job_workers: jobs.workers, solver_workers: config.solverWorkers, metrics_port: port }, 'worker started');
  let stopping: Promise<void> | undefined;
  const stop = (graceS?: number): Promise<void> => {
    stopping ??= (async () => {
      await jobs.stop(graceS);
      await new Promise<void>((resolve) => {
        if (server) {
          server.close(() => {
            resolve();
          });
        } else resolve();
      });
      await Promise.all([scheduler.close(), preparer.close()]);
      await store.close();
    })();
    return stopping;
  };
  return { jobs, ...(port !== undefined ? { port } : {}), stop };
}

/** Runs until SIGTERM or SIGINT, then stops cleanly and exits 0. */
export async function runWorker(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const worker = await startWorker(config, logger);
  const stop = (signal: string): void => {
    logger.info({ signal }, 'worker stopping');
    void worker.stop().then(() => {
      logger.info('worker stopped');
      process.exit(0);
    });
  };
  process.once('SIGTERM', () => {
    stop('SIGTERM');
  });
  process.once('SIGINT', () => {
    stop('SIGINT');
  });
}
