// Builds the app as the server does: configuration from a given environment, a real SQLite
// store in a temp folder (shared by the run, opened by the root hook), a real worker pool, and
// a logger whose lines the test can read. `request` carries a valid key; `anonymous` none.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { Writable } from 'node:stream';
import supertest from 'supertest';
import type Koa from 'koa';
import { formatKey } from '../../src/auth/api-keys.js';
import { createApp, type AppDeps } from '../../src/http/app.js';
import { loadConfig } from '../../src/config/config.js';
import { loadSchemas, type SchemaRegistry } from '../../src/input/schema-registry.js';
import { createLogger } from '../../src/logging/logger.js';
import { packageRoot } from '../../src/package-root.js';
import { createScheduler, type Scheduler } from '../../src/engine/scheduler.js';
import { KeyStore } from '../../src/store/key-store.js';
import { Jobs } from '../../src/jobs/jobs.js';
import { inlinePreparer } from '../../src/service/input-preparer.js';

export const TEST_SECRET = 'test-secret-0123456789-0123456789-abcdef';

let sharedPool: Scheduler | undefined;
/** One real scheduler over a worker pool for the whole test run (closed by the root hook in test/hooks.ts). */
export function pool(): Scheduler {
  sharedPool ??= createScheduler({ workers: 2 });
  return sharedPool;
}

let shared: { store: KeyStore; key: string } | undefined;
/** Opens the run's SQLite store and issues the test key (root hook). */
export async function openSharedStore(): Promise<void> {
  const store = await KeyStore.open(`sqlite:${join(mkdtempSync(join(tmpdir(), 'vs-test-db-')), 'test.db')}`);
  const record = await store.issue('tester', 'Test suite', 'the HTTP tests', 1_000_000_000, new Date());
  shared = { store, key: formatKey(TEST_SECRET, 'tester', record.nonce) };
}

export async function closeShared(): Promise<void> {
  await sharedPool?.close();
  sharedPool = undefined;
  await shared?.store.close();
  shared = undefined;
}

export function sharedStore(): { store: KeyStore; key: string } {
  if (!shared) throw new Error('the shared store is opened by the root hook (test/hooks.ts)');
  return shared;
}

let registry: SchemaRegistry | undefined;
export function schemas(): SchemaRegistry {
  registry ??= loadSchemas();
  return registry;
}

export interface TestApp {
  app: Koa;
  /** Requests with the test key in the Authorization header. */
  request: supertest.Agent;
  /** Requests without a key. */
  anonymous: ReturnType<typeof supertest>;
  key: string;
  /** Every log line written so far, parsed. */
  logs: () => Array<Record<string, unknown>>;
  /** The raw log text. */
  logText: () => string;
}

export function testApp(env: Record<string, string> = {}, overrides: Partial<AppDeps> = {}): TestApp {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = createLogger('info', sink);
  const { store, key } = sharedStore();
  const app = createApp({ config: loadConfig(env), logger, schemas: schemas(), scheduler: pool(), store, secret: TEST_SECRET, pool: pool(), ...overrides });
  const agent = supertest.agent(app.callback());
  agent.set('Authorization', `Bearer ${key}`);
  return {
    app,
    request: agent,
    anonymous: supertest(app.callback()),
    key,
    logText: () => chunks.join(''),
    logs: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/**
 * The test app with background jobs on the shared SQLite store (the in-process queue), solved
 * by the shared pool `workers` at a time (0: jobs stay queued). Close it after: it stops the
 * queue and hands back what still runs.
 */
export async function testJobsApp(
  env: Record<string, string> = {},
  o: { workers?: number; now?: () => Date } = {},
): Promise<TestApp & { jobs: Jobs; close(): Promise<void> }> {
  const config = loadConfig(env);
  const { store } = sharedStore();
  const logger = createLogger('silent');
  const jobs = new Jobs({
    config,
    database: store.database,
    logger,
    schemas: schemas(),
    secret: TEST_SECRET,
    scheduler: pool(),
    preparer: inlinePreparer({ schemas: schemas(), limits: config.limits }),
    workers: o.workers ?? 1,
    ...(o.now ? { now: o.now } : {}),
  });
  await jobs.start();
  const app = testApp(env, { jobs });
  return { ...app, jobs, close: () => jobs.stop(0) };
}

/** A JSON fixture, parsed; callers that know its shape say so with `as`. */
export function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(packageRoot, 'test', 'fixtures', name), 'utf8')) as Record<string, unknown>;
}

/** The app as a Node request listener: Koa settles its own promise (a failure becomes the error response). */
export function listener(app: Koa): RequestListener {
  const handle = app.callback();
  return (req, res) => {
    void handle(req, res);
  };
}

/**
 * Releases what a `before` hook set up, if it got that far: a hook that failed or skipped leaves
 * the variable unset, which its declared type cannot say.
 */
export async function releaseIfSet<T>(resource: T | undefined, release: (r: T) => unknown): Promise<void> {
  if (resource !== undefined) await release(resource);
}
