// /api/timeline: timelines of collections (events are under /api/timeline-event).

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { collectionTimelines, createTimeline, deleteTimeline, getTimeline, listTimelines, updateTimeline, ICONS } from '../timelines/timelines.js';
import { datestr, timelineName } from './timeline-event.js';

const timelineBody = {
  description: s.maybe(s.str()),
  icon: s.maybe(s.enum(ICONS)),
  collection_id: s.maybe(s.posInt()),
  default: s.maybe(s.bool()),
  archived: s.maybe(s.bool()),
};
const include = s.maybe(s.enum(['events'] as const));

export function timelineRoutes(r: Routes) {
  r.get('/api/timeline', { query: { include, archived: s.maybe(s.bool()) } }, ({ ctx, caller, query }) =>
    listTimelines(ctx, caller, { includeEvents: query.include === 'events', archived: query.archived ?? false }),
  );

  r.get('/api/timeline/collection/root', { query: { include, archived: s.maybe(s.bool()) } }, ({ ctx, caller, query }) =>
    collectionTimelines(ctx, caller, null, { includeEvents: query.include === 'events', archived: query.archived ?? false }),
  );

  r.get('/api/timeline/collection/:id', { params: { id: s.posInt() }, query: { include, archived: s.maybe(s.bool()) } }, ({ ctx, caller, params, query }) =>
    collectionTimelines(ctx, caller, params.id, { includeEvents: query.include === 'events', archived: query.archived ?? false }),
  );

  r.get(
    '/api/timeline/:id',
    { params: { id: s.posInt() }, query: { include, archived: s.maybe(s.bool()), start: s.maybe(datestr()), end: s.maybe(datestr()) } },
    ({ ctx, caller, params, query }) =>
      getTimeline(ctx, caller, params.id, {
        includeEvents: query.include === 'events',
        archived: query.archived ?? false,
        start: query.start,
        end: query.end,
      }),
  );

  r.post('/api/timeline', { body: { name: timelineName(), ...timelineBody } }, ({ ctx, caller, body }) => createTimeline(ctx, caller, body));

  r.put('/api/timeline/:id', { params: { id: s.posInt() }, body: { name: s.maybe(timelineName()), ...timelineBody } }, ({ ctx, caller, params, body, bodyKeys }) =>
    updateTimeline(ctx, caller, params.id, body, bodyKeys),
  );

  r.delete('/api/timeline/:id', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await deleteTimeline(ctx, caller, params.id);
  });
}
