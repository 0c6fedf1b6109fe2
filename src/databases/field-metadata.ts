// Fields: reading and editing their metadata (an admin's edits are recorded so sync keeps them), their values
// (stored lists, remapped labels, search, lookups), remappings (dimensions) and summary counts.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, messageError, notFound } from '../http/errors.js';
import { nowIso, toJson } from '../appdb/portable.js';
import { collectRows } from '../drivers/shared/row-stream.js';
import type { FieldRow, TableRow } from './database-row.js';
import { databaseJson, dimensionJson, fieldJson, tableJson } from './json.js';
import { hydrateFields } from './hydrate.js';
import { effectiveTypeOf, isa } from './type-hierarchy.js';
import { deleteDimension, upsertDimension } from './dimensions.js';
import { deleteFieldValues, effectiveHasFieldValues, fieldValuesJson, isListField, loadFieldValues, saveFieldValues } from './field-values.js';
import { connectionFor } from './connections.js';
import { withAdminEdits } from '../sync/admin-edits.js';
import { countsSql, likePrefix, lookupSql, prefixSearchSql } from '../sync/sql.js';
import { scanField } from '../sync/field-values.js';
import { triggerSync } from '../sync/runner.js';
import { checkTableVisible } from './access.js';

const LOOKUP_TIMEOUT_MS = 60_000;

