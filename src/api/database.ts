// /api/database: connected databases and their metadata, the Saved Questions virtual database (-1337), the
// sample database, and sync/scan triggers. Superuser-only where Metabase reserves it; reads follow the caller's data
// permissions (src/databases/access.ts).

import type { Routes } from '../http/route.js';
import { enableDatabase, disableDatabase } from '../persistence/switch.js';
import { Respond } from '../http/route.js';
import { s } from '../http/schema.js';
import { isKnownEngine } from '../drivers/engines.js';
import { ENGINE_MESSAGE } from '../databases/connection-test.js';
import {
  createDatabase, deleteDatabase, discardDatabaseValues, dismissSpinner, getDatabase, listDatabases, requestSchemaSync, updateDatabase,
  validateDetails, databaseOr404,
} from '../databases/databases.js';
import { autocomplete, databaseFields, databaseMetadata, idFields, listSchemas, schemaTables, syncableSchemas } from '../databases/metadata.js';
import { cardAutocomplete, usageInfo } from '../databases/usage.js';
import { virtualMetadata, virtualSchemaTables, virtualSchemas } from '../databases/saved-questions.js';
import { databaseJson } from '../databases/json.js';
import { restoreSampleDatabase } from '../sample/sample-database.js';
import { triggerSync } from '../sync/runner.js';
import { forbidden } from '../http/errors.js';
import { checkDatabaseVisible, dataAccess } from '../databases/access.js';

const id = { id: s.posInt() };
const flag = () => s.maybe(s.boolstr());
const engine = s.check<string>(ENGINE_MESSAGE, isKnownEngine);

