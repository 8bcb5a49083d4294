// Real databases for storage tests: a SQLite file in a temp folder, or a PostgreSQL database
// created on the local server for the run and dropped after. Suites that need PostgreSQL say
// `[postgres]` in their title and call `requirePostgres` first: when the server is unreachable
// they fail under CI=true (CI must not pass without them) and skip with a message otherwise.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  url: string;
  drop(): Promise<void>;
}

export function sqliteDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'vs-store-'));
  const drop = (): Promise<void> => {
    rmSync(dir, { recursive: true, force: true });
    return Promise.resolve();
  };
  return Promise.resolve({ name: 'sqlite', url: `sqlite:${join(dir, 'scheduler.db')}`, drop });
}

export async function postgresDatabase(): Promise<TestDatabase> {
  const db = `vs_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${db}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${db}`;
  return {
    name: 'postgres',
    url: url.toString(),
    drop: async () => {
      // A bounded retry, not a wait for some event: right after a test terminated the
      // database's connections, the admin connection or the drop itself can fail once.
      for (let attempt = 1; ; attempt++) {
        const c = new pg.Client({ connectionString: PG_ADMIN_URL });
        c.on('error', () => {});
        try {
          await c.connect();
          await c.query(`drop database if exists ${db} with (force)`);
          return;
        } catch (e) {
          if (attempt >= 5) throw e;
          await new Promise((r) => setTimeout(r, 200 * attempt));
        } finally {
          await c.end().catch(() => {});
        }
      }
    },
  };
}

let reachable: Promise<string | undefined> | undefined;
/** Undefined when the PostgreSQL server answers, else why it does not (checked once per run). */
function postgresUnreachable(): Promise<string | undefined> {
  reachable ??= (async () => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.query('select 1');
      return undefined;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    } finally {
      await c.end().catch(() => {});
    }
  })();
  return reachable;
}

/** For a `[postgres]` suite's first `before`: fails under CI=true, skips visibly otherwise. */
export async function requirePostgres(context: Mocha.Context): Promise<void> {
  const why = await postgresUnreachable();
  if (why === undefined) return;
  const where = new URL(PG_ADMIN_URL).host;
  if (process.env.CI === 'true') throw new Error(`PostgreSQL at ${where} is unreachable (${why}); CI=true requires it (set TEST_PG_ADMIN_URL).`);
  console.warn(`      [postgres] skipped: PostgreSQL at ${where} is unreachable (${why}); set TEST_PG_ADMIN_URL, or CI=true to make this a failure.`);
  context.skip();
}

/** The storage back ends every store suite runs on; `tag` goes in the suite's title. */
export const DATABASES: Array<{ label: string; tag: string; create: () => Promise<TestDatabase>; needsPostgres: boolean }> = [
  { label: 'SQLite', tag: '', create: sqliteDatabase, needsPostgres: false },
  { label: 'PostgreSQL', tag: ' [postgres]', create: postgresDatabase, needsPostgres: true },
];
