// Step 1 of a sync: make the app DB's tables and fields match what the database has. New tables and fields are
// added, changed ones updated, vanished ones marked inactive (never deleted, so cards and settings keep their
// references), returning ones reactivated. Primary and foreign keys come from the database's constraints.
// Attributes an admin edited (field.admin_edited) are left alone.
// Each table is written in a transaction of its own: one the app DB refuses is skipped whole (logged) and the rest of
// the database syncs. Names longer than the app DB's name columns (254 characters; engines such as SQLite and DuckDB
// allow longer) can't be stored, so such tables and columns are skipped with a warning on every app DB; display
// names are cut to fit, and database_type is text (migration 0010), so any type fits.

import { isPersistenceSchema } from '../persistence/naming.js';
import type { AppContext } from '../context.js';
import type { Introspection, IntrospectedField, IntrospectedTable } from '../drivers/driver.js';
import type { OpenDatabase } from '../databases/connections.js';
import type { FieldRow, TableRow } from '../databases/database-row.js';
import { insertReturningId, nowIso, toJson, type Db } from '../appdb/portable.js';
import type { AppDbDialect } from '../appdb/connect.js';
import { newEntityId } from '../util/entity-id.js';
import { NAME_MAX, fitText } from '../util/fit.js';
import { fitsNameColumn, loggedName } from './names.js';
import { humanize } from '../databases/humanize.js';
import { adminEdited } from './admin-edits.js';
import { classifyTable } from './classify.js';
import { unfoldJsonFields } from './json-unfold.js';

const key = (schema: string | null, name: string) => `${schema ?? ''}\u0000${name}`;

/** A new metabase_field row for an introspected column (also used to seed the sample's fields with fixed ids). */
export function newFieldValues(tableId: number, f: IntrospectedField, now: string, jsonUnfolding: boolean) {
  return {
    entity_id: newEntityId(),
    table_id: tableId,
    parent_id: null,
    name: f.name,
    display_name: fitText(humanize(f.name), NAME_MAX),
    description: f.description ?? null,
    database_type: f.databaseType,
    base_type: f.baseType,
    effective_type: f.baseType,
    semantic_type: f.primaryKey ? 'type/PK' : null,
    coercion_strategy: null,
    active: true,
    visibility_type: 'normal',
    preview_display: true,
    position: f.position,
    database_position: f.position,
    custom_position: 0,
    database_is_auto_increment: f.autoIncrement,
    database_required: f.required,
    database_indexed: null,
    nfc_path: f.nfcPath ? toJson(f.nfcPath) : null,
    json_unfolding: jsonUnfolding && f.baseType === 'type/JSON',
    fk_target_field_id: null,
    has_field_values: null,
    settings: null,
    caveats: null,
    points_of_interest: null,
    fingerprint: null,
    fingerprint_version: 0,
    last_analyzed: null,
    admin_edited: null,
    created_at: now,
    updated_at: now,
  };
}

/** A new metabase_table row for an introspected table (also used to seed the sample's tables with fixed ids). */
export function newTableValues(databaseId: number, t: IntrospectedTable, now: string) {
  return {
    entity_id: newEntityId(),
    db_id: databaseId,
    schema: t.schema,
    name: t.name,
    display_name: fitText(humanize(t.name), NAME_MAX),
    description: t.description ?? null,
    entity_type: classifyTable(t.name),
    active: true,
    visibility_type: null,
    initial_sync_status: 'incomplete',
    is_upload: false,
    field_order: 'database',
    show_in_getting_started: false,
    caveats: null,
    points_of_interest: null,
    estimated_row_count: t.estimatedRowCount ?? null,
    view_count: 0,
    created_at: now,
    updated_at: now,
  };
}

async function syncTableRow(db: Db, dialect: AppDbDialect, databaseId: number, existing: TableRow | undefined, t: IntrospectedTable, now: string): Promise<number> {
  if (!existing) return insertReturningId(db, dialect, 'metabase_table', newTableValues(databaseId, t, now));
  const changes: Record<string, unknown> = {};
  if (!existing.active) changes.active = true;
  if (existing.description === null && t.description) changes.description = t.description;
  if ((t.estimatedRowCount ?? null) !== (existing.estimated_row_count === null ? null : Number(existing.estimated_row_count))) changes.estimated_row_count = t.estimatedRowCount ?? null;
  if (Object.keys(changes).length) {
    await db.updateTable('metabase_table').set({ ...changes, updated_at: now }).where('id', '=', existing.id).execute();
  }
  return existing.id;
}

