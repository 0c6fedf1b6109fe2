// Actions (spec §4.1): parameterized writes attached to a model — query (SQL with template tags), implicit (insert,
// update or delete a row of the model's table) and HTTP. One table; the columns of the other types stay null.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  const text = longText(dialect);
  await withId(db.schema.createTable('action'), dialect)
    .addColumn('entity_id', 'varchar(21)', (c) => c.notNull())
    .addColumn('name', 'varchar(254)', (c) => c.notNull())
    .addColumn('description', text)
    // 'query' | 'implicit' | 'http'
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('model_id', 'integer', (c) => c.notNull().references('report_card.id').onDelete('cascade'))
    // query actions: the database their SQL runs on, and the native dataset_query (JSON)
    .addColumn('database_id', 'integer', (c) => c.references('metabase_database.id').onDelete('cascade'))
    .addColumn('dataset_query', text)
    // implicit actions: row/create | row/update | row/delete | bulk/create | bulk/update | bulk/delete
    .addColumn('kind', 'varchar(32)')
    // http actions: the request template (JSON) and json-query handles
    .addColumn('template', text)
    .addColumn('response_handle', text)
    .addColumn('error_handle', text)
    .addColumn('parameters', text)
    .addColumn('parameter_mappings', text)
    .addColumn('visualization_settings', text)
    .addColumn('archived', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('public_uuid', 'varchar(36)', (c) => c.unique())
    .addColumn('made_public_by_id', 'integer', (c) => c.references('core_user.id').onDelete('set null'))
    .addColumn('creator_id', 'integer', (c) => c.references('core_user.id').onDelete('set null'))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_action_model').on('action').column('model_id').execute();
}
