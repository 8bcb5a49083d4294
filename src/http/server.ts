// The server entry: loads configuration and schemas, builds the app, listens, and shuts down
// cleanly on SIGTERM/SIGINT (stop accepting, let in-flight requests finish within a grace
// period, then exit 0). Slow clients are bounded here: headers and the whole request each have
// a deadline (HTTP_HEADERS_TIMEOUT, HTTP_REQUEST_TIMEOUT), idle keep-alive connections close,
// and at most MAX_CONNECTIONS are open at once. Usage history is pruned at start and hourly.
import { createServer, type RequestListener, type Server } from 'node:http';
import { loadConfig, type Config } from '../config/config.js';
import { loadSchemas } from '../input/schema-registry.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { createScheduler } from '../engine/scheduler.js';
import { KeyStore } from '../store/key-store.js';
import { createApp } from './app.js';
import { readyOrClose, workerPreparer } from '../service/input-preparer.js';
import { Jobs } from '../jobs/jobs.js';
import { JobStore } from '../jobs/job-store.js';
import { createMetrics } from './metrics.js';

export interface RunningServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

const GRACE_MS = 10_000;

export async function startServer(config: Config = loadConfig(), logger: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const store = await KeyStore.open(config.databaseUrl);
  const secret = config.schedulerSecret ?? (await store.sharedSecret());
  if (store.dialect === 'sqlite' && config.jobs.workers === 0) {
    logger.warn(
      'JOB_WORKERS=0 with SQLite: jobs (POST /api/jobs) are accepted but nothing here solves them, and the worker command needs PostgreSQL; set JOB_WORKERS=1 or more, or use PostgreSQL with worker processes',
    );
  }
  if (config.schedulerSecret === undefined) logger.warn('SCHEDULER_SECRET is not set: keys are signed with a secret generated once and kept in the database');
  const scheduler = createScheduler({ workers: config.solverWorkers });
  const preparer = workerPreparer({ limits: config.limits, threads: config.inputWorkers, queueMax: config.inputQueueMax });
  // The solver's and the input threads' start and warm-up, side by side, before the service listens.
  await readyOrClose(scheduler, preparer, store);
  const pendingWrites = new Set<Promise<void>>();
  const schemas = loadSchemas();
  const jobCounts = new JobStore(store.database);
  const metrics = createMetrics(
    () => scheduler.stats(),
    () => jobCounts.countByStatus(),
  );
  const jobs = new Jobs({ config, database: store.database, logger, schemas, secret, scheduler, preparer, metrics });
  await jobs.start();
  const app = createApp({ config, logger, schemas, scheduler, store, secret, pendingWrites, pool: scheduler, preparer, metrics, jobs });
  const handle = app.callback();
  // Koa's handler settles its own promise: a failure becomes the error response, never a rejection.
  const server = httpServer((req, res) => {
    void handle(req, res);
  }, config.http);
  const pruning = scheduleHistoryPruning(store, config, logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Only now, with every thread started, do the solver workers warm up (until their first job).
  scheduler.warmUp();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info(
    { host: config.host, port, solver_workers: config.solverWorkers, database: store.dialect, job_workers: jobs.workers, job_queue: jobs.queue.kind },
    'listening',
  );

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        server.closeAllConnections();
      }, GRACE_MS);
      force.unref();
      // Jobs first: no new one starts; running ones finish within the grace or are handed back;
      // event streams end (their clients reconnect to another instance).
      const jobsStopped = jobs.stop();
      server.close(() => {
        clearTimeout(force);
        clearInterval(pruning);
        void Promise.all([...pendingWrites, jobsStopped])
          .then(() => Promise.all([scheduler.close(), preparer.close(), store.close()]))
          .then(() => {
            resolve();
          });
      });
      server.closeIdleConnections();
    });
    return closing;
  };
  return { server, port, close };
}

/** The HTTP server with the configured deadlines for slow clients and the connection cap. */
export function httpServer(callback: RequestListener, http: Config['http']): Server {
  const server = createServer(
    {
      headersTimeout: http.headersTimeoutS * 1000,
      requestTimeout: http.requestTimeoutS * 1000,
      keepAliveTimeout: http.keepAliveTimeoutS * 1000,
      // How often Node checks the two deadlines above (its default, 30 s, would let a slow
      // client outlive a 10 s headers timeout by up to 30 s).
      connectionsCheckingInterval: Math.min(1000, http.headersTimeoutS * 500),
    },
    callback,
  );
  server.maxConnections = http.maxConnections;
  return server;
}

const HOUR_MS = 3_600_000;

/** Prunes usage history now and every hour; a failed prune is logged and tried again later. */
function scheduleHistoryPruning(store: KeyStore, config: Config, logger: Logger): NodeJS.Timeout {
  const prune = (): void => {
    store
      .pruneHistory(new Date(), config.usageHistoryDays, config.usageHistoryMaxPerKey)
      .then((deleted) => {
        if (deleted > 0) logger.info({ deleted, days: config.usageHistoryDays, max_per_key: config.usageHistoryMaxPerKey }, 'usage history pruned');
      })
      .catch((err: unknown) => {
        logger.warn({ err }, 'usage history pruning failed');
      });
  };
  prune();
  const timer = setInterval(prune, HOUR_MS);
  timer.unref();
  return timer;
}

/** Runs until SIGTERM or SIGINT, then closes and exits 0. */
export async function serve(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const running = await startServer(config, logger);
  const stop = (signal: string): void => {
    logger.info({ signal }, 'shutting down');
    void running.close().then(() => {
      logger.info('stopped');
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
