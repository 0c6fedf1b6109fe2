// Native query snippets (reusable SQL fragments) and timelines with their events.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  const text = longText(dialect);
  await withId(db.schema.createTable('native_query_snippet'), dialect)
    .addColumn('entity_id', 'varchar(21)', (c) => c.notNull())
    .addColumn('name', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('description', text)
    .addColumn('content', text, (c) => c.notNull())
    .addColumn('collection_id', 'integer', (c) => c.references('collection.id').onDelete('set null'))
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('core_user.id'))
    .addColumn('archived', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('timeline'), dialect)
    .addColumn('entity_id', 'varchar(21)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', text)
    .addColumn('icon', 'varchar(128)', (c) => c.notNull().defaultTo('star'))
    .addColumn('collection_id', 'integer', (c) => c.references('collection.id').onDelete('cascade'))
    .addColumn('default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('archived', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('core_user.id'))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_timeline_collection').on('timeline').column('collection_id').execute();

  await withId(db.schema.createTable('timeline_event'), dialect)
    .addColumn('timeline_id', 'integer', (c) => c.notNull().references('timeline.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', text)
    .addColumn('timestamp', TS, (c) => c.notNull())
    .addColumn('time_matters', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('timezone', 'varchar(255)', (c) => c.notNull())
    .addColumn('icon', 'varchar(128)', (c) => c.notNull())
    .addColumn('archived', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('core_user.id'))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_timeline_event_timeline').on('timeline_event').columns(['timeline_id', 'timestamp']).execute();
}
