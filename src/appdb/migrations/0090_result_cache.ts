// The result cache (src/cache): cache policies per root/database/dashboard/question (Metabase's `cache_config`) and
// the stored results (`query_cache`, one compressed entry per cache key), shared by every instance.

import { sql, type Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

/** Binary large objects: BLOB on SQLite, BYTEA on PostgreSQL, LONGBLOB on MySQL (BLOB stops at 64 KB there). */
function blob(dialect: AppDbDialect) {
  return dialect === 'postgres' ? sql`bytea` : dialect === 'mysql' ? sql`longblob` : sql`blob`;
}

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  await withId(db.schema.createTable('cache_config'), dialect)
    // 'root' (model_id 0) | 'database' | 'dashboard' | 'question'
    .addColumn('model', 'varchar(32)', (c) => c.notNull())
    .addColumn('model_id', 'integer', (c) => c.notNull())
    // 'nocache' | 'ttl' | 'duration' | 'schedule'
    .addColumn('strategy', 'varchar(32)', (c) => c.notNull())
    // the strategy's other keys (JSON)
    .addColumn('config', longText(dialect), (c) => c.notNull())
    .addColumn('refresh_automatically', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('invalidated_at', TS)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addUniqueConstraint('uq_cache_config_model', ['model', 'model_id'])
    .execute();

  await db.schema
    .createTable('query_cache')
    .addColumn('query_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('results', blob(dialect), (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('database_id', 'integer')
    .addColumn('card_id', 'integer')
    .addColumn('dashboard_id', 'integer')
    // the policy the entry was stored under (null: the default root policy or a legacy cache_ttl)
    .addColumn('config_id', 'integer')
    // how to run it again (JSON) for `refresh_automatically`; null for downloads
    .addColumn('refresh', longText(dialect))
    .execute();
  await db.schema.createIndex('idx_query_cache_updated').on('query_cache').column('updated_at').execute();
  await db.schema.createIndex('idx_query_cache_card').on('query_cache').columns(['card_id', 'updated_at']).execute();
}
