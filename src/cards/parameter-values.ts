// GET /api/card/:id/params/:key/values and /search/:query: the possible values of one of the card's parameters —
// from its static list, from another card's column, or from the field it filters (cached field values, else a
// DISTINCT query). At most 1,000 values, with `has_more_values`.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, forbidden } from '../http/errors.js';
import { collectionAccess } from '../permissions/collections.js';
import { dataAccess } from '../permissions/data-access.js';
import { parameterValues } from '../query/parameter-values.js';
import { readableCard } from './cards.js';
import { templateTags } from './query-info.js';
import { datasetQueryOf, parametersOf, type CardRow } from './store.js';
import { displayValueOf } from '../databases/field-metadata.js';

type Obj = Record<string, unknown>;

/** The card's parameters, or (older native cards) ones made from its template tags. */
export function cardParameters(card: CardRow): Obj[] {
  const own = parametersOf(card);
  if (own.length > 0) return own;
  return Object.values(templateTags(datasetQueryOf(card)))
    .filter((t) => t.type !== 'snippet' && t.type !== 'card')
    .map((t) => ({
      id: t.id,
      type: t['widget-type'] ?? (t.type === 'dimension' ? 'category' : t.type),
      target: [t.type === 'dimension' ? 'dimension' : 'variable', ['template-tag', t.name]],
      name: t['display-name'] ?? t.name,
      slug: t.name,
      default: t.default,
    }));
}

/** The field a parameter filters: a field ref target, or the field of the template tag it points at. */
export function fieldIdOf(card: CardRow, parameter: Obj): number | null {
  const target = parameter.target;
  if (!Array.isArray(target) || target[0] !== 'dimension' || !Array.isArray(target[1])) return null;
  const ref = target[1] as unknown[];
  if (ref[0] === 'field' && typeof ref[1] === 'number') return ref[1];
  if (ref[0] === 'template-tag') {
    const tags = templateTags(datasetQueryOf(card));
    const key = ref[1];
    const tag =
      typeof key === 'string'
        ? tags[key]
        : key && typeof key === 'object'
          ? Object.values(tags).find((t) => t.id === (key as Obj).id)
          : undefined;
    const dimension = tag?.dimension;
    if (Array.isArray(dimension) && dimension[0] === 'field' && typeof dimension[1] === 'number') return dimension[1];
  }
  return null;
}

/**
 * The values of one of a card's parameters. Whoever may read the card may see those of its own parameter field
 * (unless that data is blocked for them), as Metabase's parameter-values queries; a saved question used as the value
 * source is read with the caller's own permissions.
 */
export async function parameterValuesOfCard(ctx: AppContext, caller: Caller, card: CardRow, key: string, search: string | null) {
  const parameter = cardParameters(card).find((p) => String(p.id) === key);
  if (!parameter) throw badRequest(`Card does not have a parameter with the ID ${JSON.stringify(key)}`);
  const fieldId = fieldIdOf(card, parameter);
  return parameterValues(ctx, caller, parameter, fieldId === null ? [] : [fieldId], search);
}

export async function cardParameterValues(ctx: AppContext, caller: Caller, id: number, key: string, search: string | null) {
  const access = await collectionAccess(ctx, caller);
  const card = await readableCard(ctx, access, id);
  return parameterValuesOfCard(ctx, caller, card, key, search);
}

/**
 * GET /api/card/:id/params/:key/remapping?value=: the display value of one value of a card's parameter — its label
 * in a static list of `[value, label]` pairs, or the remapping of the field it filters — as `[value, label]`, or
 * `[value]` when it has none. Visible to whoever may read the card, like the parameter's values.
 */
export async function cardParameterRemapping(ctx: AppContext, caller: Caller, id: number, key: string, value: string): Promise<unknown[]> {
  const access = await collectionAccess(ctx, caller);
  const card = await readableCard(ctx, access, id);
  const parameter = cardParameters(card).find((p) => String(p.id) === key);
  if (!parameter) throw badRequest(`Card does not have a parameter with the ID ${JSON.stringify(key)}`);
  if (parameter.values_source_type === 'static-list') {
    const config = (parameter.values_source_config ?? {}) as Obj;
    const entries = Array.isArray(config.values) ? config.values : [];
    for (const entry of entries) {
      const pair = Array.isArray(entry) ? entry : [entry];
      if (String(pair[0]) === value) return pair.length > 1 ? [pair[0], pair[1]] : [pair[0]];
    }
    return [value];
  }
  const fieldId = fieldIdOf(card, parameter);
  if (fieldId === null) return [value];
  const table = await ctx.db
    .selectFrom('metabase_field')
    .innerJoin('metabase_table', 'metabase_table.id', 'metabase_field.table_id')
    .select(['metabase_table.id as id', 'metabase_table.db_id as db_id', 'metabase_table.schema as schema'])
    .where('metabase_field.id', '=', fieldId)
    .executeTakeFirst();
  if (table && (await dataAccess(ctx, caller)).isBlocked(table)) throw forbidden();
  return displayValueOf(ctx, fieldId, value, { allowSensitive: caller.isSuperuser });
}
