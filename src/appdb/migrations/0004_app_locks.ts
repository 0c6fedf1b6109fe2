// Rows that transactions lock to run one at a time where they read and then write one shared thing (a permissions
// graph's revision): MySQL/MariaDB has no transaction-scoped advisory lock, so a locking read of one of these rows
// stands in for it (see ../locks.ts). One row per lock; a new lock adds its row in a migration.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';

export async function up(db: Kysely<any>, _dialect: AppDbDialect): Promise<void> {
  await db.schema.createTable('app_lock').addColumn('lock_name', 'varchar(64)', (c) => c.primaryKey()).execute();
  await db.insertInto('app_lock').values([{ lock_name: 'data-permission-graph' }, { lock_name: 'collection-permission-graph' }]).execute();
}
