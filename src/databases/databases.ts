// Connected databases: listing, reading, adding, changing and removing them, plus the maintenance switches
// (dismiss the sync spinner, model persistence, discard values). Reads show only what the caller's data permissions
// let them see (./access.ts); writes are for admins, which the routes enforce.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import type { ConnectionDetails } from '../drivers/driver.js';
import { ApiError, badRequest, notFound, paymentRequired } from '../http/errors.js';
import { bool, insertReturningId, nowIso, parseJson } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';
import type { DatabaseRow, TableRow } from './database-row.js';
import { readDetails, writeDetails, mergeSecrets } from './details.js';
import { databaseJson, tableJson } from './json.js';
import { hydrateFields } from './hydrate.js';
import { defaultSchedules, scheduleToCron } from './schedules.js';
import { closeConnection, connectionFor, loadDatabaseRow } from './connections.js';
import { driverOrFail, testConnection } from './connection-test.js';
import { savedQuestionsDatabase } from './saved-questions.js';
import { triggerSync } from '../sync/runner.js';
import { reloadSchedules } from '../sync/scheduler.js';
import { grantNewDatabasePermissions } from '../permissions/data-store.js';
import { checkDatabaseVisible, dataAccess, visibleTablesOf } from './access.js';
import { PERSIST_SETTING } from './persist-flag.js';
import { enableDatabase, disableDatabase } from '../persistence/switch.js';
import { forgetSampleDatabaseFacts } from '../sample/sample-database.js';

export const CACHE_TTL_MESSAGE = 'The cache TTL database setting is only enabled if you have a premium token with the advanced-config feature.';

export async function databaseOr404(ctx: AppContext, id: number): Promise<DatabaseRow> {
  const row = await loadDatabaseRow(ctx, id);
  if (!row) throw notFound();
  return row;
}

/** Active, visible tables of the databases, ordered by display name (what `include=tables` shows). */
export async function visibleTables(ctx: AppContext, databaseIds: number[]): Promise<TableRow[]> {
  if (!databaseIds.length) return [];
  const rows = await ctx.db
    .selectFrom('metabase_table')
    .selectAll()
    .where('db_id', 'in', databaseIds)
    .where('active', '=', true)
    .where('visibility_type', 'is', null)
    .execute();
  return rows.sort((a, b) => a.display_name.toLowerCase().localeCompare(b.display_name.toLowerCase()) || a.id - b.id);
}

export interface ListOptions {
  includeTables: boolean;
  saved: boolean;
  excludeUneditableDetails: boolean;
  includeOnlyUploadable: boolean;
  /** Only databases whose table metadata the caller may edit. */
  includeEditableDataModel?: boolean;
}

/** The databases the caller may see (data permissions), by name. */
export async function listDatabases(ctx: AppContext, caller: Caller, options: ListOptions) {
  const access = await dataAccess(ctx, caller);
  let rows = await ctx.db.selectFrom('metabase_database').selectAll().where('is_audit', '=', false).orderBy('name').orderBy('id').execute();
  rows = rows.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id);
  rows = rows.filter((r) => (options.includeEditableDataModel ? access.canManageMetadata(r.id) : access.canSeeDatabase(r.id)));
  if (options.excludeUneditableDetails) rows = rows.filter((r) => access.canManageDatabase(r.id));
  if (options.includeOnlyUploadable) rows = rows.filter((r) => bool(r.uploads_enabled));
  const data: Record<string, unknown>[] = rows.map((r) => databaseJson(ctx, r, caller, access));
  if (options.includeTables) {
    const tables = visibleTablesOf(access, await visibleTables(ctx, rows.map((r) => r.id)));
    for (const db of data) db.tables = tables.filter((t) => t.db_id === db.id).map(tableJson);
  }
  if (options.saved) {
    const virtual = await savedQuestionsDatabase(ctx, caller, options.includeTables);
    if (virtual) data.push(virtual);
  }
  return { data, total: data.length };
}

export async function getDatabase(ctx: AppContext, caller: Caller, id: number, include: 'tables' | 'tables.fields' | null) {
  const row = await databaseOr404(ctx, id);
  const access = await checkDatabaseVisible(ctx, caller, id);
  const json = databaseJson(ctx, row, caller, access);
  if (include) {
    const tables = visibleTablesOf(access, await visibleTables(ctx, [row.id]));
    const tablesJson = tables.map(tableJson);
    if (include === 'tables.fields' && tables.length) {
      const fields = await ctx.db
        .selectFrom('metabase_field')
        .selectAll()
        .where('table_id', 'in', tables.map((t) => t.id))
        .where('active', '=', true)
        .where('visibility_type', 'not in', ['sensitive', 'retired'])
        .orderBy('position')
        .orderBy('id')
        .execute();
      const hydrated = await hydrateFields(ctx, fields, { target: true, dimensions: true, nameField: true });
      tablesJson.forEach((t) => (t.fields = hydrated.filter((f) => f.table_id === t.id)));
    }
    json.tables = tablesJson;
  }
  return json;
}

