// Related entities (src/related): what else a user may look at next, for an entity the caller may read first
// (404 when it doesn't exist, 403 when they may not see it).
//   GET /api/table/:id/related, /api/field/:id/related, /api/segment/:id/related, /api/card/:id/related,
//   /api/dashboard/:id/related; POST /api/card/related (body: an unsaved query)

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { checkFieldsVisible, checkTableVisible } from '../databases/access.js';
import { tableOr404 } from '../databases/table-metadata.js';
import { fieldOr404 } from '../databases/field-metadata.js';
import { readableSegment } from '../segments/segments.js';
import { collectionAccess } from '../permissions/collections.js';
import { readableCard } from '../cards/cards.js';
import { readableDashboard } from '../dashboards/dashboards.js';
import { relatedToCard, relatedToDashboard, relatedToField, relatedToSegment, relatedToTable } from '../related/related.js';
import { adhocCardOf } from '../related/adhoc.js';

const id = { id: s.posInt() };

export function relatedRoutes(r: Routes) {
  r.get('/api/table/:id/related', { params: id }, async ({ ctx, caller, params }) => {
    const table = await tableOr404(ctx, params.id);
    await checkTableVisible(ctx, caller, table);
    return relatedToTable(ctx, caller, table);
  });

  r.get('/api/field/:id/related', { params: id }, async ({ ctx, caller, params }) => {
    await checkFieldsVisible(ctx, caller, [params.id]);
    const field = await fieldOr404(ctx, params.id);
    return relatedToField(ctx, caller, field, await tableOr404(ctx, field.table_id));
  });

  r.get('/api/segment/:id/related', { params: id }, async ({ ctx, caller, params }) =>
    relatedToSegment(ctx, caller, await readableSegment(ctx, caller, params.id)),
  );

  r.get('/api/card/:id/related', { params: id }, async ({ ctx, caller, params }) =>
    relatedToCard(ctx, caller, await readableCard(ctx, await collectionAccess(ctx, caller), params.id)),
  );

  r.post('/api/card/related', {}, async ({ ctx, caller, request }) => relatedToCard(ctx, caller, await adhocCardOf(ctx, caller, request.body)));

  r.get('/api/dashboard/:id/related', { params: id }, async ({ ctx, caller, params }) => {
    const dashboard = await readableDashboard(ctx, await collectionAccess(ctx, caller), params.id);
    return relatedToDashboard(ctx, caller, dashboard);
  });
}
