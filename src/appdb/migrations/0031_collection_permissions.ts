// Collection permissions: which group may read or curate which collection (or the root of a namespace), and the
// revisions of that graph. A fresh install gives All Users curate access to the root collection (and to the root
// of snippet folders); admins always have everything and need no rows.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  await withId(db.schema.createTable('collection_permission'), dialect)
    .addColumn('group_id', 'integer', (c) => c.notNull().references('permissions_group.id').onDelete('cascade'))
    // null = the root collection of `namespace`
    .addColumn('collection_id', 'integer', (c) => c.references('collection.id').onDelete('cascade'))
    .addColumn('namespace', 'varchar(254)')
    // 'read' | 'write'
    .addColumn('perm', 'varchar(16)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_collection_permission_group').on('collection_permission').columns(['group_id', 'collection_id']).execute();
  await db.schema.createIndex('idx_collection_permission_collection').on('collection_permission').column('collection_id').execute();

  await withId(db.schema.createTable('collection_permission_graph_revision'), dialect)
    .addColumn('namespace', 'varchar(254)')
    .addColumn('before', longText(dialect))
    .addColumn('after', longText(dialect))
    .addColumn('user_id', 'integer', (c) => c.references('core_user.id').onDelete('set null'))
    .addColumn('remark', longText(dialect))
    .addColumn('created_at', TS, (c) => c.notNull())
    .execute();

  await db
    .insertInto('collection_permission')
    .values([
      { group_id: 1, collection_id: null, namespace: null, perm: 'write' },
      { group_id: 1, collection_id: null, namespace: 'snippets', perm: 'write' },
    ])
    .execute();
}