export interface DatabaseInput {
  engine?: string;
  name?: string | null;
  details?: Record<string, unknown> | null;
  schedules?: Record<string, unknown> | null;
  is_full_sync?: boolean | null;
  is_on_demand?: boolean | null;
  auto_run_queries?: boolean | null;
  cache_ttl?: number | null;
  refingerprint?: boolean | null;
  description?: string | null;
  caveats?: string | null;
  points_of_interest?: string | null;
  settings?: Record<string, unknown> | null;
}

function schedulesFrom(input: Record<string, unknown> | null | undefined, current: { metadata: string; fieldValues: string }) {
  const out = { ...current };
  if (!input) return out;
  const metadata = input.metadata_sync;
  const values = input.cache_field_values;
  if (metadata && typeof metadata === 'object') out.metadata = scheduleToCron(metadata as Record<string, unknown>, 'schedules');
  if (values && typeof values === 'object') out.fieldValues = scheduleToCron(values as Record<string, unknown>, 'schedules');
  return out;
}

function checkCacheTtl(value: number | null | undefined): void {
  if (value !== null && value !== undefined) throw paymentRequired(CACHE_TTL_MESSAGE);
}

export async function createDatabase(ctx: AppContext, caller: Caller | null, input: DatabaseInput & { engine: string; name: string; details: Record<string, unknown> }): Promise<Record<string, unknown>> {
  const driver = driverOrFail(input.engine);
  checkCacheTtl(input.cache_ttl);
  const details = driver.normalizeDetails(input.details);
  await testConnection(ctx, driver, details);
  const userScheduling = input.details['let-user-control-scheduling'] === true;
  const schedules = schedulesFrom(userScheduling ? input.schedules : null, defaultSchedules());
  const autoRun = input.auto_run_queries ?? (typeof input.details.auto_run_queries === 'boolean' ? input.details.auto_run_queries : true);
  const now = nowIso();
  const id = await insertReturningId(ctx.db, ctx.dialect, 'metabase_database', {
    entity_id: newEntityId(),
    name: input.name,
    description: input.description ?? null,
    engine: input.engine,
    details: writeDetails(ctx, details),
    is_sample: false,
    is_full_sync: input.is_full_sync ?? true,
    is_on_demand: input.is_on_demand ?? false,
    is_audit: false,
    auto_run_queries: autoRun,
    refingerprint: null,
    cache_ttl: null,
    metadata_sync_schedule: schedules.metadata,
    cache_field_values_schedule: schedules.fieldValues,
    timezone: null,
    dbms_version: null,
    initial_sync_status: 'incomplete',
    settings: null,
    caveats: null,
    points_of_interest: null,
    creator_id: caller?.user.id ?? null,
    uploads_enabled: false,
    uploads_schema_name: null,
    uploads_table_prefix: null,
    created_at: now,
    updated_at: now,
  });
  await grantNewDatabasePermissions(ctx, id);
  triggerSync(ctx, id, 'full');
  await reloadSchedules(ctx);
  return databaseJson(ctx, await databaseOr404(ctx, id), caller);
}

