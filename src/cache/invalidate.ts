// POST /api/cache/invalidate (reference §12.2): stale results are ignored from now on (never served again), not
// deleted. Without `include=overrides` the policies of the databases, dashboards and questions named are stamped
// (`cache_config.invalidated_at`), so only results stored under those very policies go stale; with it, every card
// of those databases and dashboards (and the questions named) is stamped (`report_card.cache_invalidated_at`), whatever
// policy its results were stored under. Policies with `refresh_automatically` then run their results again.

import type { AppContext } from '../context.js';
import { nowIso } from '../appdb/portable.js';
import { invalidateCardResults } from '../cards/cache-invalidation.js';
import { refreshInBackground } from './refresh.js';

export interface InvalidateRequest {
  databases: number[];
  dashboards: number[];
  questions: number[];
  overrides: boolean;
}

export interface InvalidateAnswer {
  status: 200 | 404;
  body: { count: number; message: string };
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many.replace('{0}', String(count));
}

/** The cards concerned by `include=overrides`: the questions named, every card of the databases and dashboards named. */
async function cardsOf(ctx: AppContext, request: InvalidateRequest): Promise<number[]> {
  const ids = new Set(request.questions);
  if (request.databases.length) {
    for (const row of await ctx.db.selectFrom('report_card').select('id').where('database_id', 'in', request.databases).execute()) ids.add(row.id);
  }
  if (request.dashboards.length) {
    const rows = await ctx.db.selectFrom('report_dashboardcard').select('card_id').where('dashboard_id', 'in', request.dashboards).where('card_id', 'is not', null).execute();
    for (const row of rows) ids.add(row.card_id!);
  }
  return [...ids];
}

export async function invalidateCaches(ctx: AppContext, request: InvalidateRequest): Promise<InvalidateAnswer> {
  if (request.overrides) {
    const cardIds = await cardsOf(ctx, request);
    const count = cardIds.length ? await invalidateCardResults(ctx.db, cardIds) : -1;
    if (count > 0) refreshInBackground(ctx, { cardIds });
    const message =
      count < 0 ? 'Could not find any questions for the criteria you specified.' : count === 0 ? 'No cached results to clear.' : plural(count, 'Cleared a cached result.', 'Cleared {0} cached results.');
    return { status: count < 0 ? 404 : 200, body: { count, message } };
  }
  const pairs: Array<[string, number]> = [
    ...request.databases.map((id): [string, number] => ['database', id]),
    ...request.dashboards.map((id): [string, number] => ['dashboard', id]),
    ...request.questions.map((id): [string, number] => ['question', id]),
  ];
  let count = -1;
  if (pairs.length) {
    const configs = await ctx.db
      .selectFrom('cache_config')
      .select('id')
      .where((eb) => eb.or(pairs.map(([model, id]) => eb.and([eb('model', '=', model), eb('model_id', '=', id)]))))
      .execute();
    count = 0;
    if (configs.length) {
      const result = await ctx.db.updateTable('cache_config').set({ invalidated_at: nowIso() }).where('id', 'in', configs.map((c) => c.id)).executeTakeFirst();
      count = Number(result.numUpdatedRows);
      refreshInBackground(ctx, { configIds: configs.map((c) => c.id) });
    }
  }
  const message = count < 0 ? 'Nothing to invalidate.' : count === 0 ? 'No cache configuration to invalidate.' : plural(count, 'Invalidated cache configuration.', 'Invalidated {0} cache configurations.');
  return { status: count < 0 ? 404 : 200, body: { count, message } };
}
