// Leases that let one instance of a cluster claim a background job.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';

export async function up(db: Kysely<any>, _dialect: AppDbDialect): Promise<void> {
  await db.schema
    .createTable('task_lease')
    .addColumn('lease_key', 'varchar(254)', (c) => c.primaryKey())
    .addColumn('owner', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