export async function updateDatabase(ctx: AppContext, caller: Caller, id: number, input: DatabaseInput, present: Set<string>): Promise<Record<string, unknown>> {
  const row = await databaseOr404(ctx, id);
  const changes: Record<string, unknown> = {};
  const engine = present.has('engine') && input.engine ? input.engine : row.engine;
  const driver = driverOrFail(engine);
  let detailsChanged = false;
  if ((present.has('details') && input.details) || engine !== row.engine) {
    let stored: ConnectionDetails = {};
    try {
      stored = readDetails(ctx, row.details);
    } catch {
      stored = {};
    }
    // A partial details map changes only the keys it names (Metabase merges); null removes a key. Switching engines
    // starts from the new details alone.
    const sent = present.has('details') && input.details ? input.details : null;
    const base: Record<string, unknown> = engine === row.engine ? { ...stored } : {};
    if (sent) for (const [k, v] of Object.entries(sent)) v === null ? delete base[k] : (base[k] = v);
    const incoming = sent ? mergeSecrets(driver, base, stored) : stored;
    const details = driver.normalizeDetails(incoming);
    if (JSON.stringify(details) !== JSON.stringify(stored) || engine !== row.engine) {
      await testConnection(ctx, driver, details);
      changes.details = writeDetails(ctx, details);
      changes.engine = engine;
      detailsChanged = true;
    }
  }
  if (present.has('name')) {
    if (typeof input.name !== 'string' || !input.name.trim()) throw badRequest();
    changes.name = input.name;
  }
  for (const key of ['description', 'caveats', 'points_of_interest'] as const) if (present.has(key)) changes[key] = input[key] ?? null;
  for (const key of ['is_full_sync', 'is_on_demand', 'auto_run_queries'] as const) {
    if (present.has(key) && input[key] !== null && input[key] !== undefined) changes[key] = input[key];
  }
  if (present.has('refingerprint')) changes.refingerprint = input.refingerprint ?? null;
  if (present.has('cache_ttl')) {
    checkCacheTtl(input.cache_ttl);
    changes.cache_ttl = null;
  }
  if (present.has('schedules') && input.schedules) {
    const schedules = schedulesFrom(input.schedules, { metadata: row.metadata_sync_schedule, fieldValues: row.cache_field_values_schedule });
    changes.metadata_sync_schedule = schedules.metadata;
    changes.cache_field_values_schedule = schedules.fieldValues;
  }
  if (present.has('settings')) {
    const current = parseJson<Record<string, unknown>>(row.settings, {});
    for (const [k, v] of Object.entries(input.settings ?? {})) {
      if (k === PERSIST_SETTING) {
        // the model-persistence switch goes through POST /persist's checks (and /unpersist's clean-up)
        if (v !== null && typeof v !== 'boolean') throw badRequest(`${PERSIST_SETTING} must be true or false.`);
        if (v === true) await enableDatabase(ctx, caller, row);
        else await disableDatabase(ctx, caller, row);
      }
      if (v === null || (k === PERSIST_SETTING && v === false)) delete current[k];
      else current[k] = v;
    }
    changes.settings = Object.keys(current).length ? JSON.stringify(current) : null;
  }
  if (Object.keys(changes).length) {
    await ctx.db.updateTable('metabase_database').set({ ...changes, updated_at: nowIso() }).where('id', '=', id).execute();
  }
  if (detailsChanged) {
    await closeConnection(ctx, id);
    triggerSync(ctx, id, 'full');
  }
  if ('metadata_sync_schedule' in changes || 'is_full_sync' in changes) await reloadSchedules(ctx);
  return databaseJson(ctx, await databaseOr404(ctx, id), caller);
}

export async function deleteDatabase(ctx: AppContext, id: number): Promise<void> {
  await databaseOr404(ctx, id);
  await closeConnection(ctx, id);
  // Tables, fields, values and dimensions go with it (ON DELETE CASCADE); the field → field FK column is nulled.
  await ctx.db.deleteFrom('metabase_database').where('id', '=', id).execute();
  forgetSampleDatabaseFacts();
  await reloadSchedules(ctx);
}

/** POST /api/database/validate: {"valid": true}, or a 400 saying why the connection failed. */
export async function validateDetails(ctx: AppContext, engine: unknown, rawDetails: Record<string, unknown>): Promise<{ valid: true }> {
  const driver = driverOrFail(engine);
  let details: ConnectionDetails;
  try {
    details = driver.normalizeDetails(rawDetails);
  } catch (error) {
    if (error instanceof ApiError && typeof error.body === 'object') throw new ApiError(400, { valid: false, ...error.body });
    throw error;
  }
  await testConnection(ctx, driver, details, { valid: false });
  return { valid: true };
}

/** POST /api/database/:id/dismiss_spinner: the initial sync counts as complete → `{"status": "ok"}`. */
export async function dismissSpinner(ctx: AppContext, id: number) {
  await databaseOr404(ctx, id);
  const now = nowIso();
  await ctx.db.updateTable('metabase_database').set({ initial_sync_status: 'complete', updated_at: now }).where('id', '=', id).execute();
  await ctx.db.updateTable('metabase_table').set({ initial_sync_status: 'complete', updated_at: now }).where('db_id', '=', id).execute();
  return { status: 'ok' };
}

/**
 * POST /api/database/:id/sync_schema: checks the database can be reached (else Metabase's 422 with the driver's
 * message), then starts a schema sync in the background.
 */
export async function requestSchemaSync(ctx: AppContext, id: number): Promise<void> {
  const { connection } = await connectionFor(ctx, id);
  try {
    await connection.test();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(422, error instanceof Error && error.message ? error.message : 'Unable to connect to database.');
  }
  triggerSync(ctx, id, 'schema');
}

export async function discardDatabaseValues(ctx: AppContext, id: number): Promise<void> {
  await databaseOr404(ctx, id);
  const fieldIds = ctx.db.selectFrom('metabase_field').innerJoin('metabase_table', 'metabase_table.id', 'metabase_field.table_id').select('metabase_field.id').where('metabase_table.db_id', '=', id);
  await ctx.db.deleteFrom('metabase_fieldvalues').where('field_id', 'in', fieldIds).execute();
}
