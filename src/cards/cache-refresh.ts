// Running a card again for the result cache's `refresh_automatically` (src/cache/refresh.ts): the card's current
// query with the parameters the stored result was asked with, as the user who asked (their collection and data
// permissions apply now: someone who lost access gets nothing run), or as the public link / embed it came from.

import type { AppContext } from '../context.js';
import { bool } from '../appdb/portable.js';
import { registerCacheRefresher } from '../cache/refresh.js';
import { callerForUser } from '../users/sessions.js';
import { collectionAccess } from '../permissions/collections.js';
import { runQueryToMemory, type QueryRequest } from '../query/index.js';
import { datasetQueryOf, findCard, modelMetadataOf, type CardRow } from './store.js';

/** A public or embedded result is run again only while the card (or its dashboard) is still shared that way. */
async function stillShared(ctx: AppContext, shared: 'public' | 'embedded' | null, card: CardRow, dashboardId: number | null): Promise<boolean> {
  if (!shared) return false;
  const sharedCard = shared === 'public' ? card.public_uuid !== null : bool(card.enable_embedding);
  if (sharedCard) return true;
  if (dashboardId === null) return false;
  const dashboard = await ctx.db.selectFrom('report_dashboard').select(['public_uuid', 'enable_embedding']).where('id', '=', dashboardId).executeTakeFirst();
  if (!dashboard) return false;
  return shared === 'public' ? dashboard.public_uuid !== null : bool(dashboard.enable_embedding);
}

registerCacheRefresher(async (ctx: AppContext, recipe) => {
  const card = await findCard(ctx.db, recipe.card_id);
  if (!card || bool(card.archived)) return;
  let caller = null;
  if (recipe.executor_id !== null) {
    const user = await ctx.db.selectFrom('core_user').selectAll().where('id', '=', recipe.executor_id).executeTakeFirst();
    if (!user || !bool(user.is_active)) return;
    caller = await callerForUser(ctx, user, 'session', null);
    if (!(await collectionAccess(ctx, caller)).canRead(card.collection_id)) return;
  } else if (!(await stillShared(ctx, recipe.shared, card, recipe.dashboard_id))) return;
  const request: QueryRequest = {
    query: datasetQueryOf(card),
    caller,
    skipPermissionCheck: caller === null,
    publicResult: recipe.shared !== null,
    ...(recipe.shared ? { sharing: recipe.shared } : {}),
    context: 'cache-refresh',
    cardId: card.id,
    dashboardId: recipe.dashboard_id,
    parameters: recipe.parameters,
    savedParameterTargets: recipe.saved_parameter_targets,
    modelMetadata: modelMetadataOf(card),
    cache: { ignoreCache: true },
  };
  await runQueryToMemory(ctx, request);
});
