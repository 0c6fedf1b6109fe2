// Cache policies (`cache_config`) as /api/cache reads and writes them (reference §12.2): one row per root (model_id
// 0), database, dashboard or question. Who may touch a policy: admins for the root policy and databases' (Metabase's
// write check on a database), whoever can curate the dashboard's or question's collection for theirs.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { forbidden, notFound } from '../http/errors.js';
import { nowIso } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { writableCard } from '../cards/cards.js';
import { writableDashboard } from '../dashboards/dashboards.js';
import { rowOfStrategy, strategyOfRow, type CacheModel, type Strategy } from './strategy.js';
import { schedulesChanged } from './maintenance.js';


export const ROOT_ONLY_ZERO = 'Root configuration is only valid with model_id = 0';

export interface ConfigItem {
  model: CacheModel;
  model_id: number;
  strategy: Record<string, unknown>;
  name?: string;
  collection?: { id: number; name: string; authority_level: string | null; type: string | null };
}

/** Metabase's write check on a database, dashboard or question: 404 when it doesn't exist, 403 without access. */
async function checkEntityWrite(ctx: AppContext, caller: Caller, model: Exclude<CacheModel, 'root'>, id: number): Promise<void> {
  switch (model) {
    case 'database': {
      const row = await ctx.db.selectFrom('metabase_database').select('id').where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound();
      if (!caller.isSuperuser) throw forbidden();
      return;
    }
    case 'dashboard':
      await writableDashboard(ctx, await collectionAccess(ctx, caller), id);
      return;
    case 'question':
      await writableCard(ctx, await collectionAccess(ctx, caller), id);
      return;
  }
}

/** Metabase's check-cache-access: no concrete entity → admins; else write access to the entity. */
export async function checkCacheAccess(ctx: AppContext, caller: Caller, model: CacheModel, id: number | null): Promise<void> {
  if (id === null || id === 0 || model === 'root') {
    if (!caller.isSuperuser) throw forbidden();
    return;
  }
  await checkEntityWrite(ctx, caller, model, id);
}

/** POST /api/cache/invalidate: write access to every database, dashboard and question named. */
export async function checkInvalidateAccess(ctx: AppContext, caller: Caller, request: { databases: number[]; dashboards: number[]; questions: number[] }): Promise<void> {
  for (const id of request.databases) await checkEntityWrite(ctx, caller, 'database', id);
  for (const id of request.dashboards) await checkEntityWrite(ctx, caller, 'dashboard', id);
  for (const id of request.questions) await checkEntityWrite(ctx, caller, 'question', id);
}

/** Metabase's assert-valid-models: root needs id 0 (404 otherwise); other models need an existing entity. */
export async function checkModels(ctx: AppContext, model: CacheModel, ids: number[]): Promise<void> {
  if (model === 'root') {
    if (!ids.includes(0)) throw notFound(ROOT_ONLY_ZERO);
    return;
  }
  const table = model === 'database' ? 'metabase_database' : model === 'dashboard' ? 'report_dashboard' : 'report_card';
  const found = ids.length ? await ctx.db.selectFrom(table).select('id').where('id', 'in', ids).executeTakeFirst() : undefined;
  if (!found) throw notFound();
}

export interface ListOptions {
  models: CacheModel[];
  collection: number | null;
  id: number | null;
  limit: number | null;
  offset: number | null;
  sortColumn: 'name' | 'collection' | 'policy';
  sortDirection: 'asc' | 'desc';
}

