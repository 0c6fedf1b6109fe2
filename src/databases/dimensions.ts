// Field remappings ("dimensions"): internal (show the field's values through labels stored with its field
// values) or external (show another field, e.g. PRODUCT_ID as PRODUCTS.TITLE). One per field.

import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { DimensionTable } from './tables.js';
import { nowIso } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';

export type DimensionRow = Selectable<DimensionTable>;

export async function dimensionsOf(ctx: AppContext, fieldIds: number[]): Promise<Map<number, DimensionRow[]>> {
  const out = new Map<number, DimensionRow[]>();
  if (!fieldIds.length) return out;
  const rows = await ctx.db.selectFrom('dimension').selectAll().where('field_id', 'in', fieldIds).orderBy('id').execute();
  for (const row of rows) {
    const list = out.get(row.field_id) ?? [];
    list.push(row);
    out.set(row.field_id, list);
  }
  return out;
}

/** Creates or replaces the field's dimension; returns it. */
export async function upsertDimension(ctx: AppContext, fieldId: number, type: string, name: string, humanReadableFieldId: number | null): Promise<DimensionRow> {
  const now = nowIso();
  const existing = await ctx.db.selectFrom('dimension').selectAll().where('field_id', '=', fieldId).executeTakeFirst();
  const values = { type, name, human_readable_field_id: type === 'external' ? humanReadableFieldId : null, updated_at: now };
  if (existing) {
    await ctx.db.updateTable('dimension').set(values).where('id', '=', existing.id).execute();
  } else {
    await ctx.db.insertInto('dimension').values({ ...values, entity_id: newEntityId(), field_id: fieldId, created_at: now }).execute();
  }
  return ctx.db.selectFrom('dimension').selectAll().where('field_id', '=', fieldId).executeTakeFirstOrThrow();
}

export async function deleteDimension(ctx: AppContext, fieldId: number): Promise<void> {
  await ctx.db.deleteFrom('dimension').where('field_id', '=', fieldId).execute();
}
