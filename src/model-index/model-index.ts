// /api/model-index: indexing a model's records by one text column so search finds them (`indexed-entity`).
//   POST   {model_id, pk_ref, value_ref} — the caller may curate the model; pk_ref names a column of the model's
//          results that is its primary key and an integer, value_ref a text column; indexed at once, then after the
//          database's daily field-values scan.
//   GET    ?model_id= (the indexes of a model the caller may read), GET /:id, DELETE /:id (curators of the model).
// Metabase's messages; unlike Metabase, a card that isn't a model can't be indexed (400) and a model without
// result metadata is a 400, not a 500.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso, parseJson, toJson } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { readableCard, writableCard } from '../cards/cards.js';
import { resultMetadataOf, type CardRow } from '../cards/store.js';
import { isa } from '../databases/type-hierarchy.js';
import { normalizeFieldish } from '../query/mbql/normalize.js';
import { indexModel, type ModelIndexRow } from './indexing.js';

type Obj = Record<string, unknown>;

export function modelIndexJson(row: ModelIndexRow) {
  return {
    id: row.id,
    model_id: row.model_id,
    pk_ref: parseJson(row.pk_ref, null),
    value_ref: parseJson(row.value_ref, null),
    state: row.state,
    error: row.error,
    generation: Number(row.generation),
    creator_id: row.creator_id,
    created_at: row.created_at,
    indexed_at: row.indexed_at,
    // refreshed after the daily field-values scan of the model's database, on its schedule
    schedule: null as string | null,
  };
}

async function withSchedules(ctx: AppContext, rows: ModelIndexRow[]) {
  const models = rows.length
    ? await ctx.db
        .selectFrom('report_card')
        .innerJoin('metabase_database', 'metabase_database.id', 'report_card.database_id')
        .select(['report_card.id as id', 'metabase_database.cache_field_values_schedule as schedule', 'metabase_database.is_full_sync as full'])
        .where('report_card.id', 'in', [...new Set(rows.map((r) => r.model_id))])
        .execute()
    : [];
  return rows.map((row) => {
    const model = models.find((m) => m.id === row.model_id);
    // only "full sync" databases scan their field values on a schedule
    return { ...modelIndexJson(row), schedule: model && bool(model.full) ? model.schedule : null };
  });
}

function checkIsModel(card: CardRow, id: number): void {
  if (card.type !== 'model') throw badRequest(`Question ${id} is not a model`);
}

/** A field ref in one spelling, for comparing. */
function refKey(ref: unknown): string {
  try {
    const normalized = normalizeFieldish(ref);
    return JSON.stringify(Array.isArray(normalized) && normalized[0] === 'field' ? [normalized[0], normalized[1], normalized[2] ?? null] : normalized);
  } catch {
    return JSON.stringify(ref);
  }
}

/** The model's result column `ref` names, of the kind asked for (Metabase's `ensure-type`). */
function checkColumn(metadata: Obj[], ref: unknown, slot: 'semantic_type' | 'effective_type', type: string): void {
  const column = metadata.find((c) => refKey(c.field_ref) === refKey(ref));
  if (!column) throw badRequest(`Could not identify field by ref ${JSON.stringify(ref)}`);
  const actual = (slot === 'effective_type' ? column.effective_type ?? column.base_type : column.semantic_type) as string | null | undefined;
  if (!isa(actual, type)) throw badRequest(`Field is not of :${slot} \`:${type}\``);
}

export async function createModelIndex(ctx: AppContext, caller: Caller, input: { model_id: number; pk_ref: unknown; value_ref: unknown }) {
  const access = await collectionAccess(ctx, caller);
  const model = await writableCard(ctx, access, input.model_id);
  checkIsModel(model, input.model_id);
  const metadata = (resultMetadataOf(model) ?? []) as Obj[];
  if (!metadata.length) throw badRequest('Model has no metadata. Cannot index');
  checkColumn(metadata, input.pk_ref, 'semantic_type', 'type/PK');
  checkColumn(metadata, input.pk_ref, 'effective_type', 'type/Integer');
  checkColumn(metadata, input.value_ref, 'effective_type', 'type/Text');
  const id = await insertReturningId(ctx.db, ctx.dialect, 'model_index', {
    model_id: model.id,
    pk_ref: toJson(normalizeFieldish(input.pk_ref)),
    value_ref: toJson(normalizeFieldish(input.value_ref)),
    state: 'initial',
    error: null,
    creator_id: caller.user.id,
    created_at: nowIso(),
    indexed_at: null,
  });
  await indexModel(ctx, await requireIndex(ctx, id));
  return (await withSchedules(ctx, [await requireIndex(ctx, id)]))[0];
}

async function requireIndex(ctx: AppContext, id: number): Promise<ModelIndexRow> {
  const row = await ctx.db.selectFrom('model_index').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function listModelIndexes(ctx: AppContext, caller: Caller, modelId: number) {
  const model = await readableCard(ctx, await collectionAccess(ctx, caller), modelId);
  checkIsModel(model, modelId);
  return withSchedules(ctx, await ctx.db.selectFrom('model_index').selectAll().where('model_id', '=', modelId).orderBy('id').execute());
}

export async function getModelIndex(ctx: AppContext, caller: Caller, id: number) {
  const index = await requireIndex(ctx, id);
  const model = await readableCard(ctx, await collectionAccess(ctx, caller), index.model_id);
  checkIsModel(model, id);
  return (await withSchedules(ctx, [index]))[0];
}

export async function deleteModelIndex(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const index = await requireIndex(ctx, id);
  await writableCard(ctx, await collectionAccess(ctx, caller), index.model_id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('model_index_value').where('model_index_id', '=', id).execute();
    await trx.deleteFrom('model_index').where('id', '=', id).execute();
  });
}
