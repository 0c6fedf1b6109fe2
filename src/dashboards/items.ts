// GET /api/dashboard/:id/items: the dashboard's own questions (dashboard questions), shaped like collection items.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { bool, parseJson } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { cardsJson } from '../cards/json.js';
import { itemModelOf } from '../cards/store.js';
import { fullyParameterized } from '../cards/query-info.js';
import { readableDashboard } from './dashboards.js';

export async function dashboardItems(ctx: AppContext, caller: Caller, id: number) {
  const access = await collectionAccess(ctx, caller);
  await readableDashboard(ctx, access, id);
  const rows = await ctx.db.selectFrom('report_card').selectAll().where('dashboard_id', '=', id).where('archived', '=', false).execute();
  rows.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id);
  const cards = await cardsJson(ctx, access, rows);
  const data = rows.map((row, i) => {
    const card = cards[i] as Record<string, unknown>;
    return {
      id: row.id,
      model: itemModelOf(row.type),
      name: row.name,
      description: row.description,
      entity_id: row.entity_id,
      collection_position: row.collection_position,
      collection_id: row.collection_id,
      display: row.display,
      collection_preview: bool(row.collection_preview),
      dashboard_id: row.dashboard_id,
      dashboard: card.dashboard,
      database_id: row.database_id,
      last_used_at: row.last_used_at,
      archived: bool(row.archived),
      location: null,
      moderated_status: null,
      can_write: card.can_write,
      can_restore: card.can_restore,
      can_delete: card.can_delete,
      dashboard_count: card.dashboard_count,
      fully_parameterized: fullyParameterized(parseJson(row.dataset_query, {})),
      ...(card['last-edit-info'] ? { 'last-edit-info': card['last-edit-info'] } : {}),
    };
  });
  const models = [...new Set(data.map((d) => d.model))].sort();
  return { total: data.length, data, models, limit: null, offset: null };
}
