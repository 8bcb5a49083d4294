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
  };
}
