// /api/native-query-snippet (spec §4.19).

import type { Routes } from '../http/route.js';
import { s, type Schema } from '../http/schema.js';
import { createSnippet, getSnippet, isValidSnippetName, listSnippets, NAME_MESSAGE, updateSnippet } from '../snippets/snippets.js';
import { NAME_MAX } from '../util/fit.js';

/** A valid snippet name that fits its varchar(254) column (a longer one says so rather than the name rule). */
function snippetName(): Schema<string> {
  const valid = s.check<string>(NAME_MESSAGE, isValidSnippetName, { type: 'string', maxLength: NAME_MAX });
  const sized = s.str(NAME_MESSAGE, { max: NAME_MAX });
  return {
    ...valid,
    parse(value, coerce) {
      const r = valid.parse(value, coerce);
      return r.ok ? sized.parse(r.value, coerce) : r;
    },
  };
}

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
