// The lock that serializes installing the Sample Database (src/sample/sample-database.ts), so instances starting
// together on a fresh app DB register it once. MySQL/MariaDB take it as a locking read of this row (../locks.ts).

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';

export async function up(db: Kysely<any>, _dialect: AppDbDialect): Promise<void> {
  await db.insertInto('app_lock').values({ lock_name: 'sample-database' }).execute();
}
