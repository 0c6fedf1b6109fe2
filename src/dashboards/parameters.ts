// Dashboard parameters and how they reach cards: which fields a parameter is wired to (through each dashcard's
// `parameter_mappings`: MBQL field refs, or a native card's field-filter template tag), the parameters a dashcard's
// query runs with, and each user's last used values.

import type { AppContext } from '../context.js';
import { badRequest } from '../http/errors.js';
import { nowIso, parseJson, toJson, type Db } from '../appdb/portable.js';
import { normalizeFieldish } from '../query/mbql/normalize.js';
import type { CardRow } from '../cards/store.js';
import { mappingsOf, type DashcardRow } from './store.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A mapping target's kind and inner reference: ["dimension", ref, opts?] / ["variable", ["template-tag", name]]. */
export function targetParts(target: unknown): { kind: string; ref: unknown } | null {
  if (!Array.isArray(target) || typeof target[0] !== 'string') return null;
  return { kind: target[0].toLowerCase().replace(/_/g, '-'), ref: target[1] };
}

/** The template tag a `["template-tag", name | {id}]` reference names in a native card. */
export function templateTagOf(card: Pick<CardRow, 'dataset_query'> | null | undefined, ref: unknown): Obj | null {
  if (!card || !Array.isArray(ref) || String(ref[0]).replace(/_/g, '-') !== 'template-tag') return null;
  const query = parseJson<Obj>(card.dataset_query, {});
  const native = isObj(query.native) ? query.native : null;
  const tags = native && isObj(native['template-tags']) ? (native['template-tags'] as Obj) : {};
  const key = ref[1];
  if (typeof key === 'string') return isObj(tags[key]) ? (tags[key] as Obj) : null;
  if (isObj(key) && typeof key.id === 'string') {
    return (Object.values(tags).find((t) => isObj(t) && t.id === key.id) as Obj | undefined) ?? null;
  }
  return null;
}

/** The field id a `["field", id, …]` ref (in any legacy spelling) points at, or null for name refs. */
export function fieldIdOfRef(ref: unknown): number | null {
  const normalized = normalizeFieldish(ref);
  if (Array.isArray(normalized) && normalized[0] === 'field' && typeof normalized[1] === 'number') return normalized[1];
  return null;
}

/** The field a mapping target filters on: the field of an MBQL dimension, or of a native field filter. */
export function targetFieldId(target: unknown, card: Pick<CardRow, 'dataset_query'> | null | undefined): number | null {
  const parts = targetParts(target);
  if (!parts || parts.kind !== 'dimension') return null;
  const tag = templateTagOf(card, parts.ref);
  if (tag) return tag.type === 'dimension' ? fieldIdOfRef(tag.dimension) : null;
  return fieldIdOfRef(parts.ref);
}

/** For each dashboard parameter id, the fields it is wired to (over every dashcard and mapping). */
export function parameterFieldIds(dashcards: DashcardRow[], cards: Map<number, CardRow>): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const dashcard of dashcards) {
    for (const mapping of mappingsOf(dashcard)) {
      const parameterId = mapping.parameter_id;
      if (typeof parameterId !== 'string') continue;
      const cardId = typeof mapping.card_id === 'number' ? mapping.card_id : dashcard.card_id;
      const fieldId = targetFieldId(mapping.target, cardId === null ? null : cards.get(cardId));
      if (fieldId === null) continue;
      const set = out.get(parameterId) ?? new Set<number>();
      set.add(fieldId);
      out.set(parameterId, set);
    }
  }
  return out;
}

/**
 * The parameters a dashcard's card runs with: each requested dashboard parameter that is mapped to this card on
 * this dashcard, with the mapping's target and the dashboard parameter's type. Requested parameters the dashboard
 * doesn't have are a 400; ones not mapped to this card are ignored. A required parameter that wasn't sent runs with
 * its default.
 */
export function dashcardQueryParameters(
  dashboardId: number,
  dashboardParameters: Obj[],
  dashcard: DashcardRow,
  cardId: number,
  requested: Obj[],
): Obj[] {
  const definitions = new Map(dashboardParameters.filter((p) => typeof p.id === 'string').map((p) => [p.id as string, p]));
  const byId = new Map<string, Obj>();
  for (const parameter of requested) {
    const id = parameter.id;
    if (typeof id !== 'string') continue;
    if (!definitions.has(id)) throw badRequest(`Dashboard ${dashboardId} does not have a parameter with ID ${JSON.stringify(id)}.`);
    byId.set(id, parameter);
  }
  const out: Obj[] = [];
  for (const mapping of mappingsOf(dashcard)) {
    const parameterId = mapping.parameter_id;
    if (typeof parameterId !== 'string') continue;
    const mappedCard = typeof mapping.card_id === 'number' ? mapping.card_id : dashcard.card_id;
    if (mappedCard !== cardId) continue;
    const definition = definitions.get(parameterId);
    if (!definition) continue;
    const sent = byId.get(parameterId);
    let value: unknown;
    if (sent) value = sent.value;
    else if (definition.required === true && definition.default !== undefined && definition.default !== null) value = definition.default;
    else continue;
    out.push({
      id: parameterId,
      type: (sent?.type as string | undefined) ?? definition.type,
      value,
      target: mapping.target,
      ...(definition.slug !== undefined ? { slug: definition.slug } : {}),
      ...(definition.name !== undefined ? { name: definition.name } : {}),
    });
  }
  return out;
}

/** The caller's last used filter values on a dashboard: parameter id → value. */
export async function lastUsedParameterValues(db: Db, userId: number, dashboardId: number): Promise<Record<string, unknown>> {
  const rows = await db
    .selectFrom('user_parameter_value')
    .select(['parameter_id', 'value'])
    .where('user_id', '=', userId)
    .where('dashboard_id', '=', dashboardId)
    .execute();
  const out: Record<string, unknown> = {};
  for (const row of rows) out[row.parameter_id] = parseJson(row.value, null);
  return out;
}

const PARAMETER_ID_MAX = 64;

/** Remembers the values the caller ran a dashboard's cards with (null is remembered as null). */
export async function rememberParameterValues(ctx: AppContext, userId: number, dashboardId: number, parameters: Obj[]): Promise<void> {
  const values = new Map<string, unknown>();
  // (user_parameter_value.parameter_id holds 64 characters: a longer id, never one the UI makes, isn't remembered)
  for (const p of parameters) if (typeof p.id === 'string' && [...p.id].length <= PARAMETER_ID_MAX) values.set(p.id, p.value ?? null);
  if (values.size === 0) return;
  const now = nowIso();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('user_parameter_value')
        .select(['id', 'parameter_id', 'value'])
        .where('user_id', '=', userId)
        .where('dashboard_id', '=', dashboardId)
        .where('parameter_id', 'in', [...values.keys()])
        .execute();
      const byParameter = new Map(existing.map((r) => [r.parameter_id, r]));
      for (const [parameterId, value] of values) {
        const text = toJson(value) ?? 'null';
        const row = byParameter.get(parameterId);
        if (row) {
          if (row.value !== text) await trx.updateTable('user_parameter_value').set({ value: text, updated_at: now }).where('id', '=', row.id).execute();
        } else {
          await trx
            .insertInto('user_parameter_value')
            .values({ user_id: userId, dashboard_id: dashboardId, parameter_id: parameterId, value: text, updated_at: now })
            .execute();
        }
      }
    });
  } catch (error) {
    // Two page loads racing to insert the same row: the other one won, which is fine.
    ctx.log.debug({ err: error }, 'could not remember dashboard parameter values');
  }
}
