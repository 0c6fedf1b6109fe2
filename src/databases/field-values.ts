// Stored field values (metabase_fieldvalues): the distinct values of a list field, with optional human-readable
// remappings, as the API shows them: {"field_id", "values": [[v] | [v, "label"]], "has_more_values"}.

import type { AppContext } from '../context.js';
import type { Db } from '../appdb/portable.js';
import { bool, nowIso, parseJson } from '../appdb/portable.js';
import type { FieldRow } from './database-row.js';
import { isa } from './type-hierarchy.js';

export interface StoredFieldValues {
  fieldId: number;
  values: unknown[];
  humanReadable: string[] | null;
  hasMoreValues: boolean;
}

/** has_field_values as clients see it: stored value (auto-list reads as list) or inferred from the type. */
export function effectiveHasFieldValues(field: Pick<FieldRow, 'has_field_values' | 'base_type' | 'semantic_type' | 'visibility_type'>): string {
  if (field.has_field_values === 'auto-list') return 'list';
  if (field.has_field_values) return field.has_field_values;
  if (field.semantic_type === 'type/PK' || field.semantic_type === 'type/FK') return 'none';
  if (field.base_type === 'type/Text' || field.base_type?.startsWith('type/Text') || field.base_type === 'type/PostgresEnum' || field.base_type === 'type/MySQLEnum') return 'search';
  return 'none';
}

const NO_VALUES_VISIBILITY = new Set(['retired', 'sensitive', 'hidden', 'details-only']);

/**
 * Whether the field keeps a list of its distinct values (Metabase's rule, used by sync, rescans and the values
 * endpoints): has_field_values list or auto-list, not temporal, and not retired, sensitive, hidden or details-only.
 */
export function isListField(field: Pick<FieldRow, 'has_field_values' | 'visibility_type' | 'base_type'>): boolean {
  return (
    (field.has_field_values === 'list' || field.has_field_values === 'auto-list') &&
    !NO_VALUES_VISIBILITY.has(field.visibility_type) &&
    !isa(field.base_type, 'type/Temporal')
  );
}

export async function loadFieldValues(ctx: AppContext, fieldIds: number[]): Promise<Map<number, StoredFieldValues>> {
  const out = new Map<number, StoredFieldValues>();
  if (!fieldIds.length) return out;
  const rows = await ctx.db.selectFrom('metabase_fieldvalues').selectAll().where('field_id', 'in', fieldIds).where('type', '=', 'full').execute();
  for (const row of rows) {
    out.set(row.field_id, {
      fieldId: row.field_id,
      values: parseJson<unknown[]>(row.values, []),
      humanReadable: parseJson<string[] | null>(row.human_readable_values, null),
      hasMoreValues: bool(row.has_more_values),
    });
  }
  return out;
}

export async function saveFieldValues(db: Db, fieldId: number, values: unknown[], humanReadable: string[] | null, hasMoreValues: boolean): Promise<void> {
  const now = nowIso();
  const human = humanReadable && humanReadable.length ? JSON.stringify(humanReadable) : null;
  const updated = await db
    .updateTable('metabase_fieldvalues')
    .set({ values: JSON.stringify(values), human_readable_values: human, has_more_values: hasMoreValues, updated_at: now })
    .where('field_id', '=', fieldId)
    .where('type', '=', 'full')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  await db
    .insertInto('metabase_fieldvalues')
    .values({ field_id: fieldId, values: JSON.stringify(values), human_readable_values: human, has_more_values: hasMoreValues, type: 'full', last_used_at: now, created_at: now, updated_at: now })
    .execute();
}

export async function deleteFieldValues(db: Db, fieldIds: number[]): Promise<void> {
  if (!fieldIds.length) return;
  await db.deleteFrom('metabase_fieldvalues').where('field_id', 'in', fieldIds).execute();
}

/** The API pairs: [[v], …] or [[v, "label"], …] when there are remappings. */
export function valuePairs(stored: StoredFieldValues | undefined): unknown[][] {
  if (!stored) return [];
  const human = stored.humanReadable;
  return stored.values.map((v, i) => (human && human[i] !== undefined && human[i] !== null ? [v, human[i]] : [v]));
}

export function fieldValuesJson(fieldId: number, stored: StoredFieldValues | undefined): Record<string, unknown> {
  return { field_id: fieldId, values: valuePairs(stored), has_more_values: stored?.hasMoreValues ?? false };
}
