// Step 3 of a sync ("rescan values"): for every list field, fetch its distinct values and store them for filter
// dropdowns — Metabase's limits: at most 1,000 values and 100,000 characters in all (1,000 values of 100 characters;
// one value may be longer, as in Metabase, which caps only the total). Values are read in order until the next one
// would pass the total; then has_more_values is true. An auto-list field whose values don't all fit (too many, or too
// much text) stops being an auto-list (it gets a search box instead); a field an admin set to list keeps the values
// that fit, with has_more_values. Human-readable remappings an admin set are carried over to the values that still
// exist.

import type { AppContext } from '../context.js';
import type { OpenDatabase } from '../databases/connections.js';
import type { FieldRow } from '../databases/database-row.js';
import { collectRows } from '../drivers/shared/row-stream.js';
import { deleteFieldValues, isListField, loadFieldValues, saveFieldValues } from '../databases/field-values.js';
import { nowIso } from '../appdb/portable.js';
import { canReadColumn, distinctValuesSql, type ColumnRef } from './sql.js';

export const MAX_DISTINCT_VALUES = 1000;
/** Metabase's entry-max-length: not a cap on one value, the unit of the total below. */
export const VALUE_LENGTH_UNIT = 100;
export const MAX_TOTAL_LENGTH = MAX_DISTINCT_VALUES * VALUE_LENGTH_UNIT;
const SCAN_TIMEOUT_MS = 2 * 60_000;

export interface ScannedValues {
  values: unknown[];
  /** The values are a subset of the column's: more than 1,000, or more than 100,000 characters in all. */
  hasMoreValues: boolean;
}

export async function distinctValues(open: OpenDatabase, table: { schema: string | null; name: string }, column: ColumnRef, signal?: AbortSignal): Promise<ScannedValues> {
  const statement = distinctValuesSql(open.driver, table, column, MAX_DISTINCT_VALUES + 1);
  const stream = await open.connection.execute(statement.sql, statement.params, { signal, timeoutMs: SCAN_TIMEOUT_MS });
  const rows = await collectRows(stream);
  const values: unknown[] = [];
  let total = 0;
  let hasMoreValues = rows.length > MAX_DISTINCT_VALUES;
  for (const [value] of rows.slice(0, MAX_DISTINCT_VALUES)) {
    const length = typeof value === 'string' ? value.length : String(value).length;
    if (total + length > MAX_TOTAL_LENGTH) {
      hasMoreValues = true;
      break;
    }
    total += length;
    values.push(value);
  }
  return { values, hasMoreValues };
}

/**
 * Rescans one field's values and stores them (or demotes an auto-list field whose values don't all fit). Callers
 * check that the field qualifies (`isListField`).
 */
export async function scanField(ctx: AppContext, open: OpenDatabase, field: FieldRow, table: { schema: string | null; name: string }, signal?: AbortSignal): Promise<void> {
  const scanned = await distinctValues(open, table, field, signal);
  if (scanned.hasMoreValues && field.has_field_values === 'auto-list') {
    await deleteFieldValues(ctx.db, [field.id]);
    await ctx.db.updateTable('metabase_field').set({ has_field_values: null, updated_at: nowIso() }).where('id', '=', field.id).execute();
    return;
  }
  const previous = (await loadFieldValues(ctx, [field.id])).get(field.id);
  let human: string[] | null = null;
  if (previous?.humanReadable) {
    const labels = new Map(previous.values.map((v, i) => [JSON.stringify(v), previous.humanReadable![i]]));
    human = scanned.values.map((v) => labels.get(JSON.stringify(v)) ?? String(v));
  }
  await saveFieldValues(ctx.db, field.id, scanned.values, human, scanned.hasMoreValues);
}

/** Rescans the values of every list field of the database (or only `fieldIds`). */
export async function scanFieldValues(ctx: AppContext, open: OpenDatabase, options: { fieldIds?: number[]; tableIds?: number[]; signal?: AbortSignal } = {}): Promise<number> {
  let query = ctx.db
    .selectFrom('metabase_field as f')
    .innerJoin('metabase_table as t', 't.id', 'f.table_id')
    .selectAll('f')
    .select(['t.schema as table_schema', 't.name as table_name'])
    .where('t.db_id', '=', open.database.id)
    .where('t.active', '=', true)
    .where('f.active', '=', true);
  if (options.fieldIds) query = query.where('f.id', 'in', options.fieldIds.length ? options.fieldIds : [-1]);
  if (options.tableIds) query = query.where('t.id', 'in', options.tableIds.length ? options.tableIds : [-1]);
  const fields = await query.execute();
  let scanned = 0;
  for (const field of fields) {
    if (!isListField(field) || !canReadColumn(open.driver, field)) continue;
    options.signal?.throwIfAborted();
    try {
      await scanField(ctx, open, field, { schema: field.table_schema, name: field.table_name }, options.signal);
      scanned += 1;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      ctx.log.warn({ err: error, field: field.id }, 'scanning field values failed');
    }
  }
  return scanned;
}
