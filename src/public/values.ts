// Filter values and field lookups of shared content. Only the fields the card's or dashboard's parameters are wired
// to may be read, and a search or remapping only through the field shown for them (its remapping, the name field of
// the table it points to); values come from the same code the signed-in endpoints use, run as the sharing identity.

import type { AppContext } from '../context.js';
import { badRequest } from '../http/errors.js';
import { SHARING_CALLER } from '../permissions/sharing.js';
import type { CardRow } from '../cards/store.js';
import { parameterValuesOfCard } from '../cards/parameter-values.js';
import type { DashboardRow } from '../dashboards/store.js';
import { parameterValuesOfDashboard } from '../dashboards/chain-filter.js';
import { parameterFieldIds } from '../dashboards/parameters.js';
import { getFieldValues, remappedValue, searchFieldValues } from '../databases/field-metadata.js';
import { cardParameterFieldIds, visibleDashcards } from './shapes.js';

const FIELD_NOT_USED = 'Field is not used by this shared item.';

export function cardParameterValues(ctx: AppContext, card: CardRow, key: string, search: string | null) {
  return parameterValuesOfCard(ctx, SHARING_CALLER, card, key, search);
}

export function dashboardParameterValues(ctx: AppContext, dashboard: DashboardRow, key: string, constraints: Record<string, unknown>, search: string | null) {
  return parameterValuesOfDashboard(ctx, SHARING_CALLER, dashboard, key, constraints, search);
}

/** The fields a dashboard's filters are wired to. */
export async function dashboardFieldIds(ctx: AppContext, dashboard: DashboardRow): Promise<number[]> {
  const { dashcards, cards } = await visibleDashcards(ctx, dashboard.id);
  return [...new Set([...parameterFieldIds(dashcards, cards).values()].flatMap((s) => [...s]))];
}

export function cardFieldIds(card: CardRow): number[] {
  return cardParameterFieldIds(card);
}

/** Fields that may stand in for `fieldId` in a search or remapping: itself, its remapping, the name field it shows. */
async function companions(ctx: AppContext, fieldId: number): Promise<Set<number>> {
  const out = new Set<number>([fieldId]);
  const field = await ctx.db.selectFrom('metabase_field').select(['id', 'table_id', 'semantic_type', 'fk_target_field_id']).where('id', '=', fieldId).executeTakeFirst();
  if (!field) return out;
  const dimensions = await ctx.db.selectFrom('dimension').select('human_readable_field_id').where('field_id', '=', fieldId).execute();
  for (const d of dimensions) if (d.human_readable_field_id !== null) out.add(d.human_readable_field_id);
  const tables = new Set<number>();
  if (field.semantic_type === 'type/PK') tables.add(field.table_id);
  if (field.fk_target_field_id !== null) {
    out.add(field.fk_target_field_id);
    const target = await ctx.db.selectFrom('metabase_field').select('table_id').where('id', '=', field.fk_target_field_id).executeTakeFirst();
    if (target) tables.add(target.table_id);
  }
  if (tables.size) {
    const names = await ctx.db
      .selectFrom('metabase_field')
      .select('id')
      .where('table_id', 'in', [...tables])
      .where('semantic_type', 'in', ['type/Name', 'type/Title'])
      .where('active', '=', true)
      .execute();
    for (const n of names) out.add(n.id);
  }
  return out;
}

function checkUsed(allowed: number[], fieldId: number): void {
  if (!allowed.includes(fieldId)) throw badRequest(FIELD_NOT_USED);
}

export async function sharedFieldValues(ctx: AppContext, allowed: number[], fieldId: number) {
  checkUsed(allowed, fieldId);
  return getFieldValues(ctx, fieldId);
}

export async function sharedFieldSearch(ctx: AppContext, allowed: number[], fieldId: number, searchFieldId: number, value: string, limit: number) {
  checkUsed(allowed, fieldId);
  if (!(await companions(ctx, fieldId)).has(searchFieldId)) throw badRequest(FIELD_NOT_USED);
  return searchFieldValues(ctx, fieldId, searchFieldId, value, limit);
}

export async function sharedFieldRemapping(ctx: AppContext, allowed: number[], fieldId: number, remappedId: number, value: string) {
  checkUsed(allowed, fieldId);
  if (!(await companions(ctx, fieldId)).has(remappedId)) throw badRequest(FIELD_NOT_USED);
  return remappedValue(ctx, fieldId, remappedId, value);
}
