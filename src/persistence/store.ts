// `persisted_info` rows: one per model whose results are (to be) kept as a table in its database, and their states
// (reference B8): creating → refreshing → persisted | error; `off` (the model opted out; the row stays) and
// `deletable` (its database or the whole site turned persistence off); both have their table dropped by the prune.

import { createHash } from 'node:crypto';
import type { AppContext } from '../context.js';
import { bool, nowIso, parseJson, type Db } from '../appdb/portable.js';
import { insertReturningId } from '../appdb/portable.js';
import type { PersistedState } from './tables.js';
import { modelSlug, tableName } from './naming.js';
import { canonicalJson } from '../util/canonical-json.js';

/** States a model is refreshed from (Metabase's open-source list; `off` is an explicit opt-out here). */
export const REFRESHABLE: PersistedState[] = ['creating', 'refreshing', 'persisted', 'error'];
/** States whose tables the prune drops. */
export const PRUNABLE: PersistedState[] = ['deletable', 'off'];

export interface ModelCard {
  id: number;
  name: string;
  type: string;
  archived: boolean | number;
  database_id: number | null;
  dataset_query: string;
  result_metadata: string | null;
}

export interface FieldDefinition {
  'field-name': string;
  'base-type': string;
}

export interface Definition {
  'table-name': string;
  'field-definitions': FieldDefinition[];
}


/**
 * The hash of a card's stored query and the report time zone its table is built in: a persisted table is used only
 * while the model's query is the one it was built from, in the zone a live run would use (temporal values — dates
 * cut from instants, rendered hours — depend on it).
 */
export function datasetQueryHash(datasetQuery: string | unknown, reportTimezone: string | null): string {
  const value = typeof datasetQuery === 'string' ? parseJson<unknown>(datasetQuery, null) : datasetQuery;
  return createHash('sha256').update(canonicalJson(reportTimezone ? { query: value, 'report-timezone': reportTimezone } : value)).digest('hex');
}

/** The table's columns, from the model's result_metadata (effective type, else base type). */
export function definitionOf(card: Pick<ModelCard, 'id' | 'name' | 'result_metadata'>): Definition {
  const metadata = parseJson<Array<Record<string, unknown>>>(card.result_metadata, []);
  return {
    'table-name': tableName(card.id, card.name),
    'field-definitions': (Array.isArray(metadata) ? metadata : [])
      .filter((m) => m && typeof m.name === 'string')
      .map((m) => ({ 'field-name': String(m.name), 'base-type': String(m.effective_type ?? m.base_type ?? 'type/*') })),
  };
}

export async function rowOfCard(db: Db, cardId: number) {
  return db.selectFrom('persisted_info').selectAll().where('card_id', '=', cardId).executeTakeFirst();
}

export async function rowById(db: Db, id: number) {
  return db.selectFrom('persisted_info').selectAll().where('id', '=', id).executeTakeFirst();
}

export type PersistedRow = NonNullable<Awaited<ReturnType<typeof rowById>>>;

/**
 * A model turned on: a new row in `creating`, or its row back to `creating` when it had been switched off or made
 * deletable. Returns the row.
 */
export async function turnOnModel(ctx: AppContext, userId: number | null, card: ModelCard): Promise<PersistedRow> {
  const now = nowIso();
  const existing = await rowOfCard(ctx.db, card.id);
  if (existing) {
    if ((PRUNABLE as string[]).includes(existing.state)) {
      await ctx.db.updateTable('persisted_info').set({ state: 'creating', state_change_at: now, error: null }).where('id', '=', existing.id).execute();
    }
    return (await rowById(ctx.db, existing.id))!;
  }
  const definition = definitionOf(card);
  try {
    await insertReturningId(ctx.db, ctx.dialect, 'persisted_info', {
      database_id: card.database_id,
      card_id: card.id,
      question_slug: modelSlug(card.name),
      table_name: definition['table-name'],
      definition: JSON.stringify(definition),
      query_hash: null,
      active: false,
      state: 'creating',
      refresh_begin: now,
      refresh_end: null,
      state_change_at: now,
      error: null,
      created_at: now,
      creator_id: userId,
    });
  } catch (error) {
    // made at the same moment by another request (card_id is unique)
    if (!(await rowOfCard(ctx.db, card.id))) throw error;
  }
  return (await rowOfCard(ctx.db, card.id))!;
}

/** Non-archived models of a database. */
export async function modelsOf(db: Db, databaseId: number): Promise<ModelCard[]> {
  return db
    .selectFrom('report_card')
    .select(['id', 'name', 'type', 'archived', 'database_id', 'dataset_query', 'result_metadata'])
    .where('database_id', '=', databaseId)
    .where('type', '=', 'model')
    .where('archived', '=', false)
    .execute();
}

/**
 * A database (newly) enabled: every model without a row gets one in `creating`; rows made deletable go back to
 * `creating`; models switched off one by one stay off.
 */
export async function readyDatabase(ctx: AppContext, databaseId: number, userId: number | null): Promise<void> {
  const models = await modelsOf(ctx.db, databaseId);
  const rows = await ctx.db.selectFrom('persisted_info').select(['card_id', 'state']).where('database_id', '=', databaseId).execute();
  const known = new Set(rows.map((r) => r.card_id));
  for (const model of models) if (!known.has(model.id)) await turnOnModel(ctx, userId, model);
  await ctx.db
    .updateTable('persisted_info')
    .set({ state: 'creating', state_change_at: nowIso(), error: null })
    .where('database_id', '=', databaseId)
    .where('state', '=', 'deletable')
    .where('card_id', 'is not', null)
    .execute();
}

/** Marks rows for the prune: `deletable` (database or site disabled) or `off` (the model opted out). */
export async function markForPruning(db: Db, where: { databaseIds?: number[]; ids?: number[]; all?: boolean }, state: 'deletable' | 'off'): Promise<number> {
  let q = db.updateTable('persisted_info').set({ state, active: false, state_change_at: nowIso() });
  if (where.ids) q = q.where('id', 'in', where.ids.length ? where.ids : [-1]);
  else if (where.databaseIds) q = q.where('database_id', 'in', where.databaseIds.length ? where.databaseIds : [-1]);
  else if (!where.all) return 0;
  return Number((await q.executeTakeFirst()).numUpdatedRows);
}

/** Whether a model counts as persisted (`persisted` in card JSON): a row in a refreshable state. */
export async function persistedCardIds(db: Db, cardIds: number[]): Promise<Set<number>> {
  if (!cardIds.length) return new Set();
  const rows = await db.selectFrom('persisted_info').select('card_id').where('card_id', 'in', cardIds).where('state', 'in', REFRESHABLE).execute();
  return new Set(rows.map((r) => r.card_id!).filter((id) => id !== null));
}

export function isActive(row: { active: boolean | number }): boolean {
  return bool(row.active);
}
