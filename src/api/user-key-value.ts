// /api/user-key-value (Metabase 0.51+): the caller's own key-value store, per namespace and key.

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { fieldError } from '../http/errors.js';
import { deleteValue, getValue, namespaceValues, putValue } from '../users/key-value.js';

// NUL is refused with the rest of the string checks (the PostgreSQL app DB can't store it)
const name = s.nbstr('value must be a non-blank string of at most 254 characters.', { max: 254 });
const keyed = { namespace: name, key: name };
const timestamp = s.check<string>('value must be an ISO-8601 timestamp.', (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)));

export function userKeyValueRoutes(r: Routes) {
  r.get('/api/user-key-value/namespace/:namespace', { params: { namespace: name } }, ({ ctx, caller, params }) => namespaceValues(ctx, caller, params.namespace));
  r.get('/api/user-key-value/namespace/:namespace/key/:key', { params: keyed }, ({ ctx, caller, params }) => getValue(ctx, caller, params.namespace, params.key));
  r.put(
    '/api/user-key-value/namespace/:namespace/key/:key',
    { params: keyed, body: { value: s.any(), expires_at: s.maybe(timestamp) } },
    ({ ctx, caller, params, body, bodyKeys }) => {
      if (!bodyKeys.has('value')) throw fieldError('value', 'value is required.');
      return putValue(ctx, caller, params.namespace, params.key, body.value, body.expires_at ? new Date(body.expires_at).toISOString() : null);
    },
  );
  r.delete('/api/user-key-value/namespace/:namespace/key/:key', { params: keyed }, async ({ ctx, caller, params }) => {
    await deleteValue(ctx, caller, params.namespace, params.key);
  });
}
