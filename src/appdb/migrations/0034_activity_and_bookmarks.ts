// What users looked at and picked (recents, popular items) and what they bookmarked.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  // One row per (user, model, model_id, context), moved forward on each new view or selection.
  await withId(db.schema.createTable('recent_views'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('core_user.id').onDelete('cascade'))
    .addColumn('model', 'varchar(32)', (c) => c.notNull())
    .addColumn('model_id', 'integer', (c) => c.notNull())
    // 'view' | 'selection'
    .addColumn('context', 'varchar(16)', (c) => c.notNull().defaultTo('view'))
    .addColumn('timestamp', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_recent_views_user').on('recent_views').columns(['user_id', 'timestamp']).execute();

  // Every view, for popularity.
  await withId(db.schema.createTable('view_log'), dialect)
    .addColumn('user_id', 'integer', (c) => c.references('core_user.id').onDelete('cascade'))
    .addColumn('model', 'varchar(32)', (c) => c.notNull())
    .addColumn('model_id', 'integer', (c) => c.notNull())
    .addColumn('timestamp', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_view_log_model').on('view_log').columns(['model', 'model_id']).execute();
  await db.schema.createIndex('idx_view_log_user').on('view_log').columns(['user_id', 'timestamp']).execute();

  await withId(db.schema.createTable('bookmark'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('core_user.id').onDelete('cascade'))
    // 'card' | 'dashboard' | 'collection' | 'snippet'
    .addColumn('model', 'varchar(32)', (c) => c.notNull())
    .addColumn('model_id', 'integer', (c) => c.notNull())
    .addColumn('ordering', 'integer')
    .addColumn('created_at', TS, (c) => c.notNull())
    .addUniqueConstraint('uq_bookmark_user_item', ['user_id', 'model', 'model_id'])
    .execute();
}
