// /api/channel — notification channels (webhooks; reference A3). Admins only: others list none and read none.

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { createChannel, getChannel, listChannels, testChannel, updateChannel } from '../notify/channels.js';

export function channelRoutes(r: Routes): void {
  r.get('/api/channel', { query: { include_inactive: s.maybe(s.boolstr()) } }, ({ ctx, caller, query }) => listChannels(ctx, caller, query.include_inactive ?? false));
  r.get('/api/channel/:id', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => getChannel(ctx, caller, params.id));
  r.post(
    '/api/channel',
    { auth: 'admin', body: { name: s.name(), description: s.maybe(s.str()), type: s.optional(s.any()), details: s.map(), active: s.maybe(s.bool()) } },
    ({ ctx, body }) => createChannel(ctx, { name: body.name, description: body.description, type: body.type as string, details: body.details, active: body.active }),
  );
  r.put(
    '/api/channel/:id',
    {
      auth: 'admin',
      params: { id: s.posInt() },
      body: { name: s.maybe(s.name()), description: s.maybe(s.str()), type: s.optional(s.any()), details: s.maybe(s.map()), active: s.maybe(s.bool()) },
    },
    ({ ctx, params, body, bodyKeys }) => updateChannel(ctx, params.id, { ...body, type: body.type as string | undefined }, bodyKeys),
  );
  r.post('/api/channel/test', { auth: 'admin', body: { type: s.optional(s.any()), details: s.map() } }, ({ ctx, body }) => testChannel(ctx, body.type, body.details));
}
