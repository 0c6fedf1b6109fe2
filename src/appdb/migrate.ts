// Runs pending migrations at start-up. Kysely's Migrator takes a lock first (an advisory lock on PostgreSQL,
// GET_LOCK on MySQL), so two instances starting together on one app DB apply each migration exactly once.

import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { AppDb } from './connect.js';
import { migrations } from './migrations/index.js';

class InCodeMigrationProvider implements MigrationProvider {
  constructor(private readonly appDb: AppDb) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, migration] of Object.entries(migrations)) {
      out[name] = { up: (db) => migration.up(db, this.appDb.dialect) };
    }
    return out;
  }
}

export async function migrateToLatest(appDb: AppDb): Promise<string[]> {
  const migrator = new Migrator({
    db: appDb.db,
    provider: new InCodeMigrationProvider(appDb),
    migrationTableName: 'quarry_migration',
    migrationLockTableName: 'quarry_migration_lock',
    // Areas add migrations in their own number ranges; a later-numbered one may already have run.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
