// /api/segment: named filters on tables (reference §16). Reads for whoever may query the segment's table; writes for
// admins. PUT and DELETE take the `revision_message` Metabase requires; DELETE archives.

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { s } from '../http/schema.js';
import { listRevisions, revertRevision } from '../revisions/revisions.js';
import { archiveSegment, createSegment, getSegment, listSegments, updateSegment } from '../segments/segments.js';

export function segmentRoutes(r: Routes) {
  r.get('/api/segment', {}, ({ ctx, caller }) => listSegments(ctx, caller));

  r.get('/api/segment/:id', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => getSegment(ctx, caller, params.id));

  r.post(
    '/api/segment',
    {
      auth: 'admin',
      body: {
        name: s.name(),
        definition: s.map(),
        description: s.maybe(s.str()),
        // older Metabase requires it; newer versions take the table from the definition's source-table
        table_id: s.maybe(s.posInt()),
      },
    },
    ({ ctx, caller, body }) =>
      createSegment(ctx, caller, { name: body.name, description: body.description, table_id: body.table_id, definition: body.definition }),
  );

  r.put(
    '/api/segment/:id',
    {
      auth: 'admin',
      params: { id: s.posInt() },
      body: {
        name: s.maybe(s.name()),
        definition: s.maybe(s.map()),
        revision_message: s.nbstr(),
        archived: s.maybe(s.bool()),
        caveats: s.maybe(s.str()),
        description: s.maybe(s.str()),
        points_of_interest: s.maybe(s.str()),
        show_in_getting_started: s.maybe(s.bool()),
      },
    },
    ({ ctx, caller, params, body, bodyKeys }) => updateSegment(ctx, caller, params.id, body, bodyKeys),
  );

  r.delete(
    '/api/segment/:id',
    { auth: 'admin', params: { id: s.posInt() }, query: { revision_message: s.nbstr() } },
    async ({ ctx, caller, params, query }) => {
      await archiveSegment(ctx, caller, params.id, query.revision_message);
      return Respond.noContent();
    },
  );

  // The segment's history (Metabase ≤0.57 spellings; /api/revision?entity=segment answers the same).
  r.get('/api/segment/:id/revisions', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => listRevisions(ctx, caller, 'segment', params.id));

  r.post(
    '/api/segment/:id/revert',
    { auth: 'admin', params: { id: s.posInt() }, body: { revision_id: s.posInt() } },
    ({ ctx, caller, params, body }) => revertRevision(ctx, caller, 'segment', params.id, body.revision_id),
  );
}
