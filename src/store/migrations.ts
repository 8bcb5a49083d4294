// Versioned schema migrations, in order. Never edit one that has shipped: add the next.
import type { Kysely, Migration } from 'kysely';
import type { DialectName } from './database.js';

export function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '0001_keys_quota_usage': {
      async up(db: Kysely<unknown>): Promise<void> {
        await db.schema
          .createTable('settings')
          .ifNotExists()
          .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('api_keys')
          .ifNotExists()
          .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull())
          .addColumn('nonce', 'varchar(64)', (c) => c.notNull())
          .addColumn('quota', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
          .addColumn('revoked_at', 'varchar(32)')
          .execute();
        await db.schema
          .createTable('usage_counters')
          .ifNotExists()
          .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('period', 'varchar(10)', (c) => c.notNull())
          .addColumn('count', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('usage_counters_pk', ['user_id', 'period'])
          .execute();
        await db.schema
          .createTable('usage_history')
          .ifNotExists()
          .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
          .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('timestamp', 'varchar(32)', (c) => c.notNull())
          .addColumn('method', 'varchar(16)', (c) => c.notNull())
          .addColumn('endpoint', 'text', (c) => c.notNull())
          .addColumn('status', 'integer', (c) => c.notNull())
          .addColumn('duration_ms', 'double precision', (c) => c.notNull())
          .addColumn('request_id', 'varchar(128)', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('usage_history_user_time').ifNotExists().on('usage_history').columns(['user_id', 'id']).execute();
      },
    },
    '0002_usage_history_time': {
      // Pruning deletes by age: an index on the timestamp keeps that a range delete.
      async up(db: Kysely<unknown>): Promise<void> {
        await db.schema.createIndex('usage_history_time').ifNotExists().on('usage_history').column('timestamp').execute();
      },
    },
    '0003_jobs': {
      // Background jobs (CONTRACT.md section 12): the record of each job, whichever queue
      // dispatches it (pg-boss on PostgreSQL, the in-process queue on SQLite). The input is kept
      // as the bytes that were sent, so a worker prepares exactly what the API validated.
      async up(db: Kysely<unknown>): Promise<void> {
        const bytes = dialect === 'postgres' ? 'bytea' : 'blob';
        await db.schema
          .createTable('jobs')
          .ifNotExists()
          .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
          .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('status', 'varchar(16)', (c) => c.notNull())
          .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
          .addColumn('started_at', 'varchar(32)')
          .addColumn('finished_at', 'varchar(32)')
          .addColumn('heartbeat_at', 'varchar(32)')
          .addColumn('kind', 'varchar(8)', (c) => c.notNull())
          .addColumn('input', bytes, (c) => c.notNull())
          .addColumn('input2', bytes)
          .addColumn('fields', 'text', (c) => c.notNull())
          .addColumn('options', 'text', (c) => c.notNull())
          .addColumn('callback_url', 'text')
          .addColumn('demanded_slots', 'integer', (c) => c.notNull())
          .addColumn('run', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('crashes', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('worker', 'varchar(128)')
          .addColumn('queue_id', 'varchar(64)')
          .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('progress', 'text')
          .addColumn('result', 'text')
          .addColumn('error', 'text')
          .execute();
        await db.schema.createIndex('jobs_user_created').ifNotExists().on('jobs').columns(['user_id', 'created_at']).execute();
        await db.schema.createIndex('jobs_status').ifNotExists().on('jobs').columns(['status', 'heartbeat_at']).execute();
        await db.schema.createIndex('jobs_finished').ifNotExists().on('jobs').column('finished_at').execute();
      },
    },
  };
}