export function databaseRoutes(r: Routes) {
  r.get(
    '/api/database',
    {
      query: {
        include: s.maybe(s.enum(['tables'] as const)),
        saved: flag(),
        include_editable_data_model: flag(),
        exclude_uneditable_details: flag(),
        include_only_uploadable: flag(),
        include_analytics: flag(),
      },
    },
    ({ ctx, caller, query }) =>
      listDatabases(ctx, caller, {
        includeTables: query.include === 'tables',
        saved: query.saved === true,
        excludeUneditableDetails: query.exclude_uneditable_details === true,
        includeOnlyUploadable: query.include_only_uploadable === true,
        includeEditableDataModel: query.include_editable_data_model === true,
      }),
  );

  r.get(
    '/api/database/:id',
    { params: id, query: { include: s.maybe(s.enum(['tables', 'tables.fields'] as const)), include_editable_data_model: flag(), exclude_uneditable_details: flag() } },
    ({ ctx, caller, params, query }) => getDatabase(ctx, caller, params.id, query.include),
  );

  r.get(
    '/api/database/:id/metadata',
    { params: id, query: { include_hidden: flag(), include_editable_data_model: flag(), remove_inactive: flag(), skip_fields: flag() } },
    ({ ctx, caller, params, query }) =>
      databaseMetadata(ctx, caller, params.id, { includeHidden: query.include_hidden === true, removeInactive: query.remove_inactive === true, skipFields: query.skip_fields === true }),
  );

  r.get('/api/database/:id/schemas', { params: id, query: { include_editable_data_model: flag(), include_hidden: flag() } }, ({ ctx, caller, params, query }) =>
    listSchemas(ctx, caller, params.id, query.include_hidden === true),
  );
  r.get('/api/database/:id/schema', { params: id, query: { include_editable_data_model: flag(), include_hidden: flag() } }, ({ ctx, caller, params, query }) =>
    schemaTables(ctx, caller, params.id, '', query.include_hidden === true),
  );
  r.get('/api/database/:id/schema/:schema', { params: { ...id, schema: s.str() }, query: { include_editable_data_model: flag(), include_hidden: flag() } }, ({ ctx, caller, params, query }) =>
    schemaTables(ctx, caller, params.id, params.schema, query.include_hidden === true),
  );
  r.get('/api/database/:id/syncable_schemas', { params: id }, async ({ ctx, caller, params }) => {
    await databaseOr404(ctx, params.id);
    if (!(await dataAccess(ctx, caller)).canManageDatabase(params.id)) throw forbidden();
    return syncableSchemas(ctx, params.id);
  });
  r.get('/api/database/:id/fields', { params: id }, ({ ctx, caller, params }) => databaseFields(ctx, caller, params.id));
  r.get('/api/database/:id/idfields', { params: id, query: { include_editable_data_model: flag() } }, ({ ctx, caller, params }) => idFields(ctx, caller, params.id));
  r.get('/api/database/:id/autocomplete_suggestions', { params: id, query: { prefix: s.maybe(s.nbstr()), substring: s.maybe(s.nbstr()) } }, ({ ctx, caller, params, query }) =>
    autocomplete(ctx, caller, params.id, query.prefix, query.substring),
  );
  r.get(
    '/api/database/:id/card_autocomplete_suggestions',
    { params: id, query: { query: s.nbstr(), include_dashboard_questions: flag() } },
    async ({ ctx, caller, params, query }) => {
      await databaseOr404(ctx, params.id);
      await checkDatabaseVisible(ctx, caller, params.id);
      return cardAutocomplete(ctx, caller, params.id, query.query, query.include_dashboard_questions === true);
    },
  );
  r.get('/api/database/:id/usage_info', { auth: 'admin', params: id }, async ({ ctx, params }) => {
    await databaseOr404(ctx, params.id);
    return usageInfo(ctx, params.id);
  });

  // The Saved Questions virtual database.
  r.get('/api/database/-1337/schemas', {}, ({ ctx, caller }) => virtualSchemas(ctx, caller, 'question'));
  r.get('/api/database/-1337/schema/:schema', { params: { schema: s.str() } }, ({ ctx, caller, params }) => virtualSchemaTables(ctx, caller, params.schema, 'question'));
  r.get('/api/database/-1337/datasets', {}, ({ ctx, caller }) => virtualSchemas(ctx, caller, 'model'));
  r.get('/api/database/-1337/datasets/:schema', { params: { schema: s.str() } }, ({ ctx, caller, params }) => virtualSchemaTables(ctx, caller, params.schema, 'model'));
  r.get('/api/database/-1337/metadata', {}, ({ ctx, caller }) => virtualMetadata(ctx, caller));

  r.post(
    '/api/database',
    {
      auth: 'admin',
      body: {
        engine,
        name: s.name(),
        description: s.maybe(s.str()),
        details: s.map(),
        schedules: s.maybe(s.map()),
        connection_source: s.maybe(s.enum(['admin', 'setup'] as const)),
        auto_run_queries: s.maybe(s.bool()),
        is_full_sync: flag(),
        is_on_demand: flag(),
        cache_ttl: s.maybe(s.posInt()),
      },
    },
    ({ ctx, caller, body }) => createDatabase(ctx, caller, body),
  );

  r.post('/api/database/validate', { auth: 'admin', body: { details: s.map(), engine: s.optional(engine) } }, ({ ctx, body }) => {
    // Metabase nests the request as {"details": {"engine", "details"}}; a flat {"engine", "details"} works too.
    const nested = body.engine === undefined;
    const chosenEngine = nested ? body.details.engine : body.engine;
    const details = nested ? body.details.details : body.details;
    return validateDetails(ctx, chosenEngine, details && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>) : {});
  });

  r.post('/api/database/sample_database', { auth: 'admin' }, async ({ ctx, caller }) => databaseJson(ctx, await restoreSampleDatabase(ctx), caller));

  r.put(
    '/api/database/:id',
    {
      auth: 'admin',
      params: id,
      body: {
        engine: s.optional(engine),
        name: s.maybe(s.name()),
        details: s.maybe(s.map()),
        schedules: s.maybe(s.map()),
        refingerprint: s.maybe(s.bool()),
        points_of_interest: s.maybe(s.str()),
        description: s.maybe(s.str()),
        caveats: s.maybe(s.str()),
        auto_run_queries: s.maybe(s.bool()),
        settings: s.maybe(s.map()),
        is_full_sync: flag(),
        is_on_demand: flag(),
        cache_ttl: s.maybe(s.posInt()),
      },
    },
    ({ ctx, caller, params, body, bodyKeys }) => updateDatabase(ctx, caller, params.id, body, bodyKeys),
  );

  r.delete('/api/database/:id', { auth: 'admin', params: id }, async ({ ctx, params }) => {
    await deleteDatabase(ctx, params.id);
  });

  r.post('/api/database/:id/sync_schema', { auth: 'admin', params: id }, async ({ ctx, params }) => {
    await requestSchemaSync(ctx, params.id);
    return { status: 'ok' };
  });
  r.post('/api/database/:id/rescan_values', { auth: 'admin', params: id }, async ({ ctx, params }) => {
    await databaseOr404(ctx, params.id);
    triggerSync(ctx, params.id, 'values');
    return { status: 'ok' };
  });
  r.post('/api/database/:id/discard_values', { auth: 'admin', params: id }, async ({ ctx, params }) => {
    await discardDatabaseValues(ctx, params.id);
    return { status: 'ok' };
  });
  r.post('/api/database/:id/dismiss_spinner', { auth: 'admin', params: id }, ({ ctx, params }) => dismissSpinner(ctx, params.id));
  r.post('/api/database/:id/persist', { params: id }, async ({ ctx, caller, params }) => {
    await enableDatabase(ctx, caller, await databaseOr404(ctx, params.id));
    return Respond.noContent();
  });
  r.post('/api/database/:id/unpersist', { params: id }, async ({ ctx, caller, params }) => {
    await disableDatabase(ctx, caller, await databaseOr404(ctx, params.id));
    return Respond.noContent();
  });
}
