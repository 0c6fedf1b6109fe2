// GET /api/card/:id/query_metadata: the databases, tables and fields the query builder needs to show the card —
// the query engine's metadata of its query, plus (for models and metrics) the card itself as a table.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { collectionAccess } from '../permissions/collections.js';
import { queryMetadata } from '../query/query-metadata.js';
import { virtualTableMetadata } from '../databases/saved-questions.js';
import { readableCard } from './cards.js';
import { datasetQueryOf } from './store.js';

export async function cardQueryMetadata(ctx: AppContext, caller: Caller, id: number) {
  const access = await collectionAccess(ctx, caller);
  const card = await readableCard(ctx, access, id);
  const metadata = (await queryMetadata(ctx, caller, datasetQueryOf(card))) as {
    databases: unknown[];
    tables: Array<Record<string, unknown>>;
    fields: unknown[];
    [key: string]: unknown;
  };
  if (card.type !== 'question' && !metadata.tables.some((t) => t.id === `card__${card.id}`)) {
    const self = await virtualTableMetadata(ctx, caller, card.id);
    if (self) metadata.tables.push(self);
  }
  return metadata;
}
