// Real databases for storage tests: a SQLite file in a temp folder, or a PostgreSQL database
// created on the local server for the run and dropped after.
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

export async function sqliteDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'vs-store-'));
  return { name: 'sqlite', url: `sqlite:${join(dir, 'scheduler.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
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

export const DATABASES: Array<[string, () => Promise<TestDatabase>]> = [
  ['SQLite', sqliteDatabase],
  ['PostgreSQL', postgresDatabase],
];
