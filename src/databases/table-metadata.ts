// Tables: reading and editing their metadata, the query-builder view of a table (query_metadata), foreign keys
// pointing at it, field order, and per-table value maintenance.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, notFound } from '../http/errors.js';
import { nowIso } from '../appdb/portable.js';
import type { FieldRow, TableRow } from './database-row.js';
import { databaseJson, fieldJson, tableJson } from './json.js';
import { hydrateFields } from './hydrate.js';
import { DIMENSION_OPTIONS, withDimensionOptions } from './dimension-options.js';
import { deleteFieldValues } from './field-values.js';
import { checkTableVisible, dataAccess, visibleTablesOf, type DataAccess } from './access.js';
import { connectionFor } from './connections.js';
import { runExclusive } from '../sync/runner.js';
import { scanFieldValues } from '../sync/field-values.js';
import { segmentsOfTables } from '../segments/segments.js';

export async function tableOr404(ctx: AppContext, id: number): Promise<TableRow> {
  const row = await ctx.db.selectFrom('metabase_table').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

async function databasesById(ctx: AppContext, ids: number[], caller: Caller, access: DataAccess) {
  if (!ids.length) return new Map<number, Record<string, unknown>>();
  const rows = await ctx.db.selectFrom('metabase_database').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, databaseJson(ctx, r, caller, access)]));
}

/** GET /api/table: every active table the caller may query, with its database. */
export async function listTables(ctx: AppContext, caller: Caller) {
  const access = await dataAccess(ctx, caller);
  const rows = visibleTablesOf(access, await ctx.db.selectFrom('metabase_table').selectAll().where('active', '=', true).orderBy('name').orderBy('id').execute());
  const dbs = await databasesById(ctx, rows.map((r) => r.db_id), caller, access);
  return rows.map((r) => ({ ...tableJson(r), db: dbs.get(r.db_id) ?? null }));
}

export async function getTable(ctx: AppContext, caller: Caller, id: number) {
  const row = await tableOr404(ctx, id);
  const access = await checkTableVisible(ctx, caller, row);
  const dbs = await databasesById(ctx, [row.db_id], caller, access);
  const pk = await ctx.db.selectFrom('metabase_field').select('id').where('table_id', '=', id).where('semantic_type', '=', 'type/PK').where('active', '=', true).orderBy('database_position').executeTakeFirst();
  return { ...tableJson(row), db: dbs.get(row.db_id) ?? null, pk_field: pk?.id ?? null };
}

export interface TableInput {
  display_name?: string | null;
  description?: string | null;
  visibility_type?: string | null;
  entity_type?: string | null;
  field_order?: string | null;
  caveats?: string | null;
  points_of_interest?: string | null;
  show_in_getting_started?: boolean | null;
}

// Like Metabase: these may be cleared with null…
const CLEARABLE = ['description', 'visibility_type', 'caveats', 'points_of_interest'] as const;
// …and these are only changed by a value (null means "leave as is").
const NON_NULL = ['display_name', 'entity_type', 'field_order', 'show_in_getting_started'] as const;

export async function updateTables(ctx: AppContext, ids: number[], input: TableInput, present: Set<string>): Promise<void> {
  const changes: Record<string, unknown> = {};
  for (const key of CLEARABLE) if (present.has(key)) changes[key] = input[key] ?? null;
  for (const key of NON_NULL) if (present.has(key) && input[key] !== null && input[key] !== undefined) changes[key] = input[key];
  for (const id of ids) await tableOr404(ctx, id);
  if (!Object.keys(changes).length) return;
  await ctx.db.updateTable('metabase_table').set({ ...changes, updated_at: nowIso() }).where('id', 'in', ids).execute();
}

function orderFields(fields: FieldRow[], order: string): FieldRow[] {
  const copy = [...fields];
  switch (order) {
    case 'alphabetical':
      return copy.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id);
    case 'custom':
      return copy.sort((a, b) => a.custom_position - b.custom_position || a.database_position - b.database_position);
    case 'smart': {
      const rank = (f: FieldRow) => (f.semantic_type === 'type/PK' ? 0 : f.semantic_type === 'type/Name' ? 1 : 2);
      return copy.sort((a, b) => rank(a) - rank(b) || a.database_position - b.database_position);
    }
    default:
      return copy.sort((a, b) => a.database_position - b.database_position || a.id - b.id);
  }
}

