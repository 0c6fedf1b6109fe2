// Cache policies (spec §4.18, reference §12.2): GET/PUT/DELETE /api/cache and POST /api/cache/invalidate, with
// Metabase 0.50+'s shapes. Database, dashboard and question policies and the duration and schedule strategies are
// paid features in Metabase; here they are free (no 402).

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { jsonOf, s, type Schema } from '../http/schema.js';
import { pagingQuery, paging } from '../http/paging.js';
import { checkCacheAccess, checkInvalidateAccess, checkModels, deleteConfigs, listConfigs, storeConfig } from '../cache/configs.js';
import { CACHE_MODELS, type CacheModel } from '../cache/strategy.js';
import { strategySchema } from '../cache/strategy.js';
import { invalidateCaches } from '../cache/invalidate.js';

const model = s.enum(CACHE_MODELS);
/** One id or a list of them (Metabase's QueryVectorOf), each an integer ≥ 0. */
const ids = (): Schema<number[]> => s.array(s.natInt());
const bodyIds: Schema<number[]> = {
  description: `vector of ${s.natInt().description}`,
  isOptional: false,
  json: { anyOf: [jsonOf(s.natInt()), jsonOf(ids())] },
  parse(value, coerce) {
    return ids().parse(typeof value === 'number' ? [value] : value, coerce);
  },
};

export function cacheRoutes(r: Routes) {
  r.get(
    '/api/cache',
    {
      query: {
        model: s.withDefault(s.array(model), ['root'] as CacheModel[]),
        collection: s.maybe(s.posInt()),
        id: s.maybe(s.posInt()),
        ...pagingQuery,
        sort_column: s.withDefault(s.enum(['name', 'collection', 'policy'] as const), 'name'),
        sort_direction: s.withDefault(s.enum(['asc', 'desc'] as const), 'asc'),
      },
    },
    async ({ ctx, caller, query }) => {
      const models = [...new Set(query.model)];
      await checkCacheAccess(ctx, caller, models[0], query.id);
      const page = paging(query);
      return listConfigs(ctx, {
        models,
        collection: query.collection,
        id: query.id,
        limit: page.limit,
        offset: page.offset,
        sortColumn: query.sort_column,
        sortDirection: query.sort_direction,
      });
    },
  );

  r.put('/api/cache', { body: { model, model_id: s.natInt(), strategy: strategySchema } }, async ({ ctx, caller, body }) => {
    await checkModels(ctx, body.model, [body.model_id]);
    await checkCacheAccess(ctx, caller, body.model, body.model_id);
    return { id: await storeConfig(ctx, body.model, body.model_id, body.strategy) };
  });

  r.delete('/api/cache', { body: { model, model_id: bodyIds } }, async ({ ctx, caller, body }) => {
    await checkModels(ctx, body.model, body.model_id);
    for (const id of body.model_id) await checkCacheAccess(ctx, caller, body.model, id);
    await deleteConfigs(ctx, body.model, body.model_id);
    return null;
  });

  r.post(
    '/api/cache/invalidate',
    {
      query: {
        include: s.maybe(s.enum(['overrides'] as const)),
        database: s.maybe(ids()),
        dashboard: s.maybe(ids()),
        question: s.maybe(ids()),
      },
    },
    async ({ ctx, caller, query }) => {
      const request = { databases: query.database ?? [], dashboards: query.dashboard ?? [], questions: query.question ?? [], overrides: query.include === 'overrides' };
      await checkInvalidateAccess(ctx, caller, request);
      const answer = await invalidateCaches(ctx, request);
      return Respond.json(answer.body, answer.status);
    },
  );
}
