// Data permissions (src/permissions): what each group may do with each database, schema and table — view-data,
// create-queries, download, data-model, details — and the revisions of that graph. Databases that exist when this
// runs keep what every group had before data permissions existed (Metabase's fresh-install default): unrestricted
// view, query builder and native, full downloads. Administrators have everything and need no rows.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { withId, longText, TS } from '../portable.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  await withId(db.schema.createTable('data_permission'), dialect)
    .addColumn('group_id', 'integer', (c) => c.notNull().references('permissions_group.id').onDelete('cascade'))
    .addColumn('db_id', 'integer', (c) => c.notNull().references('metabase_database.id').onDelete('cascade'))
    // 'view-data' | 'create-queries' | 'download' | 'data-model' | 'details'
    .addColumn('perm_type', 'varchar(32)', (c) => c.notNull())
    // table-level rows name their table and its schema ('' for schemaless databases); database-level rows neither
    .addColumn('schema_name', 'varchar(254)')
    .addColumn('table_id', 'integer')
    .addColumn('perm_value', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_data_permission_group').on('data_permission').columns(['group_id', 'db_id']).execute();
  await db.schema.createIndex('idx_data_permission_db').on('data_permission').column('db_id').execute();

  await withId(db.schema.createTable('data_permission_graph_revision'), dialect)
    .addColumn('before', longText(dialect))
    .addColumn('after', longText(dialect))
    .addColumn('user_id', 'integer', (c) => c.references('core_user.id').onDelete('set null'))
    .addColumn('remark', longText(dialect))
    .addColumn('created_at', TS, (c) => c.notNull())
    .execute();

  const groups = await db.selectFrom('permissions_group').select('id').where('id', '!=', 2).execute();
  const databases = await db.selectFrom('metabase_database').select('id').execute();
  const rows = groups.flatMap((g: { id: number }) =>
    databases.flatMap((d: { id: number }) =>
      [
        ['view-data', 'unrestricted'],
        ['create-queries', 'query-builder-and-native'],
        ['download', 'full'],
      ].map(([perm_type, perm_value]) => ({ group_id: g.id, db_id: d.id, perm_type, schema_name: null, table_id: null, perm_value })),
    ),
  );
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('data_permission').values(rows.slice(i, i + 500)).execute();
}
