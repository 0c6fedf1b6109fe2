// GET /api/card/:id/timelines: the timelines of the card's collection, with events between start and end.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { collectionAccess } from '../permissions/collections.js';
import { collectionTimelines } from '../timelines/timelines.js';
import { readableCard } from './cards.js';

export async function cardTimelines(
  ctx: AppContext,
  caller: Caller,
  id: number,
  options: { includeEvents: boolean; start: string | null; end: string | null },
) {
  const access = await collectionAccess(ctx, caller);
  const card = await readableCard(ctx, access, id);
  return collectionTimelines(ctx, caller, card.collection_id, { includeEvents: options.includeEvents, archived: false, start: options.start, end: options.end }, access);
}
