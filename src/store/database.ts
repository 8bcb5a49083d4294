// Opens the configured database through Kysely: SQLite (the embedded default, a file created
// with its folder) or PostgreSQL (for several instances behind a load balancer), and runs the
// versioned migrations at start, idempotently, on both.
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import pg from 'pg';
import { migrations } from './migrations.js';
import type { Schema } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface StoreDatabase {
  db: Kysely<Schema>;
  dialect: DialectName;
  close(): Promise<void>;
}

export function openDatabase(url: string): StoreDatabase {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    const path = file === ':memory:' ? file : resolve(file);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const sqlite = new Database(path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // An idle connection the server drops (a restart, a failover) is reported here; without a
  // listener it would crash the process. The pool replaces it; the next query that cannot
  // connect fails and is answered as such.
  pool.on('error', () => {});
  // A connection lost while checked out (a query under way when the server goes away) also
  // emits 'error' on the client: without a listener that would crash the process. The query
  // fails and is answered as such (503 on the API; workers retry).
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/** Brings the schema up to date; safe to run from several instances at once. */
export async function migrate(store: StoreDatabase): Promise<void> {
  const provider: MigrationProvider = { getMigrations: (): Promise<Record<string, Migration>> => Promise.resolve(migrations(store.dialect)) };
  const { error, results } = await new Migrator({ db: store.db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error | undefined)?.message ?? 'unknown error'}`);
}
