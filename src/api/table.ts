// /api/table: outside the spec but used by every client — listing and editing tables, the query builder's view of
// a table (query_metadata, also for saved questions as `card__<id>`), FKs, field order, and
// per-table value maintenance.

import { recordView } from '../activity/views.js';
import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { notFound } from '../http/errors.js';
import {
  discardTableValues, foreignKeysInto, getTable, isEntityType, listTables, queryMetadata, reorderFields, rescanTableValues, tableOr404,
  updateTables,
} from '../databases/table-metadata.js';
import { virtualTableMetadata } from '../databases/saved-questions.js';
import { triggerSync } from '../sync/runner.js';
import { checkTableVisible } from '../databases/access.js';

const id = { id: s.posInt() };
const flag = () => s.maybe(s.boolstr());
const tableBody = {
  display_name: s.maybe(s.name()),
  description: s.maybe(s.str()),
  visibility_type: s.maybe(s.enum(['hidden', 'technical', 'cruft'] as const)),
  entity_type: s.maybe(s.check<string>('value must be a valid entity type (keyword or string).', isEntityType)),
  field_order: s.maybe(s.enum(['database', 'alphabetical', 'custom', 'smart'] as const)),
  caveats: s.maybe(s.str()),
  points_of_interest: s.maybe(s.str()),
  show_in_getting_started: s.maybe(s.bool()),
};

export function tableRoutes(r: Routes) {
  r.get('/api/table', {}, ({ ctx, caller }) => listTables(ctx, caller));
  r.get('/api/table/:id', { params: id, query: { include_editable_data_model: flag() } }, async ({ ctx, caller, params }) => {
    const table = await getTable(ctx, caller, params.id);
    await recordView(ctx, caller, 'table', params.id); // tables appear in recents and popular items
    return table;
  });

  r.put('/api/table/:id', { auth: 'admin', params: id, body: tableBody }, async ({ ctx, caller, params, body, bodyKeys }) => {
    await updateTables(ctx, [params.id], body, bodyKeys);
    return getTable(ctx, caller, params.id);
  });
  r.put('/api/table', { auth: 'admin', body: { ids: s.array(s.posInt()), ...tableBody } }, async ({ ctx, caller, body, bodyKeys }) => {
    await updateTables(ctx, body.ids, body, bodyKeys);
    return Promise.all(body.ids.map((tableId) => getTable(ctx, caller, tableId)));
  });

  r.get(
    '/api/table/:id/query_metadata',
    { params: id, query: { include_sensitive_fields: flag(), include_hidden_fields: flag(), include_editable_data_model: flag() } },
    ({ ctx, caller, params, query }) =>
      queryMetadata(ctx, caller, params.id, { includeSensitive: query.include_sensitive_fields === true, includeHidden: query.include_hidden_fields === true }),
  );
  r.get('/api/table/card__:id/query_metadata', { params: id }, async ({ ctx, caller, params }) => {
    const table = await virtualTableMetadata(ctx, caller, params.id);
    if (!table) throw notFound();
    return table;
  });
  r.get('/api/table/:id/fks', { params: id }, async ({ ctx, caller, params }) => {
    const access = await checkTableVisible(ctx, caller, await tableOr404(ctx, params.id));
    return foreignKeysInto(ctx, params.id, access);
  });

  r.put('/api/table/:id/fields/order', { auth: 'admin', params: id }, ({ ctx, params, request }) => {
    const order = Array.isArray(request.body) ? request.body : [];
    return reorderFields(ctx, params.id, order.map(Number));
  });

  r.post('/api/table/:id/rescan_values', { auth: 'admin', params: id }, async ({ ctx, params }) => {
    await rescanTableValues(ctx, params.id);
    return { status: 'success' };
  });
  r.post('/api/table/:id/discard_values', { auth: 'admin', params: id }, async ({ ctx, params }) => {
    await discardTableValues(ctx, params.id);
    return { status: 'success' };
  });
  r.post('/api/table/:id/sync_schema', { auth: 'admin', params: id }, async ({ ctx, params }) => {
    const table = await tableOr404(ctx, params.id);
    triggerSync(ctx, table.db_id, 'schema');
    return { status: 'ok' };
  });
}

