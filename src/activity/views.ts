// Recording what a user looked at (a view) or picked in a data picker (a selection). Reads of cards, dashboards,
// collections and tables call `recordView`; the recents lists and popular items are built from these rows.
//
// recent_views keeps one row per (user, item, context), at most 20 per kind of item; view_log keeps every view,
// for popularity.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { nowIso, type Db } from '../appdb/portable.js';

/** What recent_views stores: cards of every type are "card" (told apart by joining report_card.type). */
export type StoredModel = 'card' | 'dashboard' | 'table' | 'collection';

export const PER_KIND = 20;

function kindOf(model: string, cardType: string | null | undefined): string {
  if (model !== 'card') return model;
  return cardType === 'model' ? 'dataset' : cardType === 'metric' ? 'metric' : 'card';
}

async function pruneKind(db: Db, userId: number, context: string, kind: string): Promise<void> {
  const rows = await db
    .selectFrom('recent_views')
    .leftJoin('report_card', (join) => join.onRef('report_card.id', '=', 'recent_views.model_id').on('recent_views.model', '=', 'card'))
    .select(['recent_views.id', 'recent_views.model', 'report_card.type'])
    .where('recent_views.user_id', '=', userId)
    .where('recent_views.context', '=', context)
    .where('recent_views.model', '=', kind === 'dataset' || kind === 'metric' ? 'card' : kind)
    .orderBy('recent_views.timestamp', 'desc')
    .orderBy('recent_views.id', 'desc')
    .execute();
  const ofKind = rows.filter((r) => kindOf(r.model, r.type) === kind);
  const extra = ofKind.slice(PER_KIND).map((r) => r.id);
  if (extra.length > 0) await db.deleteFrom('recent_views').where('id', 'in', extra).execute();
}

/** Moves (or adds) an item to the top of a user's recents for `context`. */
export async function touchRecent(
  ctx: AppContext,
  userId: number,
  model: StoredModel,
  modelId: number,
  context: 'view' | 'selection',
  cardType?: string | null,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('recent_views')
      .where('user_id', '=', userId)
      .where('model', '=', model)
      .where('model_id', '=', modelId)
      .where('context', '=', context)
      .execute();
    await trx.insertInto('recent_views').values({ user_id: userId, model, model_id: modelId, context, timestamp: nowIso() }).execute();
    await pruneKind(trx, userId, context, kindOf(model, cardType));
  });
}

/**
 * Records that the caller viewed an item: their recents, the view log, and the item's view count (for cards and
 * dashboards). Failures never fail the read that triggered them.
 */
export async function recordView(
  ctx: AppContext,
  caller: Caller,
  model: StoredModel,
  modelId: number,
  options: { cardType?: string | null } = {},
): Promise<void> {
  try {
    const now = nowIso();
    await touchRecent(ctx, caller.user.id, model, modelId, 'view', options.cardType);
    await ctx.db.insertInto('view_log').values({ user_id: caller.user.id, model, model_id: modelId, timestamp: now }).execute();
    if (model === 'card') {
      await ctx.db
        .updateTable('report_card')
        .set((eb) => ({ view_count: eb(eb.ref('view_count'), '+', 1) }))
        .where('id', '=', modelId)
        .execute();
    } else if (model === 'dashboard') {
      await ctx.db
        .updateTable('report_dashboard')
        .set((eb) => ({ view_count: eb(eb.ref('view_count'), '+', 1), last_viewed_at: now }))
        .where('id', '=', modelId)
        .execute();
    }
  } catch (error) {
    ctx.log.warn({ err: error }, 'could not record a view');
  }
}
