// Syncs an ETL tool asks for through /api/notify (Metabase's inbound notifications): the whole database, one known
// table, or a table the ETL just created. They run through the same runner and lease as every other sync.
//
// Quarry reads a database's structure in one introspection, so a table's sync re-reads the database's metadata
// (other tables' changes are picked up too); the analysis and field values of a table sync cover that table only.

import type { AppContext } from '../context.js';
import { badRequest, conflict, messageError, notFound } from '../http/errors.js';
import { bool } from '../appdb/portable.js';
import { connectionFor } from '../databases/connections.js';
import type { TableRow } from '../databases/database-row.js';
import { runExclusive, runSync } from './runner.js';
import { SYNC_BUSY_MESSAGE } from './sync-database.js';
import { syncMetadata } from './sync-metadata.js';
import { analyzeDatabase } from './analyze.js';
import { scanFieldValues } from './field-values.js';

/** `full`: metadata, analysis and field values; `schema`: metadata only (Metabase's two scans). */
export type NotifyScan = 'full' | 'schema';

/** How long a synchronous table sync waits for another instance's sync of the database before answering 409. */
const LEASE_WAIT_MS = 60_000;

/**
 * On the database's sync chain and lease: its metadata re-read, then `afterMetadata` (which picks the table and says
 * whether to analyze it and scan its values).
 */
async function syncAround<T>(
  ctx: AppContext,
  databaseId: number,
  afterMetadata: () => Promise<{ tableId: number | null; scan: NotifyScan; value: T }>,
): Promise<T> {
  return runExclusive(
    ctx,
    databaseId,
    async (signal) => {
      const open = await connectionFor(ctx, databaseId);
      await syncMetadata(ctx, open, signal);
      const { tableId, scan, value } = await afterMetadata();
      if (tableId !== null && scan === 'full') {
        await analyzeDatabase(ctx, open, { tableIds: [tableId], signal });
        await scanFieldValues(ctx, open, { tableIds: [tableId], signal });
      }
      return value;
    },
    { waitMs: LEASE_WAIT_MS },
  );
}

function tableSync(ctx: AppContext, databaseId: number, tableId: number, scan: NotifyScan): Promise<void> {
  return syncAround(ctx, databaseId, async () => ({ tableId, scan, value: undefined }));
}

async function databaseSync(ctx: AppContext, databaseId: number, scan: NotifyScan): Promise<void> {
  const outcome = await runSync(ctx, databaseId, scan === 'schema' ? 'metadata' : 'full');
  if (outcome === 'busy') throw conflict(SYNC_BUSY_MESSAGE);
  if (outcome === 'failed') throw messageError(400, 'The sync of this database failed; the server log says why.');
}

export interface NotifyRequest {
  tableId: number | null;
  tableName: string | null;
  scan: NotifyScan;
  /** Answer when the sync has finished (else at once, the sync running in the background). */
  synchronous: boolean;
}

/** POST /api/notify/db/:id — the database, or one of its tables (by id or name; 404 when it has no such table). */
export async function notifyDatabase(ctx: AppContext, databaseId: number, request: NotifyRequest): Promise<void> {
  const database = await ctx.db.selectFrom('metabase_database').select('id').where('id', '=', databaseId).executeTakeFirst();
  if (!database) throw notFound();
  let table: Pick<TableRow, 'id'> | undefined;
  if (request.tableId !== null) {
    table = await ctx.db.selectFrom('metabase_table').select('id').where('db_id', '=', databaseId).where('id', '=', request.tableId).executeTakeFirst();
    if (!table) throw notFound();
  } else if (request.tableName !== null) {
    table = await ctx.db.selectFrom('metabase_table').select('id').where('db_id', '=', databaseId).where('name', '=', request.tableName).orderBy('id').executeTakeFirst();
    if (!table) throw notFound();
  }
  const run = table ? tableSync(ctx, databaseId, table.id, request.scan) : databaseSync(ctx, databaseId, request.scan);
  if (request.synchronous) return run;
  run.catch((error) => ctx.log.warn({ err: error, db: databaseId }, 'notified sync failed'));
}

const tableLabel = (schema: string, name: string) => `'${schema}.${name}'`;

/**
 * POST /api/notify/db/:id/new-table — a table the database has and Quarry doesn't know yet: synced (metadata,
 * analysis, field values) before answering, and returned. 400 when Quarry knows it already, 404 when the database
 * has no such table.
 */
export async function notifyNewTable(ctx: AppContext, databaseId: number, schema: string, name: string): Promise<TableRow> {
  const database = await ctx.db.selectFrom('metabase_database').select('id').where('id', '=', databaseId).executeTakeFirst();
  if (!database) throw notFound();
  const find = () => ctx.db.selectFrom('metabase_table').selectAll().where('db_id', '=', databaseId).where('schema', '=', schema).where('name', '=', name).executeTakeFirst();
  if (await find()) throw badRequest(`Table ${tableLabel(schema, name)} already exists`);
  const id = await syncAround(ctx, databaseId, async () => {
    const created = await find();
    if (!created || !bool(created.active)) throw notFound(`Unable to identify table ${tableLabel(schema, name)}`);
    return { tableId: created.id, scan: 'full' as const, value: created.id };
  });
  return ctx.db.selectFrom('metabase_table').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
