// The server entry: loads configuration and schemas, builds the app, listens, and shuts down
// cleanly on SIGTERM/SIGINT (stop accepting, let in-flight requests finish within a grace
// period, then exit 0).
import { createServer, type Server } from 'node:http';
import { loadConfig, type Config } from '../config/config.js';
import { loadSchemas } from '../input/schema-registry.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { createScheduler } from '../engine/scheduler.js';
import { KeyStore } from '../store/key-store.js';
import { createApp } from './app.js';

export interface RunningServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

const GRACE_MS = 10_000;

export async function startServer(config: Config = loadConfig(), logger: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const store = await KeyStore.open(config.databaseUrl);
  const secret = config.schedulerSecret ?? (await store.sharedSecret());
  if (config.schedulerSecret === undefined) logger.warn('SCHEDULER_SECRET is not set: keys are signed with a secret generated once and kept in the database');
  const scheduler = createScheduler({ workers: config.solverWorkers });
  await scheduler.ready();
  const pendingWrites = new Set<Promise<void>>();
  const app = createApp({ config, logger, schemas: loadSchemas(), scheduler, store, secret, pendingWrites, pool: scheduler });
  const server = createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ host: config.host, port, solver_workers: config.solverWorkers, database: store.dialect }, 'listening');

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      const force = setTimeout(() => server.closeAllConnections(), GRACE_MS);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        void Promise.all([...pendingWrites])
          .then(() => Promise.all([scheduler.close(), store.close()]))
          .then(() => resolve());
      });
      server.closeIdleConnections();
    });
    return closing;
  };
  return { server, port, close };
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
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
