// Model persistence (src/persistence): one row per model whose results are (to be) kept as a table in its own
// database — Metabase's `persisted_info`, with its states (creating, persisted, refreshing, error, off, deletable).

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  await withId(db.schema.createTable('persisted_info'), dialect)
    .addColumn('database_id', 'integer', (c) => c.notNull().references('metabase_database.id').onDelete('cascade'))
    // null once the card is deleted: its table is then dropped by the next prune
    .addColumn('card_id', 'integer', (c) => c.unique().references('report_card.id').onDelete('set null'))
    .addColumn('question_slug', 'varchar(254)', (c) => c.notNull())
    .addColumn('table_name', 'varchar(254)', (c) => c.notNull())
    // {"table-name", "field-definitions": [{"field-name", "base-type"}]} (JSON)
    .addColumn('definition', longText(dialect))
    // the hash of the card's dataset_query the table was built from
    .addColumn('query_hash', 'varchar(64)')
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('state', 'varchar(32)', (c) => c.notNull())
    .addColumn('refresh_begin', TS, (c) => c.notNull())
    .addColumn('refresh_end', TS)
    .addColumn('state_change_at', TS)
    .addColumn('error', longText(dialect))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('creator_id', 'integer', (c) => c.references('core_user.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('idx_persisted_info_database').on('persisted_info').columns(['database_id', 'state']).execute();
}