export interface QueryMetadataOptions {
  includeSensitive: boolean;
  includeHidden: boolean;
}

/** GET /api/table/:id/query_metadata: the table as the query builder needs it (404 when missing, 403 unless queryable). */
export async function queryMetadata(ctx: AppContext, caller: Caller, id: number, options: QueryMetadataOptions) {
  const table = await tableOr404(ctx, id);
  const access = await checkTableVisible(ctx, caller, table);
  return (await describeTables(ctx, caller, access, [table], options)).get(id)!;
}

/**
 * The query_metadata of every table given that exists and the caller may query, keyed by id, in a fixed number of
 * app-DB statements however many tables there are (a dashboard's cards read several through implicit joins).
 */
export async function tablesQueryMetadata(ctx: AppContext, caller: Caller, ids: number[], options: QueryMetadataOptions) {
  if (!ids.length) return new Map<number, Record<string, unknown>>();
  const access = await dataAccess(ctx, caller);
  const rows = await ctx.db.selectFrom('metabase_table').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return describeTables(ctx, caller, access, visibleTablesOf(access, rows), options);
}

async function describeTables(ctx: AppContext, caller: Caller, access: DataAccess, tables: TableRow[], options: QueryMetadataOptions) {
  const out = new Map<number, Record<string, unknown>>();
  if (!tables.length) return out;
  const tableIds = tables.map((t) => t.id);
  const excluded = new Set(['retired']);
  if (!options.includeSensitive) excluded.add('sensitive');
  if (!options.includeHidden) excluded.add('hidden');
  // Every active field, hidden ones too: foreign keys into a table may point at any of them.
  const active = await ctx.db.selectFrom('metabase_field').selectAll().where('table_id', 'in', tableIds).where('active', '=', true).execute();
  const shown = tables.flatMap((t) => orderFields(active.filter((f) => f.table_id === t.id && !excluded.has(f.visibility_type)), t.field_order));
  const fields = (await hydrateFields(ctx, shown, { target: true, dimensions: true, nameField: true, values: false })).map(withDimensionOptions);
  // `target` carries its table, as the query builder follows FKs with it.
  const targetTableIds = fields.map((f) => (f.target as { table_id?: number } | null)?.table_id).filter((x): x is number => typeof x === 'number');
  const targetTables = targetTableIds.length ? await ctx.db.selectFrom('metabase_table').selectAll().where('id', 'in', [...new Set(targetTableIds)]).execute() : [];
  const tablesById = new Map(visibleTablesOf(access, targetTables).map((t) => [t.id, tableJson(t)]));
  for (const f of fields) {
    const target = f.target as Record<string, unknown> | null;
    if (!target) continue;
    // a key into a table the caller can't query points nowhere they can follow
    const targetTable = tablesById.get(target.table_id as number);
    if (targetTable) target.table = targetTable;
    else f.target = null;
  }
  const dbs = await databasesById(ctx, tables.map((t) => t.db_id), caller, access);
  const fks = await foreignKeysIntoTables(ctx, tables, active, access);
  const segments = await segmentsOfTables(ctx, tableIds);
  for (const table of tables) {
    out.set(table.id, {
      ...tableJson(table),
      db: dbs.get(table.db_id) ?? null,
      fields: fields.filter((f) => f.table_id === table.id),
      fks: fks.get(table.id) ?? [],
      segments: segments.get(table.id) ?? [],
      metrics: [],
      dimension_options: DIMENSION_OPTIONS,
    });
  }
  return out;
}

/** GET /api/table/:id/fks: fields elsewhere (in tables the caller may query) that point at this table's fields. */
export async function foreignKeysInto(ctx: AppContext, id: number, access: DataAccess) {
  const table = await tableOr404(ctx, id);
  const own = await ctx.db.selectFrom('metabase_field').selectAll().where('table_id', '=', id).where('active', '=', true).execute();
  return (await foreignKeysIntoTables(ctx, [table], own, access)).get(id) ?? [];
}

