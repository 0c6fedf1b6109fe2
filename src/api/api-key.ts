// /api/api-key

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { countApiKeys, createApiKey, deleteApiKey, listApiKeys, regenerateApiKey, updateApiKey } from '../users/api-keys.js';


export function apiKeyRoutes(r: Routes) {
  r.post('/api/api-key', { body: { name: s.name(), group_id: s.posInt() } }, ({ ctx, caller, body }) =>
    createApiKey(ctx, caller, body.name.trim(), body.group_id),
  );
  r.get('/api/api-key', {}, ({ ctx, caller }) => listApiKeys(ctx, caller));
  r.get('/api/api-key/count', {}, ({ ctx, caller }) => countApiKeys(ctx, caller));
  r.put('/api/api-key/:id', { params: { id: s.posInt() }, body: { name: s.maybe(s.name()), group_id: s.maybe(s.posInt()) } }, ({ ctx, caller, params, body }) =>
    updateApiKey(ctx, caller, params.id, { name: body.name?.trim() ?? null, group_id: body.group_id }),
  );
  r.put('/api/api-key/:id/regenerate', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => regenerateApiKey(ctx, caller, params.id));
  r.delete('/api/api-key/:id', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await deleteApiKey(ctx, caller, params.id);
  });
}
