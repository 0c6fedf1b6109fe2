// /api/revision: the history of a card, dashboard or segment and going back to an earlier version.

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { listRevisions, revertRevision } from '../revisions/revisions.js';

const ENTITIES = ['card', 'dashboard', 'segment'] as const;

export function revisionRoutes(r: Routes) {
  r.get('/api/revision', { query: { entity: s.enum(ENTITIES), id: s.posInt() } }, ({ ctx, caller, query }) =>
    listRevisions(ctx, caller, query.entity, query.id),
  );

  r.get('/api/revision/:entity/:id', { params: { entity: s.enum(ENTITIES), id: s.posInt() } }, ({ ctx, caller, params }) =>
    listRevisions(ctx, caller, params.entity, params.id),
  );

  r.post('/api/revision/revert', { body: { entity: s.enum(ENTITIES), id: s.posInt(), revision_id: s.posInt() } }, ({ ctx, caller, body }) =>
    revertRevision(ctx, caller, body.entity, body.id, body.revision_id),
  );
}
