// Installing the Sample Database: the SQLite file in the data directory (generated when missing, in about a second),
// the `is_sample` database row pointing at it (opened read-only), and its sync. Used at start-up on a new install
// and by POST /api/database/sample_database (admin, idempotent: re-points the existing row). Looking for the row and
// creating it run in one transaction under the `sample-database` lock, so instances starting together on a fresh
// app DB (or two restores at once) register it once.

import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../context.js';
import { defineSetting } from '../settings/definition.js';
import { insertReturningId, nowIso, type Db } from '../appdb/portable.js';
import { lockForTransaction } from '../appdb/locks.js';
import { newEntityId } from '../util/entity-id.js';
import { hasUserSetup } from '../users/setup-state.js';
import type { DatabaseRow } from '../databases/database-row.js';
import { readDetails, writeDetails } from '../databases/details.js';
import { closeConnection, loadDatabaseRow } from '../databases/connections.js';
import { runSync } from '../sync/runner.js';
import { grantNewDatabasePermissions } from '../permissions/data-store.js';
import { writeSqliteSample } from './load.js';
import { generateSample, SAMPLE_SEED } from './generate.js';
import { releaseMemory } from '../util/release-memory.js';
import { CALLER_TTL_MS } from '../http/auth.js';
import { PerContextCache } from '../http/short-cache.js';
import { SAMPLE_CAVEATS, SAMPLE_DESCRIPTION, SAMPLE_POINTS_OF_INTEREST, applySampleMetadata } from './metadata.js';
import { seedSampleIds } from './ids.js';

export const SAMPLE_FILE_NAME = 'sample-database.sqlite';
export const SAMPLE_NAME = 'Sample Database';

defineSetting({
  key: 'has-sample-database?',
  type: 'boolean',
  visibility: 'authenticated',
  description: 'Whether this instance has a Sample Database database',
  readOnly: true,
  // Every GET /api/session/properties reads it: kept as long as a caller is, cleared when this instance adds the
  // sample or deletes a database (another instance's change shows within that second).
  getter: (ctx) => sampleFacts.of(ctx).get('exists', async () => Boolean(await findSampleDatabase(ctx))),
});

const sampleFacts = new PerContextCache<boolean>(CALLER_TTL_MS);

/** Whether a Sample Database exists may have changed (a database was added or deleted on this instance). */
export function forgetSampleDatabaseFacts(): void {
  sampleFacts.clearAll();
}

export function sampleFilePath(ctx: AppContext): string {
  return join(ctx.config.dataDir, SAMPLE_FILE_NAME);
}

/** Writes the sample file if it is missing (to a temporary name first, so a crash never leaves half a file). */
export function ensureSampleFile(ctx: AppContext): string {
  const file = sampleFilePath(ctx);
  if (existsSync(file)) return file;
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    // Not the generator's cache: the server never needs the rows again, and keeping them held ~50 MB for good.
    writeSqliteSample(temporary, generateSample(SAMPLE_SEED, { cache: false }));
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
  return file;
}

export async function findSampleDatabase(ctx: AppContext, db: Db = ctx.db): Promise<DatabaseRow | undefined> {
  return db.selectFrom('metabase_database').selectAll().where('is_sample', '=', true).orderBy('id').executeTakeFirst();
}

/**
 * The file is named relative to the data directory, so every instance of a cluster (each with its own copy of the
 * file, generated at start-up when missing) reads the same details.
 */
function sampleDetails() {
  return { db: SAMPLE_FILE_NAME, 'read-only': true };
}

/**
 * Creates the sample database row (with its default permissions), or points the existing one at the (possibly
 * regenerated) file — in one transaction under the `sample-database` lock: whoever comes second finds the first's
 * row. `created` tells the one caller that made it.
 */
async function registerSample(ctx: AppContext): Promise<{ id: number; created: boolean }> {
  const details = writeDetails(ctx, sampleDetails());
  const result = await ctx.db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, ctx.dialect, 'sample-database');
    const now = nowIso();
    const existing = await findSampleDatabase(ctx, trx);
    if (existing) {
      let current: unknown = null;
      try {
        current = readDetails(ctx, existing.details).db;
      } catch {
        current = null;
      }
      if (existing.engine === 'sqlite' && current === SAMPLE_FILE_NAME) return { id: existing.id, created: false, repointed: false };
      await trx.updateTable('metabase_database').set({ engine: 'sqlite', details, updated_at: now }).where('id', '=', existing.id).execute();
      return { id: existing.id, created: false, repointed: true };
    }
    const minute = Math.floor(Math.random() * 60);
    const id = await insertReturningId(trx, ctx.dialect, 'metabase_database', {
      entity_id: newEntityId(),
      name: SAMPLE_NAME,
      description: SAMPLE_DESCRIPTION,
      engine: 'sqlite',
      details,
      is_sample: true,
      is_full_sync: true,
      is_on_demand: false,
      is_audit: false,
      auto_run_queries: true,
      refingerprint: null,
      cache_ttl: null,
      metadata_sync_schedule: `0 ${minute} * * * ? *`,
      cache_field_values_schedule: `0 ${minute} 0 * * ? *`,
      timezone: 'UTC',
      dbms_version: null,
      initial_sync_status: 'incomplete',
      settings: null,
      caveats: SAMPLE_CAVEATS,
      points_of_interest: SAMPLE_POINTS_OF_INTEREST,
      creator_id: null,
      uploads_enabled: false,
      uploads_schema_name: null,
      uploads_table_prefix: null,
      created_at: now,
      updated_at: now,
    });
    await grantNewDatabasePermissions(ctx, id, trx);
    return { id, created: true, repointed: false };
  });
  if (result.repointed) await closeConnection(ctx, result.id);
  if (result.created) forgetSampleDatabaseFacts();
  return { id: result.id, created: result.created };
}

async function syncSample(ctx: AppContext, id: number): Promise<void> {
  await seedSampleIds(ctx, id).catch((error) => ctx.log.warn({ err: error }, 'seeding the sample database ids failed'));
  await runSync(ctx, id, 'full');
  await applySampleMetadata(ctx, id);
}

/**
 * POST /api/database/sample_database: (re)creates the file if needed, registers or re-points the database and
 * syncs it before answering.
 */
export async function restoreSampleDatabase(ctx: AppContext): Promise<DatabaseRow> {
  ensureSampleFile(ctx);
  const { id } = await registerSample(ctx);
  await syncSample(ctx, id);
  return (await loadDatabaseRow(ctx, id))!;
}

/**
 * At start-up: on a new install (no user yet, no sample yet) install the sample database and sync it in the
 * background; on later starts only re-point an existing sample database at this data directory's file.
 * Failures are logged, never fatal.
 */
export async function loadSampleAtStartup(ctx: AppContext): Promise<void> {
  try {
    const existing = await findSampleDatabase(ctx);
    if (existing) {
      ensureSampleFile(ctx);
      await registerSample(ctx);
      return;
    }
    if (!ctx.config.loadSampleContent || (await hasUserSetup(ctx))) return;
    ensureSampleFile(ctx);
    const { id, created } = await registerSample(ctx);
    // Another instance starting at the same time may have registered it first; that one syncs it.
    if (created) {
      syncSample(ctx, id)
        .catch((error) => ctx.log.warn({ err: error }, 'syncing the sample database failed'))
        .finally(releaseMemory); // the generation's and the sync's garbage (~50 MB), else held while idle
    }
  } catch (error) {
    ctx.log.warn({ err: error }, 'installing the sample database failed');
  }
}
