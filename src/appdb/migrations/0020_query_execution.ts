// The query engine's execution log (src/query/executions): hash, timing, rows, error and who/what ran it.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  await withId(db.schema.createTable('query_execution'), dialect)
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('started_at', TS, (c) => c.notNull())
    .addColumn('running_time', 'integer', (c) => c.notNull())
    .addColumn('result_rows', 'integer', (c) => c.notNull())
    .addColumn('native', 'boolean', (c) => c.notNull())
    .addColumn('context', 'varchar(64)')
    .addColumn('error', longText(dialect))
    .addColumn('executor_id', 'integer')
    .addColumn('card_id', 'integer')
    .addColumn('dashboard_id', 'integer')
    .addColumn('pulse_id', 'integer')
    .addColumn('action_id', 'integer')
    .addColumn('database_id', 'integer')
    .addColumn('cache_hit', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_sandboxed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('parameterized', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('embedding_client', 'varchar(254)')
    .addColumn('embedding_version', 'varchar(254)')
    .execute();
  await db.schema.createIndex('idx_query_execution_card').on('query_execution').columns(['card_id', 'started_at']).execute();
  await db.schema.createIndex('idx_query_execution_hash').on('query_execution').columns(['hash', 'started_at']).execute();
  await db.schema.createIndex('idx_query_execution_executor').on('query_execution').columns(['executor_id', 'started_at']).execute();
  await db.schema.createIndex('idx_query_execution_started').on('query_execution').columns(['started_at']).execute();
}
