// Model indexes (/api/model-index, Metabase 0.47+): a model's primary key and one text column indexed into the app
// DB, so that search finds the model's records by that text (`indexed-entity`). Owned by src/model-index.
// Area range 0105–0109 (endpoints newer Metabase versions added).

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  await withId(db.schema.createTable('model_index'), dialect)
    .addColumn('model_id', 'integer', (c) => c.notNull().references('report_card.id').onDelete('cascade'))
    // the field refs as JSON
    .addColumn('pk_ref', 'varchar(1024)', (c) => c.notNull())
    .addColumn('value_ref', 'varchar(1024)', (c) => c.notNull())
    // initial | indexed | overflow | error
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('error', longText(dialect))
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('core_user.id'))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('indexed_at', TS)
    .execute();
  await db.schema.createIndex('idx_model_index_model').on('model_index').column('model_id').execute();

  await withId(db.schema.createTable('model_index_value'), dialect)
    .addColumn('model_index_id', 'integer', (c) => c.notNull().references('model_index.id').onDelete('cascade'))
    .addColumn('model_pk', 'bigint', (c) => c.notNull())
    .addColumn('name', longText(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_model_index_value_pk').on('model_index_value').columns(['model_index_id', 'model_pk']).unique().execute();
}