export async function fieldOr404(ctx: AppContext, id: number): Promise<FieldRow> {
  const row = await ctx.db.selectFrom('metabase_field').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

async function tableOf(ctx: AppContext, field: FieldRow): Promise<TableRow> {
  return ctx.db.selectFrom('metabase_table').selectAll().where('id', '=', field.table_id).executeTakeFirstOrThrow();
}

/** GET /api/field/:id: the field with its table (and the table's database), target, dimensions and name field. */
export async function getField(ctx: AppContext, caller: Caller, id: number) {
  const field = await fieldOr404(ctx, id);
  const table = await tableOf(ctx, field);
  const access = await checkTableVisible(ctx, caller, table);
  const database = await ctx.db.selectFrom('metabase_database').selectAll().where('id', '=', table.db_id).executeTakeFirstOrThrow();
  const [json] = await hydrateFields(ctx, [field], { target: true, dimensions: true, nameField: true });
  return { ...json, table: { ...tableJson(table), db: databaseJson(ctx, database, caller, access) } };
}

export interface FieldInput {
  visibility_type?: string;
  display_name?: string | null;
  points_of_interest?: string | null;
  description?: string | null;
  semantic_type?: string | null;
  coercion_strategy?: string | null;
  has_field_values?: string;
  settings?: Record<string, unknown> | null;
  caveats?: string | null;
  fk_target_field_id?: number | null;
  nfc_path?: string[] | null;
  json_unfolding?: boolean | null;
}

const PLAIN = ['display_name', 'points_of_interest', 'description', 'caveats', 'visibility_type'] as const;

export async function updateField(ctx: AppContext, caller: Caller, id: number, input: FieldInput, present: Set<string>) {
  const field = await fieldOr404(ctx, id);
  const changes: Record<string, unknown> = {};
  const edited: string[] = [];
  for (const key of PLAIN) {
    if (!present.has(key)) continue;
    if (key === 'display_name' && !input.display_name) continue;
    changes[key] = input[key] ?? null;
    edited.push(key);
  }
  if (present.has('semantic_type')) {
    changes.semantic_type = input.semantic_type ?? null;
    edited.push('semantic_type');
    // Leaving FK behind drops the FK target and the remapping through it.
    if (field.semantic_type === 'type/FK' && changes.semantic_type !== 'type/FK') {
      changes.fk_target_field_id = null;
      await ctx.db.deleteFrom('dimension').where('field_id', '=', id).where('type', '=', 'external').execute();
    }
  }
  if (present.has('fk_target_field_id')) {
    if (input.fk_target_field_id !== null && input.fk_target_field_id !== undefined) {
      const target = await ctx.db.selectFrom('metabase_field').select('id').where('id', '=', input.fk_target_field_id).executeTakeFirst();
      if (!target) throw badRequest('Invalid fk_target_field_id: no such field.');
    }
    changes.fk_target_field_id = input.fk_target_field_id ?? null;
    edited.push('fk_target_field_id');
  }
  if (present.has('coercion_strategy')) {
    changes.coercion_strategy = input.coercion_strategy ?? null;
    changes.effective_type = effectiveTypeOf(field.base_type, input.coercion_strategy);
    edited.push('coercion_strategy');
  }
  if (present.has('has_field_values') && input.has_field_values) {
    changes.has_field_values = input.has_field_values;
    edited.push('has_field_values');
  }
  if (present.has('settings')) changes.settings = toJson(input.settings ?? null);
  if (present.has('nfc_path')) changes.nfc_path = toJson(input.nfc_path ?? null);
  if (present.has('json_unfolding') && input.json_unfolding !== null && input.json_unfolding !== undefined) changes.json_unfolding = input.json_unfolding;
  if (Object.keys(changes).length) {
    await ctx.db
      .updateTable('metabase_field')
      .set({ ...changes, admin_edited: edited.length ? withAdminEdits(field, edited) : field.admin_edited, updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }
  const updated = await fieldOr404(ctx, id);
  if (present.has('json_unfolding') && Boolean(field.json_unfolding) !== Boolean(updated.json_unfolding)) {
    triggerSync(ctx, (await tableOf(ctx, updated)).db_id, 'schema');
  }
  const listNow = isListField(updated);
  if (present.has('has_field_values') || present.has('visibility_type')) {
    if (!listNow) await deleteFieldValues(ctx.db, [id]);
    else if (!(await loadFieldValues(ctx, [id])).has(id)) await rescanField(ctx, id).catch((error) => ctx.log.warn({ err: error, field: id }, 'scanning values failed'));
  }
  return getField(ctx, caller, id);
}

/** GET /api/field/:id/values: stored values for list fields (scanned on first ask), else an empty list. */
export async function getFieldValues(ctx: AppContext, id: number) {
  const field = await fieldOr404(ctx, id);
  if (effectiveHasFieldValues(field) !== 'list' || !isListField(field)) return fieldValuesJson(id, undefined);
  let stored = (await loadFieldValues(ctx, [id])).get(id);
  if (!stored) {
    await rescanField(ctx, id);
    stored = (await loadFieldValues(ctx, [id])).get(id);
  }
  return fieldValuesJson(id, stored);
}

export const VALUES_NOT_ALLOWED =
  "You can only update the human readable values of a mapped values of a Field whose value of `has_field_values` is `list` or whose 'base_type' is 'type/Boolean'.";

/** POST /api/field/:id/values: set the values and (all or none of) their human-readable labels. */
export async function setFieldValues(ctx: AppContext, id: number, pairs: unknown) {
  const field = await fieldOr404(ctx, id);
  const allowed = isListField(field) || isa(field.base_type, 'type/Boolean') || isa(field.semantic_type, 'type/Category');
  if (!allowed) throw badRequest(VALUES_NOT_ALLOWED);
  if (!Array.isArray(pairs) || !pairs.every((p) => Array.isArray(p) && (p.length === 1 || (p.length === 2 && (typeof p[1] === 'string' || p[1] === null))))) {
    throw messageError(400, 'values must be a list of [value] or [value, "human-readable name"] pairs.', {
      errors: { values: 'sequence of vectors of a value and an optional human-readable name' },
    });
  }
  const list = pairs as unknown[][];
  const values = list.map((p) => p[0]);
  const labelled = list.some((p) => p.length === 2 && p[1] !== null);
  const human = labelled ? list.map((p) => (p.length === 2 && p[1] !== null ? String(p[1]) : String(p[0]))) : null;
  const existing = (await loadFieldValues(ctx, [id])).get(id);
  await saveFieldValues(ctx.db, id, values, human, existing?.hasMoreValues ?? false);
  return { status: 'success' };
}

/** POST /api/field/:id/rescan_values: fetches the field's distinct values again (now). */
export async function rescanField(ctx: AppContext, id: number): Promise<void> {
  const field = await fieldOr404(ctx, id);
  const table = await tableOf(ctx, field);
  const open = await connectionFor(ctx, table.db_id);
  await scanField(ctx, open, field, table);
}

export async function discardFieldValues(ctx: AppContext, id: number): Promise<void> {
  await fieldOr404(ctx, id);
  await deleteFieldValues(ctx.db, [id]);
}

export async function setDimension(ctx: AppContext, id: number, type: string, name: string, humanReadableFieldId: number | null) {
  await fieldOr404(ctx, id);
  if (type === 'external') {
    if (humanReadableFieldId === null) throw badRequest('Foreign key based remappings require a human readable field id');
    await fieldOr404(ctx, humanReadableFieldId).catch(() => {
      throw badRequest('Invalid human_readable_field_id: no such field.');
    });
  }
  const row = await upsertDimension(ctx, id, type, name, humanReadableFieldId);
  return dimensionJson(row);
}

export async function removeDimension(ctx: AppContext, id: number): Promise<void> {
  await fieldOr404(ctx, id);
  await deleteDimension(ctx, id);
}

/** GET /api/field/:id/summary: [["count", n], ["distincts", n]]. */
export async function fieldSummary(ctx: AppContext, id: number) {
  const field = await fieldOr404(ctx, id);
  const table = await tableOf(ctx, field);
  const open = await connectionFor(ctx, table.db_id);
  const [[count, distincts]] = await collectRows(await open.connection.execute(countsSql(open.driver, table, field.name), [], { timeoutMs: LOOKUP_TIMEOUT_MS }));
  return [['count', Number(count)], ['distincts', Number(distincts)]];
}

/** GET /api/field/:id/related: the field's table and its sibling fields. */
export async function relatedToField(ctx: AppContext, id: number) {
  const field = await fieldOr404(ctx, id);
  const table = await tableOf(ctx, field);
  const siblings = await ctx.db.selectFrom('metabase_field').selectAll().where('table_id', '=', table.id).where('active', '=', true).where('id', '!=', id).where('visibility_type', 'not in', ['retired', 'sensitive']).orderBy('position').limit(10).execute();
  return { table: tableJson(table), fields: siblings.map(fieldJson), segments: [], metrics: [] };
}

/** A query-string value read as the field's type (so "42" matches an integer key). */
function typedValue(field: FieldRow, value: string): unknown {
  const type = field.effective_type ?? field.base_type;
  if (isa(type, 'type/Number') && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  if (isa(type, 'type/Boolean') && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return value;
}

/** Follows an FK to the field it points at (remapping and search look values up there). */
async function followFk(ctx: AppContext, field: FieldRow): Promise<FieldRow> {
  if (field.semantic_type === 'type/FK' && field.fk_target_field_id !== null) {
    return (await ctx.db.selectFrom('metabase_field').selectAll().where('id', '=', field.fk_target_field_id).executeTakeFirst()) ?? field;
  }
  return field;
}

/** GET /api/field/:id/search/:search-id?value=: values whose search field starts with `value` (case-insensitive). */
export async function searchFieldValues(ctx: AppContext, id: number, searchId: number, value: string, limit: number) {
  const field = await followFk(ctx, await fieldOr404(ctx, id));
  const searchField = await followFk(ctx, await fieldOr404(ctx, searchId));
  const table = await tableOf(ctx, searchField);
  const open = await connectionFor(ctx, table.db_id);
  const same = field.id === searchField.id;
  if (!same && field.table_id !== searchField.table_id) throw badRequest('The search field must belong to the same table as the field (or the table its foreign key points to).');
  const sql = prefixSearchSql(open.driver, table, field.name, same ? null : searchField.name, limit);
  return collectRows(await open.connection.execute(sql, [likePrefix(value)], { timeoutMs: LOOKUP_TIMEOUT_MS }));
}

/** GET /api/field/:id/remapping/:remapped-id?value=: [value, display] (just [value] when nothing matches). */
export async function remappedValue(ctx: AppContext, id: number, remappedId: number, value: string) {
  const field = await followFk(ctx, await fieldOr404(ctx, id));
  const remapped = await fieldOr404(ctx, remappedId);
  if (remapped.table_id !== field.table_id) throw badRequest('The remapped field must belong to the table the field points to.');
  const table = await tableOf(ctx, remapped);
  const open = await connectionFor(ctx, table.db_id);
  const typed = typedValue(field, value);
  const rows = await collectRows(await open.connection.execute(lookupSql(open.driver, table, field.name, remapped.name), [typed], { timeoutMs: LOOKUP_TIMEOUT_MS }));
  return rows.length ? [typed, rows[0][0]] : [typed];
}