/** The foreign keys into each table, by table id, given the tables' active fields. */
async function foreignKeysIntoTables(ctx: AppContext, tables: TableRow[], ownFields: FieldRow[], access: DataAccess) {
  const out = new Map<number, Array<Record<string, unknown>>>();
  if (!ownFields.length) return out;
  const pointing = await ctx.db
    .selectFrom('metabase_field')
    .selectAll()
    .where('fk_target_field_id', 'in', ownFields.map((f) => f.id))
    .where('active', '=', true)
    .where('semantic_type', '=', 'type/FK')
    .orderBy('id')
    .execute();
  const originTables = pointing.length ? await ctx.db.selectFrom('metabase_table').select(['id', 'db_id', 'schema']).where('id', 'in', [...new Set(pointing.map((o) => o.table_id))]).execute() : [];
  const visible = new Set(visibleTablesOf(access, originTables).map((t) => t.id));
  const origins = pointing.filter((o) => visible.has(o.table_id));
  if (!origins.length) return out;
  const originJson = await hydrateFields(ctx, origins, { table: true });
  const fieldsById = new Map(ownFields.map((f) => [f.id, f]));
  const tablesById = new Map(tables.map((t) => [t.id, t]));
  origins.forEach((o, i) => {
    const destination = fieldsById.get(o.fk_target_field_id!)!;
    const list = out.get(destination.table_id) ?? [];
    list.push({
      origin_id: o.id,
      origin: originJson[i],
      destination_id: o.fk_target_field_id,
      destination: { ...fieldJson(destination), table: tableJson(tablesById.get(destination.table_id)!) },
      relationship: 'Mt1',
    });
    out.set(destination.table_id, list);
  });
  return out;
}

/** PUT /api/table/:id/fields/order: the field ids in their new order (all active fields of the table). */
export async function reorderFields(ctx: AppContext, id: number, fieldIds: number[]) {
  await tableOr404(ctx, id);
  const fields = await ctx.db.selectFrom('metabase_field').select(['id']).where('table_id', '=', id).where('active', '=', true).where('parent_id', 'is', null).execute();
  const own = new Set(fields.map((f) => f.id));
  if (fieldIds.length !== own.size || !fieldIds.every((f) => own.has(f)) || new Set(fieldIds).size !== fieldIds.length) {
    throw badRequest('Invalid field order: the list must contain every field of the table exactly once.');
  }
  const now = nowIso();
  await ctx.db.transaction().execute(async (trx) => {
    for (const [position, fieldId] of fieldIds.entries()) {
      await trx.updateTable('metabase_field').set({ custom_position: position, position, updated_at: now }).where('id', '=', fieldId).execute();
    }
    await trx.updateTable('metabase_table').set({ field_order: 'custom', updated_at: now }).where('id', '=', id).execute();
  });
  return { success: true };
}

export async function discardTableValues(ctx: AppContext, id: number): Promise<void> {
  await tableOr404(ctx, id);
  const fields = await ctx.db.selectFrom('metabase_field').select('id').where('table_id', '=', id).execute();
  await deleteFieldValues(ctx.db, fields.map((f) => f.id));
}

/** The entity types a table may be given (Metabase's `entity/*` hierarchy). */
export const ENTITY_TYPES = [
  'entity/*', 'entity/GenericTable', 'entity/UserTable', 'entity/CompanyTable', 'entity/TransactionTable', 'entity/ProductTable',
  'entity/SubscriptionTable', 'entity/EventTable', 'entity/GoogleAnalyticsTable',
] as const;

export function isEntityType(value: unknown): value is string {
  return typeof value === 'string' && (ENTITY_TYPES as readonly string[]).includes(value);
}

/** How long a table's rescan (in the background) waits for a sync of its database running on another instance. */
const TABLE_RESCAN_WAIT_MS = 10 * 60_000;

/**
 * POST /api/table/:id/rescan_values: rescans the values of the table's list fields in the background, on the
 * database's sync chain and under its lease, so it never runs alongside a sync of the same database.
 */
export async function rescanTableValues(ctx: AppContext, id: number): Promise<void> {
  const table = await tableOr404(ctx, id);
  void runExclusive(ctx, table.db_id, async (signal) => scanFieldValues(ctx, await connectionFor(ctx, table.db_id), { tableIds: [table.id], signal }), { waitMs: TABLE_RESCAN_WAIT_MS })
    .catch((error) => ctx.log.warn({ err: error, table: table.id }, 'scanning table values failed'));
}
