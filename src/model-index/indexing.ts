// Indexing a model: its [primary key, text] pairs read through the query pipeline (the model as a saved-question
// source, grouped by the two columns, at most 25,001 rows) and brought into `model_index_value` in one transaction —
// added, removed, or changed (removed and added again). More than 25,000 records: the first 25,000 are indexed and
// the state says `overflow`; a failure leaves the values as they were and says `error` with the reason.
//
// One instance indexes a model index at a time (a lease per index). Indexes refresh after the daily field-values
// scan of the model's database (the sync scheduler's `values` run, or a full sync), see `refreshIndexesOf`.

import type { AppContext } from '../context.js';
import { nowIso, parseJson } from '../appdb/portable.js';
import { withLease } from '../tasks/lease.js';
import { runQueryToMemory } from '../query/index.js';
import { onFieldValuesScanned } from '../sync/runner.js';
import type { ModelIndexTable } from './tables.js';
import type { Selectable } from 'kysely';

export type ModelIndexRow = Selectable<ModelIndexTable>;

/** Metabase's cap on the records of one model index. */
export const MAX_INDEXED_VALUES = 25_000;
const INSERT_BATCH = 1_000;
const LEASE_TTL_MS = 5 * 60_000;

/** A custom column (`["expression", name]`) is a column of the model's results like any other, by name. */
function asSourceColumn(ref: unknown, baseType: string): unknown {
  if (Array.isArray(ref) && ref[0] === 'expression') return ['field', ref[1], { 'base-type': baseType }];
  return ref;
}

async function fetchValues(ctx: AppContext, index: ModelIndexRow): Promise<Array<[number, string]>> {
  const model = await ctx.db.selectFrom('report_card').select(['id', 'database_id']).where('id', '=', index.model_id).executeTakeFirst();
  if (!model) throw new Error(`Model ${index.model_id} does not exist.`);
  const pk = asSourceColumn(parseJson(index.pk_ref, null), 'type/Integer');
  const value = asSourceColumn(parseJson(index.value_ref, null), 'type/Text');
  const result = await runQueryToMemory(ctx, {
    query: { database: model.database_id, type: 'query', query: { 'source-table': `card__${model.id}`, breakout: [pk, value], limit: MAX_INDEXED_VALUES + 1 } },
    caller: null,
    skipPermissionCheck: true,
    context: 'internal',
    constraints: null,
  });
  if (result.status !== 'completed') throw new Error(String(result.error ?? 'The model’s query failed.'));
  const pairs: Array<[number, string]> = [];
  for (const [id, name] of result.data.rows) {
    if (id === null || id === undefined || name === null || name === undefined) continue;
    const key = Number(id);
    if (Number.isSafeInteger(key)) pairs.push([key, String(name)]);
  }
  return pairs;
}

/** Indexes the model now; returns false when another instance is indexing it at this moment. */
export async function indexModel(ctx: AppContext, index: ModelIndexRow): Promise<boolean> {
  const outcome = await withLease(ctx, `model-index:${index.id}`, LEASE_TTL_MS, async () => {
    let fetched: Array<[number, string]>;
    try {
      fetched = await fetchValues(ctx, index);
    } catch (error) {
      ctx.log.warn({ err: error, modelIndex: index.id, model: index.model_id }, 'indexing a model failed');
      await ctx.db.updateTable('model_index').set({ state: 'error', error: (error as Error).message, indexed_at: nowIso() }).where('id', '=', index.id).execute();
      return;
    }
    // later rows win for a key seen twice
    const source = new Map<number, string>();
    for (const [id, name] of fetched.slice(0, MAX_INDEXED_VALUES)) source.set(id, name);
    await ctx.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('model_index_value').select(['model_pk', 'name']).where('model_index_id', '=', index.id).execute();
      const stale: number[] = [];
      for (const row of current) {
        const pk = Number(row.model_pk);
        if (source.get(pk) === row.name) source.delete(pk);
        else stale.push(pk);
      }
      for (let i = 0; i < stale.length; i += INSERT_BATCH) {
        await trx.deleteFrom('model_index_value').where('model_index_id', '=', index.id).where('model_pk', 'in', stale.slice(i, i + INSERT_BATCH)).execute();
      }
      const additions = [...source].map(([model_pk, name]) => ({ model_index_id: index.id, model_pk, name }));
      for (let i = 0; i < additions.length; i += INSERT_BATCH) {
        await trx.insertInto('model_index_value').values(additions.slice(i, i + INSERT_BATCH)).execute();
      }
      await trx
        .updateTable('model_index')
        .set((eb) => ({ state: fetched.length > MAX_INDEXED_VALUES ? 'overflow' : 'indexed', error: null, indexed_at: nowIso(), generation: eb('generation', '+', 1) }))
        .where('id', '=', index.id)
        .execute();
    });
  });
  return outcome.ran;
}

/** Re-indexes the model indexes of the models on a database (after its field values were scanned). */
export async function refreshIndexesOf(ctx: AppContext, databaseId: number): Promise<void> {
  const indexes = await ctx.db
    .selectFrom('model_index')
    .innerJoin('report_card', 'report_card.id', 'model_index.model_id')
    .selectAll('model_index')
    .where('report_card.database_id', '=', databaseId)
    .where('report_card.type', '=', 'model')
    .where('report_card.archived', '=', false)
    .orderBy('model_index.id')
    .execute();
  for (const index of indexes) await indexModel(ctx, index);
}

onFieldValuesScanned(refreshIndexesOf);
