// POST /api/card/related takes an unsaved query: read here as a card without an id, on the query's source table
// (a saved question's table when the query starts from one). The caller must be able to see what it reads: the
// table (403 otherwise) or the saved question (its collection).

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, notFound } from '../http/errors.js';
import { checkTableVisible } from '../databases/access.js';
import { checkedLegacyQuery, queryInfo } from '../cards/query-info.js';
import { readableCard } from '../cards/cards.js';
import { collectionAccess } from '../permissions/collections.js';

export async function adhocCardOf(ctx: AppContext, caller: Caller, body: unknown): Promise<{ id: number; table_id: number | null; dataset_query: string }> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The body must be a query (a JSON object).');
  const legacy = checkedLegacyQuery(body as Record<string, unknown>);
  const info = queryInfo(legacy);
  let tableId = info.tableId;
  if (info.sourceCardId !== null) {
    tableId = (await readableCard(ctx, await collectionAccess(ctx, caller), info.sourceCardId)).table_id;
  } else if (tableId !== null) {
    const table = await ctx.db.selectFrom('metabase_table').select(['id', 'db_id', 'schema']).where('id', '=', tableId).executeTakeFirst();
    if (!table) throw notFound();
    await checkTableVisible(ctx, caller, table);
  }
  return { id: 0, table_id: tableId, dataset_query: JSON.stringify(legacy) };
}
