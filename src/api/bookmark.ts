// /api/bookmark: the caller's bookmarks.

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { addBookmark, BOOKMARK_MODELS, listBookmarks, removeBookmark, reorderBookmarks } from '../bookmarks/bookmarks.js';

const item = { model: s.enum(BOOKMARK_MODELS), id: s.posInt() };

export function bookmarkRoutes(r: Routes) {
  r.get('/api/bookmark', {}, ({ ctx, caller }) => listBookmarks(ctx, caller));

  r.post('/api/bookmark/:model/:id', { params: item }, ({ ctx, caller, params }) => addBookmark(ctx, caller, params.model, params.id));

  r.delete('/api/bookmark/:model/:id', { params: item }, async ({ ctx, caller, params }) => {
    await removeBookmark(ctx, caller, params.model, params.id);
  });

  r.put(
    '/api/bookmark/ordering',
    { body: { orderings: s.array(s.object({ type: s.enum(BOOKMARK_MODELS), item_id: s.posInt() }, 'map with :type and :item_id')) } },
    async ({ ctx, caller, body }) => {
      await reorderBookmarks(ctx, caller, body.orderings);
    },
  );
}
