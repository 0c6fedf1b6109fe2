// /api/native-query-snippet (spec §4.19).

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { createSnippet, getSnippet, isValidSnippetName, listSnippets, NAME_MESSAGE, updateSnippet } from '../snippets/snippets.js';

const snippetName = () => s.check<string>(NAME_MESSAGE, isValidSnippetName);

export function nativeQuerySnippetRoutes(r: Routes) {
  r.get('/api/native-query-snippet', { query: { archived: s.maybe(s.boolstr()) } }, ({ ctx, caller, query }) =>
    listSnippets(ctx, caller, query.archived ?? false),
  );

  r.get('/api/native-query-snippet/:id', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => getSnippet(ctx, caller, params.id));

  r.post(
    '/api/native-query-snippet',
    { body: { content: s.str(), description: s.maybe(s.str()), name: snippetName(), collection_id: s.maybe(s.posInt()) } },
    ({ ctx, caller, body }) => createSnippet(ctx, caller, body),
  );

  r.put(
    '/api/native-query-snippet/:id',
    {
      params: { id: s.posInt() },
      body: {
        archived: s.maybe(s.bool()),
        content: s.maybe(s.str()),
        description: s.maybe(s.str()),
        name: s.maybe(snippetName()),
        collection_id: s.maybe(s.posInt()),
      },
    },
    ({ ctx, caller, params, body, bodyKeys }) => updateSnippet(ctx, caller, params.id, body, bodyKeys),
  );
}
