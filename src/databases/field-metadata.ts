// Fields: reading and editing their metadata (an admin's edits are recorded so sync keeps them), their values
// (stored lists, remapped labels, search, lookups), remappings (dimensions) and summary counts.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, fieldError, forbidden, messageError, notFound } from '../http/errors.js';
import { nowIso, toJson } from '../appdb/portable.js';
import { collectRows } from '../drivers/shared/row-stream.js';
import type { FieldRow, TableRow } from './database-row.js';
import { databaseJson, dimensionJson, fieldJson, tableJson } from './json.js';
import { hydrateFields } from './hydrate.js';
import { effectiveTypeOf, isa, isCoercible } from './type-hierarchy.js';
import { deleteDimension, upsertDimension } from './dimensions.js';
import { deleteFieldValues, effectiveHasFieldValues, fieldValuesJson, isListField, loadFieldValues, saveFieldValues } from './field-values.js';
import { connectionFor, type OpenDatabase } from './connections.js';
import { withAdminEdits } from '../sync/admin-edits.js';
import { countsSql, likePrefix, lookupSql, prefixSearchSql, type Statement } from '../sync/sql.js';
import { scanField } from '../sync/field-values.js';
import { runExclusive, triggerSync } from '../sync/runner.js';
import { checkTableVisible } from './access.js';
import { fromSource } from './source-errors.js';

const LOOKUP_TIMEOUT_MS = 60_000;
/** How long a single field's rescan waits for a sync of its database running on another instance. */
const RESCAN_WAIT_MS = 30_000;

export const INCOMPATIBLE_COERCION = 'Incompatible coercion strategy.';
export const INVALID_FK_TARGET = 'Invalid target field';
export const PARTIAL_REMAPPING = 'If remapped values are specified, they must be specified for all field values';

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
  visibility_type?: string | null;
  display_name?: string | null;
  points_of_interest?: string | null;
  description?: string | null;
  semantic_type?: string | null;
  coercion_strategy?: string | null;
  has_field_values?: string | null;
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
    // visibility_type null (Metabase accepts it) leaves the visibility as it is.
    if (key === 'visibility_type' && !input.visibility_type) continue;
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
      if (!target) throw fieldError('fk_target_field_id', INVALID_FK_TARGET);
    }
    changes.fk_target_field_id = input.fk_target_field_id ?? null;
    edited.push('fk_target_field_id');
  }
  if (present.has('coercion_strategy')) {
    if (input.coercion_strategy && !isCoercible(input.coercion_strategy, field.base_type)) throw badRequest(INCOMPATIBLE_COERCION);
    changes.coercion_strategy = input.coercion_strategy ?? null;
    changes.effective_type = effectiveTypeOf(field.base_type, input.coercion_strategy);
    edited.push('coercion_strategy');
  }
  const released: string[] = [];
  if (present.has('has_field_values')) {
    // null: back to what sync infers (Metabase stores nil too), so the attribute is sync's again.
    changes.has_field_values = input.has_field_values ?? null;
    (input.has_field_values ? edited : released).push('has_field_values');
  }
  if (present.has('settings')) changes.settings = toJson(input.settings ?? null);
  if (present.has('nfc_path')) changes.nfc_path = toJson(input.nfc_path ?? null);
  if (present.has('json_unfolding') && input.json_unfolding !== null && input.json_unfolding !== undefined) changes.json_unfolding = input.json_unfolding;
  if (Object.keys(changes).length) {
    await ctx.db
      .updateTable('metabase_field')
      .set({ ...changes, admin_edited: edited.length || released.length ? withAdminEdits(field, edited, released) : field.admin_edited, updated_at: nowIso() })
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
  const allowed = isListField(field) || (isa(field.base_type, 'type/Boolean') && field.visibility_type !== 'sensitive' && field.visibility_type !== 'retired');
  if (!allowed) throw badRequest(VALUES_NOT_ALLOWED);
  if (!Array.isArray(pairs) || !pairs.every((p) => Array.isArray(p) && (p.length === 1 || (p.length === 2 && (typeof p[1] === 'string' || p[1] === null))))) {
    throw messageError(400, 'values must be a list of [value] or [value, "human-readable name"] pairs.', {
      errors: { values: 'sequence of vectors of a value and an optional human-readable name' },
    });
  }
  const list = pairs as unknown[][];
  const values = list.map((p) => p[0]);
  // A label is given for every value or for none (Metabase's rule: a pair's second element, even null, counts).
  const labelled = list.length > 0 && list.every((p) => p.length === 2);
  if (!labelled && list.some((p) => p.length === 2)) throw badRequest(PARTIAL_REMAPPING);
  const human = labelled && list.some((p) => p[1] !== null) ? list.map((p) => (p[1] !== null ? String(p[1]) : String(p[0]))) : null;
  const existing = (await loadFieldValues(ctx, [id])).get(id);
  await saveFieldValues(ctx.db, id, values, human, existing?.hasMoreValues ?? false);
  return { status: 'success' };
}

/**
 * POST /api/field/:id/rescan_values: fetches the field's distinct values again, now — only for fields that keep a
 * list of values (the sync's rule, `isListField`); others are left alone. Runs apart from any sync of the database
 * (its chain and lease); a data-source failure is a 400 with the driver's message.
 */
