// Every app-DB migration, in order. Add a file `NNNN_name.ts` exporting `up(db, dialect)` and list it here.
import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_task_lease.js';
import * as m0003 from './0003_databases.js';

export interface AppMigration {
  up(db: Kysely<any>, dialect: AppDbDialect): Promise<void>;
}

export const migrations: Record<string, AppMigration> = {
  '0001_foundation': m0001,
  '0002_task_lease': m0002,
  '0003_databases': m0003,
};
