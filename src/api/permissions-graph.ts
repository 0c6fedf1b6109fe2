// The data permissions graph (spec §4.9, reference §9.1): GET /api/permissions/graph, …/graph/db/:db-id,
// …/graph/group/:group-id and PUT /api/permissions/graph. Superusers only.

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { badRequest } from '../http/errors.js';
import { checkEditionOnlyKeys, dataGraph, updateDataGraph } from '../permissions/data-graph.js';
import '../permissions/data-hooks.js';

export function permissionsGraphRoutes(r: Routes) {
  r.get('/api/permissions/graph', { auth: 'admin' }, ({ ctx }) => dataGraph(ctx));
  r.get('/api/permissions/graph/db/:db-id', { auth: 'admin', params: { 'db-id': s.posInt() } }, ({ ctx, params }) =>
    dataGraph(ctx, { databaseId: params['db-id'] }),
  );
  r.get('/api/permissions/graph/group/:group-id', { auth: 'admin', params: { 'group-id': s.posInt() } }, ({ ctx, params }) =>
    dataGraph(ctx, { groupId: params['group-id'] }),
  );

  r.put(
    '/api/permissions/graph',
    { auth: 'admin', query: { 'skip-graph': s.maybe(s.boolstr()), force: s.maybe(s.boolstr()) } },
    async ({ ctx, caller, query, body }) => {
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Cannot parse permissions graph because it is invalid: the body must be a map');
      const graph = body as Record<string, unknown>;
      checkEditionOnlyKeys(graph);
      const groupIds = await updateDataGraph(ctx, caller, { revision: graph.revision, groups: graph.groups, force: query.force === true });
      const updated = await dataGraph(ctx);
      if (query['skip-graph'] === true) return { revision: updated.revision };
      const changed = new Set(groupIds.map(String));
      return { revision: updated.revision, groups: Object.fromEntries(Object.entries(updated.groups).filter(([id]) => changed.has(id))) };
    },
  );
}
