// Segments: named filters on a table (`/api/segment`), usable as `["segment", id]` in queries. Owned by src/segments.
// Area range 0070–0079 (segments and other data-model definitions).

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  const text = longText(dialect);
  await withId(db.schema.createTable('segment'), dialect)
    .addColumn('entity_id', 'varchar(21)', (c) => c.notNull())
    .addColumn('name', 'varchar(254)', (c) => c.notNull())
    .addColumn('description', text)
    .addColumn('table_id', 'integer', (c) => c.notNull().references('metabase_table.id').onDelete('cascade'))
    // Metabase's legacy segment definition: {"source-table": id, "filter": <MBQL filter>} as JSON
    .addColumn('definition', text, (c) => c.notNull())
    .addColumn('archived', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('caveats', text)
    .addColumn('points_of_interest', text)
    .addColumn('show_in_getting_started', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('core_user.id'))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_segment_table').on('segment').column('table_id').execute();
  await db.schema.createIndex('idx_segment_entity_id').on('segment').column('entity_id').unique().execute();
}