/** GET /api/cache: `{data}`, or `{data, total, limit, offset}` when paging. */
export async function listConfigs(ctx: AppContext, options: ListOptions) {
  const base = () => {
    let q = ctx.db
      .selectFrom('cache_config')
      .leftJoin('report_card as card', (join) => {
        let on = join.on('cache_config.model', '=', 'question').onRef('cache_config.model_id', '=', 'card.id');
        if (options.collection !== null) on = on.on('card.collection_id', '=', options.collection);
        return on;
      })
      .leftJoin('report_dashboard as dash', (join) => {
        let on = join.on('cache_config.model', '=', 'dashboard').onRef('cache_config.model_id', '=', 'dash.id');
        if (options.collection !== null) on = on.on('dash.collection_id', '=', options.collection);
        return on;
      })
      .where('cache_config.model', 'in', options.models);
    if (options.id !== null) q = q.where('cache_config.model_id', '=', options.id);
    else {
      // a question's or dashboard's policy is listed while the item exists (and is in the collection asked for)
      q = q.where((eb) =>
        eb.or([
          eb.and([eb('cache_config.model', '=', 'question'), eb('card.id', 'is not', null)]),
          eb.and([eb('cache_config.model', '=', 'dashboard'), eb('dash.id', 'is not', null)]),
          eb('cache_config.model', 'not in', ['question', 'dashboard']),
        ]),
      );
    }
    return q;
  };
  let q = base()
    .leftJoin('collection as coll', (join) => join.on((eb) => eb.or([eb('coll.id', '=', eb.ref('card.collection_id')), eb('coll.id', '=', eb.ref('dash.collection_id'))])))
    .select([
      'cache_config.id',
      'cache_config.model',
      'cache_config.model_id',
      'cache_config.strategy',
      'cache_config.config',
      'cache_config.refresh_automatically',
      'card.name as card_name',
      'dash.name as dash_name',
      'coll.id as collection_id',
      'coll.name as collection_name',
      'coll.authority_level as collection_authority_level',
      'coll.type as collection_type',
    ]);
  const paging = options.limit !== null;
  if (paging && options.id === null) {
    const dir = options.sortDirection;
    if (options.sortColumn === 'policy') q = q.orderBy('cache_config.strategy', dir);
    else if (options.sortColumn === 'collection') q = q.orderBy((eb) => eb.fn.coalesce('card.collection_id', 'dash.collection_id'), dir);
    else q = q.orderBy((eb) => eb.fn.coalesce('card.name', 'dash.name'), dir);
  }
  q = q.orderBy('cache_config.id');
  if (paging) q = q.limit(options.limit!).offset(options.offset ?? 0);
  const rows = await q.execute();
  const data: ConfigItem[] = rows.map((row) => {
    const item: ConfigItem = { model: row.model as CacheModel, model_id: row.model_id, strategy: { ...strategyOfRow(row) } };
    const name = options.id === null ? (row.card_name ?? row.dash_name) : null;
    if (name) item.name = name;
    if (options.id === null && row.collection_id !== null && row.collection_id !== undefined) {
      item.collection = { id: row.collection_id, name: row.collection_name ?? '', authority_level: row.collection_authority_level ?? null, type: row.collection_type ?? null };
    }
    return item;
  });
  if (!paging) return { data };
  const total = await base()
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirst();
  return { data, total: Number(total?.count ?? 0), limit: options.limit, offset: options.offset ?? 0 };
}

/** PUT /api/cache: creates or replaces the policy of (model, model_id); returns its id. */
export async function storeConfig(ctx: AppContext, model: CacheModel, modelId: number, strategy: Strategy): Promise<number> {
  const columns = rowOfStrategy(strategy);
  const now = nowIso();
  const update = () =>
    ctx.db
      .updateTable('cache_config')
      .set({ ...columns, updated_at: now })
      .where('model', '=', model)
      .where('model_id', '=', modelId)
      .executeTakeFirst();
  const existing = () => ctx.db.selectFrom('cache_config').select('id').where('model', '=', model).where('model_id', '=', modelId).executeTakeFirst();
  if (Number((await update()).numUpdatedRows) === 0) {
    try {
      await ctx.db.insertInto('cache_config').values({ model, model_id: modelId, ...columns, invalidated_at: null, created_at: now, updated_at: now }).execute();
    } catch (error) {
      // another request created it at the same moment: the unique (model, model_id) refused this one
      if (!(await existing())) throw error;
      await update();
    }
  }
  schedulesChanged(ctx);
  return (await existing())!.id;
}

/** DELETE /api/cache: the policies of these items go; they inherit their parent's again. */
export async function deleteConfigs(ctx: AppContext, model: CacheModel, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await ctx.db.deleteFrom('cache_config').where('model', '=', model).where('model_id', 'in', ids).execute();
  schedulesChanged(ctx);
}
