// The user key-value store (/api/user-key-value, Metabase 0.51+): small JSON values a user's client keeps on the
// server, per namespace and key, optionally expiring. Owned by src/users (key-value.ts).
// Area range 0105–0109 (endpoints newer Metabase versions added).

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  await withId(db.schema.createTable('user_key_value'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('core_user.id').onDelete('cascade'))
    .addColumn('namespace', 'varchar(254)', (c) => c.notNull())
    .addColumn('key', 'varchar(254)', (c) => c.notNull())
    .addColumn('value', longText(dialect), (c) => c.notNull())
    .addColumn('expires_at', TS)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_user_key_value_unique').on('user_key_value').columns(['user_id', 'namespace', 'key']).unique().execute();
}
