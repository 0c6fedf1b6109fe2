// The history of cards (and, later, dashboards): one row per saved state, with who made it and why.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  await withId(db.schema.createTable('revision'), dialect)
    // 'Card' | 'Dashboard' | … (Metabase's model names)
    .addColumn('model', 'varchar(16)', (c) => c.notNull())
    .addColumn('model_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('core_user.id'))
    .addColumn('timestamp', TS, (c) => c.notNull())
    .addColumn('object', longText(dialect), (c) => c.notNull())
    .addColumn('is_reversion', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_creation', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('message', longText(dialect))
    .addColumn('most_recent', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('metabase_version', 'varchar(100)')
    .execute();
  await db.schema.createIndex('idx_revision_model').on('revision').columns(['model', 'model_id', 'id']).execute();
  await db.schema.createIndex('idx_revision_most_recent').on('revision').columns(['model', 'most_recent', 'model_id']).execute();
}
