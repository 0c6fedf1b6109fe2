// Read-only views of a database's synced metadata: the full metadata tree, schemas and their tables, all fields,
// primary keys, and SQL-editor autocomplete.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import type { FieldRow, TableRow } from './database-row.js';
import { databaseJson, tableJson } from './json.js';
import { hydrateFields } from './hydrate.js';
import { databaseOr404 } from './databases.js';
import { connectionFor } from './connections.js';
import { checkDatabaseVisible, visibleTablesOf } from './access.js';
import { fromSource } from './source-errors.js';
import { segmentsOfTables } from '../segments/segments.js';

export interface MetadataOptions {
  includeHidden: boolean;
  removeInactive: boolean;
  skipFields: boolean;
}

async function tablesOf(ctx: AppContext, databaseId: number, includeHidden: boolean): Promise<TableRow[]> {
  let query = ctx.db.selectFrom('metabase_table').selectAll().where('db_id', '=', databaseId).where('active', '=', true);
  if (!includeHidden) query = query.where('visibility_type', 'is', null);
  const rows = await query.execute();
  return rows.sort((a, b) => a.display_name.toLowerCase().localeCompare(b.display_name.toLowerCase()) || a.id - b.id);
}

async function fieldsOf(ctx: AppContext, tableIds: number[], includeHidden: boolean): Promise<FieldRow[]> {
  if (!tableIds.length) return [];
  const hidden = includeHidden ? ['retired'] : ['retired', 'sensitive', 'hidden'];
  return ctx.db
    .selectFrom('metabase_field')
    .selectAll()
    .where('table_id', 'in', tableIds)
    .where('active', '=', true)
    .where('visibility_type', 'not in', hidden)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** GET /api/database/:id/metadata: the database with its tables, their fields and list values. */
export async function databaseMetadata(ctx: AppContext, caller: Caller, id: number, options: MetadataOptions) {
  const row = await databaseOr404(ctx, id);
  const access = await checkDatabaseVisible(ctx, caller, id);
  const json = databaseJson(ctx, row, caller, access);
  const tables = visibleTablesOf(access, await tablesOf(ctx, id, options.includeHidden));
  const tablesJson = tables.map(tableJson);
  if (!options.skipFields) {
    const fields = await fieldsOf(ctx, tables.map((t) => t.id), options.includeHidden);
    const hydrated = await hydrateFields(ctx, fields, { target: true, dimensions: true, nameField: true, values: true });
    const segments = await segmentsOfTables(ctx, tables.map((t) => t.id));
    for (const t of tablesJson) {
      t.fields = hydrated.filter((f) => f.table_id === t.id);
      t.segments = segments.get(t.id as number) ?? [];
      t.metrics = [];
    }
  }
  json.tables = tablesJson;
  return json;
}

/** Schema names shown for a database: a table without a schema counts as the schema "". */
export async function listSchemas(ctx: AppContext, caller: Caller, id: number, includeHidden: boolean): Promise<string[]> {
  await databaseOr404(ctx, id);
  const access = await checkDatabaseVisible(ctx, caller, id);
  const tables = visibleTablesOf(access, await tablesOf(ctx, id, includeHidden));
  return [...new Set(tables.map((t) => t.schema ?? ''))].sort();
}

/**
 * The tables of one schema the caller may see: a schema with no (shown) tables is a 404, one whose tables are all
 * out of the caller's reach a 403.
 */
export async function schemaTables(ctx: AppContext, caller: Caller, id: number, schema: string, includeHidden: boolean) {
  await databaseOr404(ctx, id);
  const access = await checkDatabaseVisible(ctx, caller, id);
  const inSchema = (await tablesOf(ctx, id, includeHidden)).filter((t) => (t.schema ?? '') === schema);
  if (!inSchema.length) throw notFound();
  const visible = visibleTablesOf(access, inSchema);
  if (!visible.length) throw forbidden();
  return visible.map(tableJson);
}

export async function syncableSchemas(ctx: AppContext, id: number): Promise<string[]> {
  const { connection } = await connectionFor(ctx, id);
  return fromSource(async () => (await connection.schemas()).sort());
}

export async function databaseFields(ctx: AppContext, caller: Caller, id: number) {
  await databaseOr404(ctx, id);
  const access = await checkDatabaseVisible(ctx, caller, id);
  const rows = await ctx.db
    .selectFrom('metabase_field as f')
    .innerJoin('metabase_table as t', 't.id', 'f.table_id')
    .select(['f.id', 'f.name', 'f.display_name', 'f.base_type', 'f.semantic_type', 't.name as table_name', 't.schema', 't.id as table_id', 't.db_id'])
    .where('t.db_id', '=', id)
    .where('t.active', '=', true)
    .where('f.active', '=', true)
    .where('f.visibility_type', '!=', 'retired')
    .orderBy('t.name')
    .orderBy('f.name')
    .execute();
  return rows
    .filter((r) => access.canQueryTable({ id: r.table_id, db_id: r.db_id, schema: r.schema }))
    .map((r) => ({ id: r.id, name: r.name, display_name: r.display_name, base_type: r.base_type, semantic_type: r.semantic_type, table_id: r.table_id, table_name: r.table_name, schema: r.schema }));
}

export async function idFields(ctx: AppContext, caller: Caller, id: number) {
  await databaseOr404(ctx, id);
  const access = await checkDatabaseVisible(ctx, caller, id);
  const tables = visibleTablesOf(access, await tablesOf(ctx, id, false));
  if (!tables.length) return [];
  const fields = await ctx.db
    .selectFrom('metabase_field')
    .selectAll()
    .where('table_id', 'in', tables.map((t) => t.id))
    .where('active', '=', true)
    .where('semantic_type', '=', 'type/PK')
    .where('visibility_type', 'not in', ['retired', 'sensitive'])
    .execute();
  const hydrated = await hydrateFields(ctx, fields, { table: true, tables: new Map(tables.map((t) => [t.id, t])) });
  return hydrated.sort((a, b) => String((a.table as { name: string }).name).localeCompare(String((b.table as { name: string }).name)));
}

const AUTOCOMPLETE_LIMIT = 50;

/**
 * GET /api/database/:id/autocomplete_suggestions: tables as [name, "Table"], fields as
 * [name, "TABLE :type/Base :type/Semantic"] (keywords printed the Clojure way), matching a prefix or (when given) a substring.
 */
export async function autocomplete(ctx: AppContext, caller: Caller, id: number, prefix: string | null, substring: string | null): Promise<string[][]> {
  if (!prefix && !substring) throw badRequest('Either prefix or substring is required');
  await databaseOr404(ctx, id);
  const access = await checkDatabaseVisible(ctx, caller, id);
  const needle = (substring ?? prefix ?? '').toLowerCase();
  const matches = (name: string) => (substring ? name.toLowerCase().includes(needle) : name.toLowerCase().startsWith(needle));
  const allTables = visibleTablesOf(access, await tablesOf(ctx, id, false));
  const tables = allTables.filter((t) => matches(t.name)).sort((a, b) => a.name.localeCompare(b.name));
  const tableName = new Map(allTables.map((t) => [t.id, t.name]));
  // Only the four columns a suggestion shows: a field's fingerprint and settings are the bulk of its row.
  const visible = allTables.length
    ? await ctx.db
        .selectFrom('metabase_field')
        .select(['name', 'table_id', 'base_type', 'semantic_type'])
        .where('table_id', 'in', allTables.map((t) => t.id))
        .where('active', '=', true)
        .where('visibility_type', 'not in', ['retired', 'sensitive', 'hidden'])
        .execute()
    : [];
  const fields = visible
    .filter((f) => matches(f.name))
    .sort((a, b) => a.name.localeCompare(b.name) || (tableName.get(a.table_id) ?? '').localeCompare(tableName.get(b.table_id) ?? ''));
  const out: string[][] = tables.map((t) => [t.name, 'Table']);
  for (const f of fields) {
    out.push([f.name, `${tableName.get(f.table_id)} :${f.base_type}${f.semantic_type ? ` :${f.semantic_type}` : ''}`]);
  }
  return out.slice(0, AUTOCOMPLETE_LIMIT);
}

