// Bookmarks (/api/bookmark): a user's starred cards, dashboards, collections and snippets, in their own order.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso } from '../appdb/portable.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { snippetAccess, SNIPPETS_NAMESPACE } from '../permissions/snippets.js';

export const BOOKMARK_MODELS = ['card', 'dashboard', 'collection', 'snippet'] as const;
export type BookmarkModel = (typeof BOOKMARK_MODELS)[number];

/** The collection an item lives in (for the read check), or 404 when the item doesn't exist. */
async function itemCollection(ctx: AppContext, model: BookmarkModel, id: number): Promise<{ collectionId: number | null; namespace: string | null }> {
  if (model === 'card') {
    const row = await ctx.db.selectFrom('report_card').select('collection_id').where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return { collectionId: row.collection_id, namespace: null };
  }
  if (model === 'dashboard') {
    const row = await ctx.db.selectFrom('report_dashboard').select('collection_id').where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return { collectionId: row.collection_id, namespace: null };
  }
  if (model === 'snippet') {
    const row = await ctx.db.selectFrom('native_query_snippet').select('collection_id').where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return { collectionId: row.collection_id, namespace: SNIPPETS_NAMESPACE };
  }
  const row = await ctx.db.selectFrom('collection').select(['id', 'namespace']).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return { collectionId: row.id, namespace: row.namespace };
}

export async function addBookmark(ctx: AppContext, caller: Caller, model: BookmarkModel, id: number) {
  const access = await collectionAccess(ctx, caller);
  const where = await itemCollection(ctx, model, id);
  if (model === 'snippet') (await snippetAccess(ctx, caller, access)).checkRead(where.collectionId);
  else access.checkRead(where.collectionId, where.namespace);
  const existing = await ctx.db
    .selectFrom('bookmark')
    .select('id')
    .where('user_id', '=', caller.user.id)
    .where('model', '=', model)
    .where('model_id', '=', id)
    .executeTakeFirst();
  if (existing) throw badRequest('Bookmark already exists');
  const createdAt = nowIso();
  const bookmarkId = await insertReturningId(ctx.db, ctx.dialect, 'bookmark', {
    user_id: caller.user.id,
    model,
    model_id: id,
    ordering: null,
    created_at: createdAt,
  });
  return { id: bookmarkId, user_id: caller.user.id, [`${model}_id`]: id, created_at: createdAt };
}

export async function removeBookmark(ctx: AppContext, caller: Caller, model: BookmarkModel, id: number): Promise<void> {
  await ctx.db.deleteFrom('bookmark').where('user_id', '=', caller.user.id).where('model', '=', model).where('model_id', '=', id).execute();
}

export async function reorderBookmarks(ctx: AppContext, caller: Caller, orderings: Array<{ type: string; item_id: number }>): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('bookmark').set({ ordering: null }).where('user_id', '=', caller.user.id).execute();
    for (const [index, entry] of orderings.entries()) {
      await trx
        .updateTable('bookmark')
        .set({ ordering: index })
        .where('user_id', '=', caller.user.id)
        .where('model', '=', entry.type)
        .where('model_id', '=', entry.item_id)
        .execute();
    }
  });
}

/** The caller's bookmarks of things they can still read and that aren't archived. */
export async function listBookmarks(ctx: AppContext, caller: Caller) {
  const access: CollectionAccess = await collectionAccess(ctx, caller);
  const rows = await ctx.db.selectFrom('bookmark').selectAll().where('user_id', '=', caller.user.id).execute();
  const ids = (model: string) => rows.filter((r) => r.model === model).map((r) => r.model_id);
  const [cards, dashboards, collections, snippets] = await Promise.all([
    ids('card').length ? ctx.db.selectFrom('report_card').selectAll().where('id', 'in', ids('card')).execute() : [],
    ids('dashboard').length ? ctx.db.selectFrom('report_dashboard').selectAll().where('id', 'in', ids('dashboard')).execute() : [],
    ids('collection').length ? ctx.db.selectFrom('collection').selectAll().where('id', 'in', ids('collection')).execute() : [],
    ids('snippet').length ? ctx.db.selectFrom('native_query_snippet').selectAll().where('id', 'in', ids('snippet')).execute() : [],
  ]);
  const card = new Map(cards.map((r) => [r.id, r]));
  const dashboard = new Map(dashboards.map((r) => [r.id, r]));
  const collection = new Map(collections.map((r) => [r.id, r]));
  const snippet = new Map(snippets.map((r) => [r.id, r]));
  const snippetsAccess = snippets.length ? await snippetAccess(ctx, caller, access) : null;
  const sorted = [...rows].sort(
    (a, b) =>
      (a.ordering ?? Number.MAX_SAFE_INTEGER) - (b.ordering ?? Number.MAX_SAFE_INTEGER) ||
      (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0) ||
      b.id - a.id,
  );
  const out: Array<Record<string, unknown>> = [];
  for (const row of sorted) {
    const base = { id: `${row.model}-${row.model_id}`, type: row.model, item_id: row.model_id };
    if (row.model === 'card') {
      const c = card.get(row.model_id);
      if (!c || bool(c.archived) || !access.canRead(c.collection_id)) continue;
      out.push({ ...base, name: c.name, description: c.description, display: c.display, card_type: c.type, dashboard_id: c.dashboard_id, archived: false });
    } else if (row.model === 'dashboard') {
      const d = dashboard.get(row.model_id);
      if (!d || bool(d.archived) || !access.canRead(d.collection_id)) continue;
      out.push({ ...base, name: d.name, description: d.description, archived: false });
    } else if (row.model === 'collection') {
      const c = collection.get(row.model_id);
      if (!c || bool(c.archived) || !access.canRead(c.id, c.namespace)) continue;
      out.push({ ...base, name: c.name, description: c.description, authority_level: c.authority_level, archived: false });
    } else if (row.model === 'snippet') {
      const s = snippet.get(row.model_id);
      if (!s || bool(s.archived) || !snippetsAccess?.canRead(s.collection_id)) continue;
      out.push({ ...base, name: s.name, description: s.description, archived: false });
    }
  }
  return out;
}

/** Is each item bookmarked by the user? (for search results) */
export async function bookmarkedKeys(ctx: AppContext, userId: number): Promise<Set<string>> {
  const rows = await ctx.db.selectFrom('bookmark').select(['model', 'model_id']).where('user_id', '=', userId).execute();
  return new Set(rows.map((r) => `${r.model}:${r.model_id}`));
}
