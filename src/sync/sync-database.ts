// One sync of one database: metadata (tables, fields, keys), then analysis (fingerprints, classification), then
// field values — or just one of those steps. It runs only while this instance holds the database's sync lease, so
// two instances never sync the same database at once. The first complete sync moves initial_sync_status from
// "incomplete" to "complete" (or "aborted" when it fails).

import type { AppContext } from '../context.js';
import { withLease } from '../tasks/lease.js';
import { recordTask, startTask } from '../tasks/history.js';
import { conflict } from '../http/errors.js';
import { connectionFor, loadDatabaseRow } from '../databases/connections.js';
import { bool, nowIso } from '../appdb/portable.js';
import { syncMetadata } from './sync-metadata.js';
import { analyzeDatabase } from './analyze.js';
import { scanFieldValues } from './field-values.js';
import { releaseMemory } from '../util/release-memory.js';

/**
 * full: everything (a new database, a restored sample); schema: metadata + analysis of every table (the
 * sync_schema button); metadata: the hourly schedule — metadata, plus analysis of tables with new fields (all
 * tables when the database asks to `refingerprint`); values: field values only; analyze: fingerprints only.
 * Analysis and values are skipped on schedule for databases that aren't "full sync".
 */
export type SyncKind = 'full' | 'schema' | 'metadata' | 'values' | 'analyze';

export type SyncOutcome = 'done' | 'busy' | 'missing' | 'failed';

const LEASE_TTL_MS = 2 * 60_000;

export function syncLeaseKey(databaseId: number): string {
  return `sync:database:${databaseId}`;
}

async function markInitialStatus(ctx: AppContext, databaseId: number, status: 'complete' | 'aborted'): Promise<void> {
  const marked = await ctx.db
    .updateTable('metabase_database')
    .set({ initial_sync_status: status, updated_at: nowIso() })
    .where('id', '=', databaseId)
    .where('initial_sync_status', '=', 'incomplete')
    .executeTakeFirst();
  if (status === 'complete') {
    await ctx.db.updateTable('metabase_table').set({ initial_sync_status: 'complete' }).where('db_id', '=', databaseId).where('initial_sync_status', '!=', 'complete').execute();
    // A first sync (fingerprints and field values of every table) leaves tens of megabytes of garbage behind.
    if (Number(marked.numUpdatedRows) > 0) releaseMemory();
  }
}

export const SYNC_BUSY_MESSAGE = 'This database is being synced by another Quarry instance; try again when the sync has finished.';

/**
 * Runs `job` under the database's sync lease, so it never overlaps a sync (or another such job) on any instance:
 * waits up to `waitMs` for the lease, then answers 409. Callers on this instance go through the runner's chain
 * (runner.ts `runExclusive`), which already keeps them apart from this instance's own syncs.
 */
export async function withSyncLease<T>(ctx: AppContext, databaseId: number, job: () => Promise<T>, options: { waitMs?: number; signal?: AbortSignal } = {}): Promise<T> {
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    const result = await withLease(ctx, syncLeaseKey(databaseId), LEASE_TTL_MS, job);
    if (result.ran) return result.value;
    options.signal?.throwIfAborted();
    if (Date.now() >= deadline) throw conflict(SYNC_BUSY_MESSAGE);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function syncDatabase(ctx: AppContext, databaseId: number, kind: SyncKind, signal?: AbortSignal): Promise<SyncOutcome> {
  const row = await loadDatabaseRow(ctx, databaseId);
  if (!row) return 'missing';
  const result = await withLease(ctx, syncLeaseKey(databaseId), LEASE_TTL_MS, async (): Promise<SyncOutcome> => {
    const started = Date.now();
    try {
      const open = await connectionFor(ctx, databaseId).catch(async (error) => {
        // a database that can't be reached fails the first step the sync would have taken
        const task = kind === 'values' ? 'field values scanning' : kind === 'analyze' ? 'analyze' : 'sync';
        await (await startTask(ctx, task, { dbId: databaseId, details: { kind } })).fail(error);
        throw error;
      });
      const fullSync = bool(open.database.is_full_sync);
      // each step is a row of task history, named as Metabase names them
      const step = <T>(task: string, work: () => Promise<T>, details: (value: T) => Record<string, unknown>) =>
        recordTask(ctx, task, { dbId: databaseId, details: { kind } }, async (run) => {
          const value = await work();
          Object.assign(run.details, details(value));
          return value;
        });
      if (kind === 'full' || kind === 'schema' || kind === 'metadata') {
        await step('sync', () => syncMetadata(ctx, open, signal), (r) => ({ 'tables-added': r.tablesAdded, 'tables-removed': r.tablesRemoved, 'tables-skipped': r.tablesSkipped.length }));
      }
      const analyze = (onlyUnanalyzed: boolean) => step('analyze', () => analyzeDatabase(ctx, open, { signal, onlyUnanalyzed }), (r) => ({ 'tables-analyzed': r.tables, 'tables-failed': r.failed.length }));
      if ((kind === 'full' && fullSync) || kind === 'schema' || kind === 'analyze') await analyze(false);
      if (kind === 'metadata' && fullSync) await analyze(!bool(open.database.refingerprint));
      if ((kind === 'full' && fullSync) || kind === 'values') await step('field values scanning', () => scanFieldValues(ctx, open, { signal }), (n) => ({ 'fields-scanned': n }));
      if (kind === 'full' || kind === 'schema' || kind === 'metadata') await markInitialStatus(ctx, databaseId, 'complete');
      ctx.log.info({ db: databaseId, kind, ms: Date.now() - started }, 'database sync finished');
      return 'done';
    } catch (error) {
      if (signal?.aborted) return 'failed';
      ctx.log.warn({ err: error, db: databaseId, kind }, 'database sync failed');
      if (kind === 'full' || kind === 'schema' || kind === 'metadata') await markInitialStatus(ctx, databaseId, 'aborted').catch(() => {});
      return 'failed';
    }
  });
  return result.ran ? result.value : 'busy';
}
