// /api/model-index (src/model-index): a model's records indexed by one text column, found by search.
//   POST   /api/model-index          {model_id, pk_ref, value_ref}
//   GET    /api/model-index?model_id=
//   GET    /api/model-index/:id
//   DELETE /api/model-index/:id

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { createModelIndex, deleteModelIndex, getModelIndex, listModelIndexes } from '../model-index/model-index.js';

const fieldRef = s.check<unknown>('value must be a field reference, like ["field", 12, null].', (v) => Array.isArray(v) && v.length >= 2 && typeof v[0] === 'string');

export function modelIndexRoutes(r: Routes) {
  r.post('/api/model-index', { body: { model_id: s.posInt(), pk_ref: fieldRef, value_ref: fieldRef } }, ({ ctx, caller, body }) =>
    createModelIndex(ctx, caller, { model_id: body.model_id, pk_ref: body.pk_ref, value_ref: body.value_ref }),
  );
  r.get('/api/model-index', { query: { model_id: s.posInt() } }, ({ ctx, caller, query }) => listModelIndexes(ctx, caller, query.model_id));
  r.get('/api/model-index/:id', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => getModelIndex(ctx, caller, params.id));
  r.delete('/api/model-index/:id', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await deleteModelIndex(ctx, caller, params.id);
  });
}
