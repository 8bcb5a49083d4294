// The repository for keys, quotas and usage history: the only code that talks to the
// database. Every instance sharing the database sees the same state; nothing another
// instance would need is kept in memory. Quota counting is one conditional upsert, so N
// concurrent requests against a quota of Q let exactly min(N, Q) through.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { migrate, openDatabase, type StoreDatabase } from './database.js';
import type { Schema } from './schema.js';

export interface KeyRecord {
  userId: string;
  name: string;
  description: string;
  nonce: string;
  quota: number;
  createdAt: string;
  revokedAt: string | null;
}

/** One recorded call: a usage_history row without its key columns. */
export type HistoryEntry = Omit<Schema['usage_history'], 'id' | 'user_id'>;

export type DatabaseHealth = 'ok' | 'read-only' | 'unreachable';

/** SQLite's SQLITE_READONLY* codes; PostgreSQL's 25006 read_only_sql_transaction. */
function isReadOnlyError(e: unknown): boolean {
  const raw = (e as { code?: unknown }).code;
  // Drivers give the code as a string (a number is read as its digits); nothing else is a code.
  const code = typeof raw === 'string' ? raw : typeof raw === 'number' ? `${raw}` : '';
  return code.startsWith('SQLITE_READONLY') || code === '25006' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_PERM';
}

export class KeyStore {
  private constructor(private readonly store: StoreDatabase) {}

  static async open(url: string): Promise<KeyStore> {
    const store = openDatabase(url);
    try {
      await migrate(store);
      await new KeyStore(store).assertWritable();
    } catch (e) {
      await store.close();
      throw e;
    }
    return new KeyStore(store);
  }

  get dialect(): StoreDatabase['dialect'] {
    return this.store.dialect;
  }

  /** The database, for the other stores sharing it (the jobs). */
  get database(): StoreDatabase {
    return this.store;
  }

  close(): Promise<void> {
    return this.store.close();
  }

  /**
   * Can the service do its work, which needs writes (quota, history)? One small upsert tells
   * apart a database that answers and takes writes, one that answers read-only (a read-only
   * file, a replica, default_transaction_read_only), and one that does not answer.
   */
  async ping(now: Date = new Date()): Promise<DatabaseHealth> {
    try {
      await this.writeHeartbeat(now);
      return 'ok';
    } catch (e) {
      return isReadOnlyError(e) ? 'read-only' : 'unreachable';
    }
  }

  /** Throws a clear error when the database cannot be written (checked at start). */
  async assertWritable(): Promise<void> {
    try {
      await this.writeHeartbeat(new Date());
    } catch (e) {
      const why = isReadOnlyError(e) ? 'it is read-only' : 'a write failed';
      throw new Error(
        `The database cannot be written (${why}: ${(e as Error).message}). Keys, quotas and usage history need a writable database: check the file's permissions or the server's read-only setting.`,
        { cause: e },
      );
    }
  }

  private async writeHeartbeat(now: Date): Promise<void> {
    const value = now.toISOString();
    await this.store.db
      .insertInto('settings')
      .values({ key: 'heartbeat', value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  /**
   * Deletes usage history older than `days` and, per key, all but its newest `maxPerKey` rows.
   * Returns the rows deleted. Safe to run from several instances at once.
   */
  async pruneHistory(now: Date, days: number, maxPerKey: number): Promise<number> {
    const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
    const byAge = await this.store.db.deleteFrom('usage_history').where('timestamp', '<', cutoff).executeTakeFirst();
    let deleted = Number(byAge.numDeletedRows);
    const heavy = await this.store.db
      .selectFrom('usage_history')
      .select(['user_id', (eb) => eb.fn.countAll<number>().as('rows')])
      .groupBy('user_id')
      .having((eb) => eb.fn.countAll(), '>', maxPerKey)
      .execute();
    for (const { user_id: userId } of heavy) {
      const edge = await this.store.db
        .selectFrom('usage_history')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .offset(maxPerKey)
        .limit(1)
        .executeTakeFirst();
      if (!edge) continue;
      const r = await this.store.db.deleteFrom('usage_history').where('user_id', '=', userId).where('id', '<=', edge.id).executeTakeFirst();
      deleted += Number(r.numDeletedRows);
    }
    return deleted;
  }

  /** The service secret kept in the database: generated once; every instance reads the same. */
  async sharedSecret(): Promise<string> {
    const db = this.store.db;
    await db
      .insertInto('settings')
      .values({ key: 'hmac_secret', value: randomBytes(48).toString('base64url') })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const row = await db.selectFrom('settings').select('value').where('key', '=', 'hmac_secret').executeTakeFirstOrThrow();
    return row.value;
  }

  /** Issues (or re-issues) the key of a user: a fresh nonce invalidates any earlier key. */
  async issue(userId: string, name: string, description: string, quota: number, now: Date): Promise<KeyRecord> {
    const record = { user_id: userId, name, description, nonce: randomBytes(24).toString('base64url'), quota, created_at: now.toISOString(), revoked_at: null };
    await this.store.db
      .insertInto('api_keys')
      .values(record)
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ name, description, nonce: record.nonce, quota, created_at: record.created_at, revoked_at: null }))
      .execute();
    return toRecord(record);
  }

  async revoke(userId: string, now: Date): Promise<boolean> {
    const r = await this.store.db
      .updateTable('api_keys')
      .set({ revoked_at: now.toISOString() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async setQuota(userId: string, quota: number): Promise<boolean> {
    const r = await this.store.db.updateTable('api_keys').set({ quota }).where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async find(userId: string): Promise<KeyRecord | undefined> {
    const row = await this.store.db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async list(): Promise<KeyRecord[]> {
    const rows = await this.store.db.selectFrom('api_keys').selectAll().orderBy('user_id').execute();
    return rows.map(toRecord);
  }

  /**
   * Counts one request in the period if the count is under the quota, atomically (one
   * conditional upsert). Returns the count after it, or undefined when the quota is used up.
   */
  async consume(userId: string, period: string, quota: number): Promise<number | undefined> {
    if (quota <= 0) return undefined;
    const row = await this.store.db
      .insertInto('usage_counters')
      .values({ user_id: userId, period, count: 1 })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'period'])
          .doUpdateSet({ count: sql<number>`usage_counters.count + 1` })
          .where(sql<boolean>`usage_counters.count < ${quota}`),
      )
      .returning('count')
      .executeTakeFirst();
    return row?.count;
  }

  async count(userId: string, period: string): Promise<number> {
    const row = await this.store.db.selectFrom('usage_counters').select('count').where('user_id', '=', userId).where('period', '=', period).executeTakeFirst();
    return row ? row.count : 0;
  }

  async record(userId: string, entry: HistoryEntry): Promise<void> {
    await this.store.db
      .insertInto('usage_history')
      .values({ user_id: userId, ...entry })
      .execute();
  }

  async history(userId: string, limit: number): Promise<HistoryEntry[]> {
    return await this.store.db
      .selectFrom('usage_history')
      .select(['timestamp', 'method', 'endpoint', 'status', 'duration_ms', 'request_id'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}

function toRecord(row: Schema['api_keys']): KeyRecord {
  return {
    userId: row.user_id,
    name: row.name,
    description: row.description,
    nonce: row.nonce,
    quota: row.quota,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}