async function syncFields(db: Db, tableId: number, t: IntrospectedTable, existing: FieldRow[], now: string, jsonUnfolding: boolean): Promise<void> {
  const byName = new Map(existing.filter((f) => f.parent_id === null && f.nfc_path === null).map((f) => [f.name, f]));
  const seen = new Set<string>();
  const inserts: ReturnType<typeof newFieldValues>[] = [];
  for (const f of t.fields) {
    seen.add(f.name);
    const row = byName.get(f.name);
    if (!row) {
      inserts.push(newFieldValues(tableId, f, now, jsonUnfolding));
      continue;
    }
    const edited = adminEdited(row);
    const changes: Record<string, unknown> = {};
    if (!row.active) changes.active = true;
    if (row.database_type !== f.databaseType) changes.database_type = f.databaseType;
    if (row.base_type !== f.baseType) {
      changes.base_type = f.baseType;
      if (!row.coercion_strategy) changes.effective_type = f.baseType;
    }
    if (row.database_position !== f.position) {
      changes.database_position = f.position;
      if (!edited.has('position')) changes.position = f.position;
    }
    if (!edited.has('database_required') && Boolean(row.database_required) !== f.required) changes.database_required = f.required;
    if (!edited.has('database_is_auto_increment') && Boolean(row.database_is_auto_increment) !== f.autoIncrement) changes.database_is_auto_increment = f.autoIncrement;
    if (row.description === null && f.description) changes.description = f.description;
    if (!edited.has('semantic_type')) {
      if (f.primaryKey && row.semantic_type !== 'type/PK') changes.semantic_type = 'type/PK';
      else if (!f.primaryKey && row.semantic_type === 'type/PK') changes.semantic_type = null;
    }
    if (Object.keys(changes).length) {
      await db.updateTable('metabase_field').set({ ...changes, updated_at: now }).where('id', '=', row.id).execute();
    }
  }
  if (inserts.length) await db.insertInto('metabase_field').values(inserts).execute();
  const gone = existing.filter((f) => f.parent_id === null && f.nfc_path === null && f.active && !seen.has(f.name)).map((f) => f.id);
  if (gone.length) await db.updateTable('metabase_field').set({ active: false, updated_at: now }).where('id', 'in', gone).execute();
}

async function syncForeignKeys(ctx: AppContext, databaseId: number, introspection: Introspection, now: string): Promise<void> {
  if (!introspection.foreignKeys.length) return;
  const fields = await ctx.db
    .selectFrom('metabase_field as f')
    .innerJoin('metabase_table as t', 't.id', 'f.table_id')
    .select(['f.id', 'f.name', 'f.semantic_type', 'f.fk_target_field_id', 'f.admin_edited', 't.schema', 't.name as table_name'])
    .where('t.db_id', '=', databaseId)
    .where('f.parent_id', 'is', null)
    .where('f.nfc_path', 'is', null)
    .execute();
  const index = new Map(fields.map((f) => [`${key(f.schema, f.table_name)}\u0000${f.name}`, f]));
  for (const fk of introspection.foreignKeys) {
    const from = index.get(`${key(fk.fromSchema, fk.fromTable)}\u0000${fk.fromColumn}`);
    const to = index.get(`${key(fk.toSchema, fk.toTable)}\u0000${fk.toColumn}`);
    if (!from || !to) continue; // one end was skipped (a name too long to store, a table the app DB refused)
    const edited = adminEdited(from);
    const changes: Record<string, unknown> = {};
    if (!edited.has('semantic_type') && from.semantic_type !== 'type/FK' && from.semantic_type !== 'type/PK') changes.semantic_type = 'type/FK';
    if (!edited.has('fk_target_field_id') && from.fk_target_field_id !== to.id) changes.fk_target_field_id = to.id;
    if (!Object.keys(changes).length) continue;
    try {
      await ctx.db.updateTable('metabase_field').set({ ...changes, updated_at: now }).where('id', '=', from.id).execute();
    } catch (error) {
      ctx.log.warn({ err: error, db: databaseId, table: loggedName(fk.fromTable), column: loggedName(fk.fromColumn) }, 'recording a foreign key failed; skipped');
    }
  }
}

