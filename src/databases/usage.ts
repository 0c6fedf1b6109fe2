// What uses a database (for the "are you sure?" dialog before deleting it) and card suggestions for SQL template
// tags. Reads cards (owned by src/cards) without writing them; segments are counted by src/segments.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { bool } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { countSegmentsOfDatabase } from '../segments/segments.js';

export async function usageInfo(ctx: AppContext, databaseId: number): Promise<Record<string, number>> {
  const rows = await ctx.db
    .selectFrom('report_card')
    .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('database_id', '=', databaseId)
    .where('archived', '=', false)
    .groupBy('type')
    .execute();
  const count = (type: string) => Number(rows.find((r) => r.type === type)?.n ?? 0);
  return { question: count('question'), dataset: count('model'), metric: count('metric'), segment: await countSegmentsOfDatabase(ctx, databaseId) };
}

/** Cards of the database whose name contains `query` (or whose id it is), for `{{#123-name}}` tags. */
export async function cardAutocomplete(ctx: AppContext, caller: Caller, databaseId: number, query: string, includeDashboardQuestions: boolean) {
  const id = /^\d+/.exec(query.trim())?.[0];
  let q = ctx.db
    .selectFrom('report_card as c')
    .leftJoin('collection as col', 'col.id', 'c.collection_id')
    .select(['c.id', 'c.name', 'c.type', 'c.collection_id', 'c.dashboard_id', 'c.archived', 'c.dataset_query', 'c.updated_at', 'col.name as collection_name'])
    .where('c.database_id', '=', databaseId)
    .where('c.archived', '=', false);
  if (!includeDashboardQuestions) q = q.where('c.dashboard_id', 'is', null);
  const rows = await q.orderBy('c.updated_at', 'desc').execute();
  const needle = query.toLowerCase();
  const access = await collectionAccess(ctx, caller);
  return rows
    .filter((r) => !bool(r.archived) && access.canRead(r.collection_id))
    .filter((r) => r.name.toLowerCase().includes(needle) || (id !== undefined && String(r.id) === id))
    .slice(0, 50)
    .map((r) => ({ id: r.id, name: r.name, type: r.type, collection_name: r.collection_name ?? 'Our analytics', dashboard_id: r.dashboard_id, last_edited_at: r.updated_at }));
}
