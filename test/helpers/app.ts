// Builds the app as the server does, with a configuration from a given environment and a
// logger whose lines the test can read.
import { Writable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import supertest from 'supertest';
import type Koa from 'koa';
import { createApp, type AppDeps } from '../../src/http/app.js';
import { loadConfig } from '../../src/config/config.js';
import { loadSchemas, type SchemaRegistry } from '../../src/input/schema-registry.js';
import { createLogger } from '../../src/logging/logger.js';
import { packageRoot } from '../../src/package-root.js';
import { SolverPool } from '../../src/engine/pool/solver-pool.js';

let sharedPool: SolverPool | undefined;
/** One real worker pool for the whole test run (closed by the root hook in test/hooks.ts). */
export function pool(): SolverPool {
  sharedPool ??= new SolverPool({ size: 2 });
  return sharedPool;
}
export async function closePool(): Promise<void> {
  await sharedPool?.close();
  sharedPool = undefined;
}

let registry: SchemaRegistry | undefined;
export function schemas(): SchemaRegistry {
  registry ??= loadSchemas();
  return registry;
}

export interface TestApp {
  app: Koa;
  request: ReturnType<typeof supertest>;
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
  const app = createApp({ config: loadConfig(env), logger, schemas: schemas(), runSubproblem: (task) => pool().run(task), ...overrides });
  return {
    app,
    request: supertest(app.callback()),
    logText: () => chunks.join(''),
    logs: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(join(packageRoot, 'test', 'fixtures', name), 'utf8')) as T;
}
