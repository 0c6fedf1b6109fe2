// /api/field: a field's metadata, values (with human-readable remappings), value search and lookups,
// remappings (dimensions) and summary. Edits are admin-only; reads need query access to the field's table.

import type { Routes } from '../http/route.js';
import { parseParams, s } from '../http/schema.js';
import { isCoercionStrategy, isSemanticOrRelationType } from '../databases/type-hierarchy.js';
import {
  discardFieldValues, fieldSummary, getField, getFieldValues, remappedValue, removeDimension, rescanField, searchFieldValues,
  setDimension, setFieldValues, updateField,
} from '../databases/field-metadata.js';
import { checkFieldsVisible } from '../databases/access.js';

const id = { id: s.posInt() };
const SEMANTIC_MESSAGE = 'value must be a valid field semantic or relation type.';
const COERCION_MESSAGE = 'value must be a valid coercion strategy.';

export function fieldRoutes(r: Routes) {
  r.get('/api/field/:id', { params: id, query: { include_editable_data_model: s.maybe(s.boolstr()) } }, ({ ctx, caller, params }) => getField(ctx, caller, params.id));

  r.put(
    '/api/field/:id',
    {
      auth: 'admin',
      params: id,
      body: {
        visibility_type: s.maybe(s.enum(['retired', 'sensitive', 'normal', 'hidden', 'details-only'] as const)),
        display_name: s.maybe(s.name()),
        points_of_interest: s.maybe(s.nbstr()),
        description: s.maybe(s.nbstr()),
        semantic_type: s.maybe(s.check<string>(SEMANTIC_MESSAGE, isSemanticOrRelationType)),
        coercion_strategy: s.maybe(s.check<string>(COERCION_MESSAGE, isCoercionStrategy)),
        has_field_values: s.maybe(s.enum(['auto-list', 'list', 'none', 'search'] as const)),
        settings: s.maybe(s.map()),
        caveats: s.maybe(s.nbstr()),
        fk_target_field_id: s.maybe(s.posInt()),
        nfc_path: s.maybe(s.array(s.nbstr())),
        json_unfolding: s.maybe(s.bool()),
      },
    },
    ({ ctx, caller, params, body, bodyKeys }) => updateField(ctx, caller, params.id, body, bodyKeys),
  );

  r.get('/api/field/:id/summary', { params: id }, async ({ ctx, caller, params }) => {
    await checkFieldsVisible(ctx, caller, [params.id]);
    return fieldSummary(ctx, params.id);
  });
  r.get('/api/field/:id/values', { params: id }, async ({ ctx, caller, params }) => {
    await checkFieldsVisible(ctx, caller, [params.id]);
    return getFieldValues(ctx, params.id);
  });
  r.post('/api/field/:id/values', { auth: 'admin', params: id, body: { values: s.optional(s.any()), 'value-pairs': s.optional(s.any()) } }, ({ ctx, params, body }) =>
    setFieldValues(ctx, params.id, body.values ?? body['value-pairs']),
  );
  r.post('/api/field/:id/rescan_values', { auth: 'admin', params: id }, async ({ ctx, params }) => {
    await rescanField(ctx, params.id);
    return { status: 'success' };
  });
  r.post('/api/field/:id/discard_values', { auth: 'admin', params: id }, async ({ ctx, params }) => {
    await discardFieldValues(ctx, params.id);
    return { status: 'success' };
  });

  r.post(
    '/api/field/:id/dimension',
    {
      auth: 'admin',
      params: id,
      body: {
        type: s.optional(s.enum(['internal', 'external'] as const)),
        name: s.optional(s.name()),
        'dimension-type': s.optional(s.enum(['internal', 'external'] as const)),
        'dimension-name': s.optional(s.name()),
        human_readable_field_id: s.maybe(s.posInt()),
      },
    },
    ({ ctx, params, body }) => {
      // Metabase's body says `type`/`name`; the spec names them dimension-type/dimension-name. Either works.
      const type = body.type ?? body['dimension-type'];
      const name = body.name ?? body['dimension-name'];
      const checked = parseParams({ type: s.enum(['internal', 'external'] as const), name: s.name() }, { type, name }, false);
      return setDimension(ctx, params.id, checked.type, checked.name, body.human_readable_field_id);
    },
  );
  r.delete('/api/field/:id/dimension', { auth: 'admin', params: id }, async ({ ctx, params }) => {
    await removeDimension(ctx, params.id);
  });

  r.get('/api/field/:id/search/:search-id', { params: { ...id, 'search-id': s.posInt() }, query: { value: s.nbstr(), limit: s.maybe(s.posInt()) } }, async ({ ctx, caller, params, query }) => {
    await checkFieldsVisible(ctx, caller, [params.id, params['search-id']]);
    return searchFieldValues(ctx, params.id, params['search-id'], query.value, query.limit ?? 100, { allowSensitive: caller.isSuperuser });
  });
  r.get('/api/field/:id/remapping/:remapped-id', { params: { ...id, 'remapped-id': s.posInt() }, query: { value: s.nbstr() } }, async ({ ctx, caller, params, query }) => {
    await checkFieldsVisible(ctx, caller, [params.id, params['remapped-id']]);
    return remappedValue(ctx, params.id, params['remapped-id'], query.value, { allowSensitive: caller.isSuperuser });
  });
}
