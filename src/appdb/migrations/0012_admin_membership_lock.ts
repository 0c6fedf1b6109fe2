// The lock that serializes changes to who is an active admin (src/users/memberships.ts), so two requests can't each
// remove one of the last two admins. MySQL/MariaDB take it as a locking read of this row (../locks.ts).

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';

export async function up(db: Kysely<any>, _dialect: AppDbDialect): Promise<void> {
  await db.insertInto('app_lock').values({ lock_name: 'admin-membership' }).execute();
}
