// /api/cards: Metabase's bulk endpoints for cards — moving several at once, and the dashboards they are on.

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { badRequest } from '../http/errors.js';
import { moveCards } from '../cards/cards.js';
import { dashboardsOfCards } from '../cards/bulk.js';

export function cardsRoutes(r: Routes) {
  r.post(
    '/api/cards/move',
    { body: { card_ids: s.array(s.posInt()), collection_id: s.maybe(s.posInt()), dashboard_id: s.maybe(s.posInt()) } },
    async ({ ctx, caller, body }) => {
      if (body.collection_id != null && body.dashboard_id != null) throw badRequest('Pass either collection_id or dashboard_id, not both.');
      await moveCards(ctx, caller, body.card_ids, body.collection_id ?? null, body.dashboard_id ?? null);
      return { status: 'success' };
    },
  );

  r.post('/api/cards/dashboards', { body: { card_ids: s.array(s.posInt()) } }, ({ ctx, caller, body }) => dashboardsOfCards(ctx, caller, body.card_ids));
}
