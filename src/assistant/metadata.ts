// What the assistant knows about a database: its synced tables and columns from the app DB (names, display names,
// types, keys, foreign keys, descriptions) and the stored value lists of low-cardinality columns — only tables the
// caller may query. Both engines read it: the prompt for a model (./prompt.ts) and the offline engine (./offline).

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { check404 } from '../http/errors.js';
import { dataAccess } from '../permissions/data-access.js';
import { loadFieldValues, type StoredFieldValues } from '../databases/field-values.js';

/** Value lists longer than this aren't worth a prompt's room (Metabase's enum-cardinality-threshold). */
export const MAX_LISTED_VALUES = 60;

export interface ColumnInfo {
  id: number;
  name: string;
  displayName: string;
  description: string | null;
  databaseType: string;
  baseType: string;
  semanticType: string | null;
  /** The field this foreign key points at. */
  fkTargetFieldId: number | null;
  /** Distinct values (text) when the column keeps a short list. */
  values: string[] | null;
}

export interface TableInfo {
  id: number;
  schema: string | null;
  name: string;
  displayName: string;
  description: string | null;
  /** Hidden, technical and cruft tables are left out of prompts but may still be queried. */
  listed: boolean;
  columns: ColumnInfo[];
}

export interface DatabaseInfo {
  id: number;
  name: string;
  engine: string;
  tables: TableInfo[];
}

const HIDDEN_FIELD = new Set(['sensitive', 'retired']);

export async function databaseRow(ctx: AppContext, databaseId: number) {
  return check404(await ctx.db.selectFrom('metabase_database').select(['id', 'name', 'engine']).where('id', '=', databaseId).executeTakeFirst());
}

/** A column's stored values as text, when the list is complete and short enough to show. */
export function listedValues(stored: StoredFieldValues | undefined): string[] | null {
  if (!stored || stored.hasMoreValues || stored.values.length > MAX_LISTED_VALUES) return null;
  return stored.values.map((v) => (Array.isArray(v) ? v[0] : v)).filter((v) => v !== null && v !== undefined && typeof v !== 'object').map(String);
}

/** The database's metadata as the caller may see it. */
export async function loadDatabaseInfo(ctx: AppContext, caller: Caller, databaseId: number): Promise<DatabaseInfo> {
  const [db, access, tableRows] = await Promise.all([
    databaseRow(ctx, databaseId),
    dataAccess(ctx, caller),
    ctx.db
      .selectFrom('metabase_table')
      .select(['id', 'schema', 'name', 'display_name', 'description', 'visibility_type', 'db_id'])
      .where('db_id', '=', databaseId)
      .where('active', '=', true)
      .orderBy('id')
      .execute(),
  ]);
  const tables = tableRows.filter((t) => access.canQueryTable({ id: t.id, db_id: t.db_id, schema: t.schema }));
  const tableIds = tables.map((t) => t.id);
  const fieldRows = tableIds.length
    ? await ctx.db
        .selectFrom('metabase_field')
        .select(['id', 'table_id', 'name', 'display_name', 'description', 'database_type', 'base_type', 'semantic_type', 'fk_target_field_id', 'visibility_type', 'has_field_values', 'database_position'])
        .where('table_id', 'in', tableIds)
        .where('active', '=', true)
        .where('parent_id', 'is', null)
        .orderBy('table_id')
        .orderBy('database_position')
        .orderBy('id')
        .execute()
    : [];
  const fields = fieldRows.filter((f) => !HIDDEN_FIELD.has(f.visibility_type ?? 'normal'));
  const values = await loadFieldValues(ctx, fields.filter((f) => f.has_field_values === 'list' || f.has_field_values === 'auto-list').map((f) => f.id));
  const byTable = new Map<number, ColumnInfo[]>();
  for (const f of fields) {
    const list = listedValues(values.get(f.id));
    const column: ColumnInfo = {
      id: f.id,
      name: f.name,
      displayName: f.display_name,
      description: f.description ?? null,
      databaseType: f.database_type,
      baseType: f.base_type,
      semanticType: f.semantic_type ?? null,
      fkTargetFieldId: f.fk_target_field_id ?? null,
      values: list,
    };
    const bucket = byTable.get(f.table_id) ?? [];
    bucket.push(column);
    byTable.set(f.table_id, bucket);
  }
  return {
    id: db.id,
    name: db.name,
    engine: db.engine,
    tables: tables.map((t) => ({
      id: t.id,
      schema: t.schema ?? null,
      name: t.name,
      displayName: t.display_name,
      description: t.description ?? null,
      listed: !t.visibility_type,
      columns: byTable.get(t.id) ?? [],
    })),
  };
}

/** The table holding a field, and the column. */
export function columnById(info: DatabaseInfo, fieldId: number): { table: TableInfo; column: ColumnInfo } | null {
  for (const table of info.tables) {
    const column = table.columns.find((c) => c.id === fieldId);
    if (column) return { table, column };
  }
  return null;
}
