// Transaction-scoped locks: a transaction that reads something and writes according to it (a graph's revision
// number; whether the Sample Database exists yet; how many active admins are left) takes one first, so two such transactions on different instances
// run one after the other instead of both acting on what they read before the other's commit. Held until the
// transaction ends.
//   PostgreSQL: pg_advisory_xact_lock; MySQL/MariaDB: a locking read of the lock's row in `app_lock`;
//   SQLite: nothing — its write transactions already run one at a time.

import { sql } from 'kysely';
import type { AppDbDialect } from './connect.js';
import type { Db } from './portable.js';

/** Every lock, with its PostgreSQL advisory key (the MySQL rows are created by migrations 0004, 0011 and 0012). */
const LOCKS = {
  'data-permission-graph': 770050,
  'collection-permission-graph': 770031,
  'sample-database': 770011,
  // who is an active admin (src/users/memberships.ts)
  'admin-membership': 0x41444d4e,
} as const;

export type LockName = keyof typeof LOCKS;

/** Call inside the transaction, before its first read of what the lock protects. */
export async function lockForTransaction(db: Db, dialect: AppDbDialect, name: LockName): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${LOCKS[name]})`.execute(db);
  else if (dialect === 'mysql') await db.selectFrom('app_lock').select('lock_name').where('lock_name', '=', name).forUpdate().execute();
}