async function unfoldNestedFields(ctx: AppContext, open: OpenDatabase, signal?: AbortSignal): Promise<void> {
  const tables = await ctx.db.selectFrom('metabase_table').selectAll().where('db_id', '=', open.database.id).where('active', '=', true).execute();
  if (!tables.length) return;
  const fields = await ctx.db.selectFrom('metabase_field').selectAll().where('table_id', 'in', tables.map((t) => t.id)).execute();
  for (const table of tables) {
    const own = fields.filter((f) => f.table_id === table.id);
    if (!own.some((f) => f.base_type === 'type/JSON' || f.nfc_path !== null)) continue;
    try {
      await unfoldJsonFields(ctx, open, table, own, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      ctx.log.warn({ err: error, table: table.name }, 'unfolding JSON columns failed');
    }
  }
}

export interface MetadataSyncResult {
  tablesAdded: number;
  tablesRemoved: number;
  /** Tables left out of this sync: names too long to store, or tables the app DB refused (each logged). */
  tablesSkipped: Array<{ schema: string | null; table: string; reason: string }>;
}

/** The table's columns whose names fit; the others are logged and left out. */
function storableFields(ctx: AppContext, databaseId: number, t: IntrospectedTable): IntrospectedTable {
  if (t.fields.every((f) => fitsNameColumn(f.name))) return t;
  const fields = t.fields.filter((f) => {
    if (fitsNameColumn(f.name)) return true;
    ctx.log.warn({ db: databaseId, table: loggedName(t.name), column: loggedName(f.name) }, `skipping a column whose name is longer than ${NAME_MAX} characters`);
    return false;
  });
  return { ...t, fields };
}

/** Brings the app DB's tables, fields and keys in line with the database, and records its version and zone. */
export async function syncMetadata(ctx: AppContext, open: OpenDatabase, signal?: AbortSignal): Promise<MetadataSyncResult> {
  const { database, driver, connection } = open;
  const introspection = await connection.introspect();
  signal?.throwIfAborted();
  const now = nowIso();
  const [version, timezone] = await Promise.all([connection.version().catch(() => null), connection.timezone().catch(() => null)]);
  await ctx.db
    .updateTable('metabase_database')
    .set({ dbms_version: version ? JSON.stringify(version) : database.dbms_version, timezone: timezone ?? database.timezone, updated_at: now })
    .where('id', '=', database.id)
    .execute();

  const tables = await ctx.db.selectFrom('metabase_table').selectAll().where('db_id', '=', database.id).execute();
  const tableByKey = new Map(tables.map((t) => [key(t.schema, t.name), t]));
  const fields = await ctx.db
    .selectFrom('metabase_field')
    .selectAll()
    .where('table_id', 'in', tables.length ? tables.map((t) => t.id) : [-1])
    .execute();
  const fieldsByTable = new Map<number, FieldRow[]>();
  for (const f of fields) {
    const list = fieldsByTable.get(f.table_id) ?? [];
    list.push(f);
    fieldsByTable.set(f.table_id, list);
  }
  const jsonUnfolding = driver.features.has('nested-field-columns');
  const seen = new Set<string>();
  const skipped: MetadataSyncResult['tablesSkipped'] = [];
  let added = 0;
  for (const introspected of introspection.tables) {
    signal?.throwIfAborted();
    // persisted models' tables (src/persistence) are Quarry's, not the database's
    if (isPersistenceSchema(introspected.schema)) continue;
    if (!fitsNameColumn(introspected.name) || !fitsNameColumn(introspected.schema)) {
      skipped.push({ schema: introspected.schema, table: introspected.name, reason: 'name too long' });
      ctx.log.warn({ db: database.id, schema: introspected.schema && loggedName(introspected.schema), table: loggedName(introspected.name) }, `skipping a table whose name is longer than ${NAME_MAX} characters`);
      continue;
    }
    const t = storableFields(ctx, database.id, introspected);
    const k = key(t.schema, t.name);
    seen.add(k);
    const existing = tableByKey.get(k);
    try {
      await ctx.db.transaction().execute(async (trx) => {
        const tableId = await syncTableRow(trx, ctx.dialect, database.id, existing, t, now);
        await syncFields(trx, tableId, t, existing ? fieldsByTable.get(existing.id) ?? [] : [], now, jsonUnfolding);
      });
      if (!existing) added += 1;
    } catch (error) {
      if (signal?.aborted) throw error;
      // One table the app DB refuses must not stop the others; it is tried again at the next sync.
      skipped.push({ schema: t.schema, table: t.name, reason: (error as Error).message });
      ctx.log.warn({ err: error, db: database.id, schema: t.schema, table: loggedName(t.name) }, 'syncing a table failed; skipped');
    }
  }
  const vanished = tables.filter((t) => t.active && !seen.has(key(t.schema, t.name))).map((t) => t.id);
  if (vanished.length) await ctx.db.updateTable('metabase_table').set({ active: false, updated_at: now }).where('id', 'in', vanished).execute();
  await syncForeignKeys(ctx, database.id, introspection, now);
  if (jsonUnfolding) await unfoldNestedFields(ctx, open, signal);
  return { tablesAdded: added, tablesRemoved: vanished.length, tablesSkipped: skipped };
}
