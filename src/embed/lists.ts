// GET /api/card/embeddable: `[{name, id}]` of cards with embedding on (admins; embedding must be enabled).
// (GET /api/dashboard/embeddable is the dashboards module's, with the same rule.)

import type { AppContext } from '../context.js';
import { checkEmbeddingEnabled } from './settings.js';

export async function cardsWithEmbedding(ctx: AppContext) {
  await checkEmbeddingEnabled(ctx);
  const rows = await ctx.db
    .selectFrom('report_card')
    .select(['id', 'name'])
    .where('enable_embedding', '=', true)
    .where('archived', '=', false)
    .orderBy('name')
    .execute();
  return rows.map((r) => ({ name: r.name, id: r.id }));
}