export async function rescanField(ctx: AppContext, id: number): Promise<void> {
  const field = await fieldOr404(ctx, id);
  if (!isListField(field)) return;
  const table = await tableOf(ctx, field);
  const open = await connectionFor(ctx, table.db_id);
  await runExclusive(ctx, table.db_id, (signal) => fromSource(async () => {
    // The field as it is once the sync queued before us has run (it may have changed or gone).
    const current = await ctx.db.selectFrom('metabase_field').selectAll().where('id', '=', id).executeTakeFirst();
    if (!current || !current.active || !isListField(current)) return;
    await scanField(ctx, open, current, table, signal);
  }), { waitMs: RESCAN_WAIT_MS });
}

/** Runs one statement on the data source and collects its rows; failures are a 400 with the driver's message. */
async function readRows(open: OpenDatabase, statement: Statement): Promise<unknown[][]> {
  return fromSource(async () => collectRows(await open.connection.execute(statement.sql, statement.params, { timeoutMs: LOOKUP_TIMEOUT_MS })));
}

/** Sensitive fields' values are for admins only (search and remapping would otherwise read them). */
function checkNotSensitive(fields: FieldRow[], allowSensitive: boolean): void {
  if (!allowSensitive && fields.some((f) => f.visibility_type === 'sensitive')) throw forbidden();
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
  const [[count, distincts]] = await readRows(open, countsSql(open.driver, table, field));
  return [['count', Number(count)], ['distincts', Number(distincts)]];
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

/**
 * GET /api/field/:id/search/:search-id?value=: values whose search field starts with `value` (case-insensitive).
 * Sensitive fields only with `allowSensitive` (admins).
 */
export async function searchFieldValues(ctx: AppContext, id: number, searchId: number, value: string, limit: number, options: { allowSensitive?: boolean } = {}) {
  const asked = [await fieldOr404(ctx, id), await fieldOr404(ctx, searchId)];
  const field = await followFk(ctx, asked[0]);
  const searchField = await followFk(ctx, asked[1]);
  checkNotSensitive([...asked, field, searchField], options.allowSensitive === true);
  const table = await tableOf(ctx, searchField);
  const open = await connectionFor(ctx, table.db_id);
  const same = field.id === searchField.id;
  if (!same && field.table_id !== searchField.table_id) throw badRequest('The search field must belong to the same table as the field (or the table its foreign key points to).');
  return readRows(open, prefixSearchSql(open.driver, table, field, same ? null : searchField, likePrefix(value), limit));
}

/**
 * GET /api/field/:id/remapping/:remapped-id?value=: [value, display] for the first row whose field equals `value`.
 * When no row matches, or the data source can't answer, nothing (Metabase's nil: an empty 204), never a 500.
 * Sensitive fields only with `allowSensitive` (admins).
 */
export async function remappedValue(ctx: AppContext, id: number, remappedId: number, value: string, options: { allowSensitive?: boolean } = {}) {
  const asked = await fieldOr404(ctx, id);
  const field = await followFk(ctx, asked);
  const remapped = await fieldOr404(ctx, remappedId);
  checkNotSensitive([asked, field, remapped], options.allowSensitive === true);
  if (remapped.table_id !== field.table_id) throw badRequest('The remapped field must belong to the table the field points to.');
  const table = await tableOf(ctx, remapped);
  const open = await connectionFor(ctx, table.db_id);
  const typed = typedValue(field, value);
  let rows: unknown[][];
  try {
    rows = await readRows(open, lookupSql(open.driver, table, field, remapped, typed));
  } catch (error) {
    ctx.log.warn({ err: error, field: id, remapped: remappedId }, 'looking up a remapped value failed');
    return null;
  }
  return rows.length ? [typed, rows[0][0]] : null;
}

/**
 * The display value of one value of a field, as a filter widget shows it: `[value, display]` through the field's
 * remapping — another field (an FK's remapping, or the name field of the table its key identifies) or the custom
 * labels of its values — and `[value]` when nothing remaps it or no row matches.
 */
export async function displayValueOf(ctx: AppContext, id: number, value: string, options: { allowSensitive?: boolean } = {}): Promise<unknown[]> {
  const asked = await fieldOr404(ctx, id);
  const key = await followFk(ctx, asked);
  const typed = typedValue(key, value);
  const dimension = await ctx.db.selectFrom('dimension').select(['type', 'human_readable_field_id']).where('field_id', '=', id).executeTakeFirst();
  if (dimension?.type === 'internal') {
    const stored = (await loadFieldValues(ctx, [id])).get(id);
    const index = stored?.values.findIndex((v) => String(v) === value) ?? -1;
    const label = index >= 0 ? stored?.humanReadable?.[index] : undefined;
    return label === undefined || label === null ? [typed] : [stored!.values[index], label];
  }
  let remappedId = dimension?.type === 'external' ? dimension.human_readable_field_id : null;
  if (remappedId === null && (asked.semantic_type === 'type/FK' || asked.semantic_type === 'type/PK')) {
    const name = await ctx.db
      .selectFrom('metabase_field')
      .select('id')
      .where('table_id', '=', key.table_id)
      .where('semantic_type', 'in', ['type/Name', 'type/Title'])
      .where('active', '=', true)
      .orderBy('position')
      .executeTakeFirst();
    remappedId = name?.id ?? null;
  }
  if (remappedId === null) return [typed];
  return (await remappedValue(ctx, id, remappedId, value, options)) ?? [typed];
}
