// The authorization matrix: every API route the server registers × {anonymous, ordinary user, user whose groups have
// no data access, admin}, one request each, in parallel, against admin-only fixtures (./fixtures.ts). Each answer must
// have the expected status, no caller may ever get a 5xx, and a denied answer (401/403, or a query refused for
// missing permissions) must carry none of the fixtures' names or data.
//
// The routes come from the server itself: a route missing from EXPECTED fails the test, so a new endpoint can't be
// added without saying who may call it. Defaults: anonymous 401 (unless the route is open), ordinary and no-data
// users 403, admin a success; EXPECTED lists the exceptions.
//
// QUARRY_MATRIX_DISCOVER=1 prints what every caller got, to review when adding routes.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb } from '../helpers/server.js';
import type { ApiResponse, Client } from '../helpers/client.js';
import { registeredRoutes, type RegisteredRoute } from './routes.js';
import { concretePath, matrixFixtures, SECRET_MARKER, type CallerName, type MatrixFixtures } from './fixtures.js';

type Status = number | number[];
interface Expectation {
  anon?: Status;
  user?: Status;
  nodata?: Status;
  admin?: Status;
  /** Both users. */
  users?: Status;
  /** Everyone (open routes). */
  all?: Status;
  body?: (fx: MatrixFixtures) => unknown;
  query?: (fx: MatrixFixtures) => Record<string, string | number>;
}

const OK = [200, 202, 204];
const CALLERS: CallerName[] = ['anon', 'user', 'nodata', 'admin'];

const productsCount = (fx: MatrixFixtures) => ({ database: fx.sample.id, type: 'query', query: { 'source-table': fx.sample.table('PRODUCTS'), aggregation: [['count']] } });
const byCategory = (fx: MatrixFixtures) => ({ ...productsCount(fx), query: { ...productsCount(fx).query, breakout: [['field', fx.categoryField, null]] } });
const valuesBody = (fx: MatrixFixtures) => ({ parameter: { id: 'p', type: 'category' }, field_ids: [fx.categoryField] });
/** A route on the Sample Database's metadata: the ordinary user may read it, the no-data user may not. */
const dataRead: Expectation = { user: 200, nodata: 403 };
const tileFields = (fx: MatrixFixtures) => ({
  latField: JSON.stringify(['field', fx.sample.field('PEOPLE', 'LATITUDE'), null]),
  lonField: JSON.stringify(['field', fx.sample.field('PEOPLE', 'LONGITUDE'), null]),
});
/** Validation fails before anything else (the empty body the matrix sends). */
const invalid: Expectation = { users: 400, admin: 400 };
/** Open to every signed-in user. */
const signedIn: Expectation = { users: 200 };

/**
 * Who may call what, where it differs from the defaults (anonymous 401, users 403, admin a success). Every
 * registered route must appear here or in OPEN.
 */
const EXPECTED: Record<string, Expectation> = {
  'GET /api/alert': signedIn, // the alerts one created or receives
  'POST /api/alert': invalid,
  'GET /api/alert/:id': {},
  'PUT /api/alert/:id': {},
  'DELETE /api/alert/:id/subscription': {}, // the card is unreadable to users; the admin receives it
  'GET /api/alert/question/:id': {},
  'GET /api/channel': signedIn, // non-admins list none
  'POST /api/channel': { admin: 400 },
  'GET /api/channel/:id': {},
  'PUT /api/channel/:id': {},
  'POST /api/channel/test': { admin: 400 },
  'DELETE /api/email': {},
  'PUT /api/email': { admin: 400 },
  'POST /api/email/test': { admin: 400 }, // email isn't configured
  'GET /api/notification': signedIn, // the alerts one may read
  'POST /api/notification': invalid,
  'GET /api/notification/:id': {},
  'PUT /api/notification/:id': invalid,
  'POST /api/notification/:id/send': { admin: 400 }, // the alert's question sends nothing for lack of email settings
  'POST /api/notification/:id/unsubscribe': {}, // only its recipient, the admin
  'POST /api/notification/send': invalid,
  'GET /api/pulse': signedIn, // the subscriptions one may change
  'POST /api/pulse': invalid,
  'GET /api/pulse/:id': {},
  'PUT /api/pulse/:id': {},
  'DELETE /api/pulse/:id/subscription': { users: 404 }, // they don't receive it
  'GET /api/pulse/form_input': signedIn,
  'GET /api/pulse/preview_card/:id': {},
  'GET /api/pulse/preview_card_info/:id': {},
  'GET /api/pulse/preview_card_png/:id': {},
  'GET /api/pulse/preview_dashboard/:id': {},
  'POST /api/pulse/test': invalid,
  'GET /api/slack/manifest': {},
  'PUT /api/slack/settings': {},
  'GET /api/action': signedIn, // lists only the actions of models the caller can read
  'POST /api/action': invalid,
  'DELETE /api/action/:action-id': {},
  'GET /api/action/:action-id': {},
  'PUT /api/action/:action-id': {},
  'GET /api/action/:action-id/execute': { query: () => ({ parameters: '{}' }) },
  'POST /api/action/:action-id/execute': { admin: 400 }, // the empty body leaves its parameters without values
  'DELETE /api/action/:action-id/public_link': {},
  'POST /api/action/:action-id/public_link': {},
  'GET /api/action/public': {},
  'GET /api/activity/most_recently_viewed_dashboard': { users: 204, admin: 204 },
  'GET /api/activity/popular_items': signedIn,
  'GET /api/activity/recent_views': signedIn,
  'GET /api/activity/recents': { ...signedIn, query: () => ({ context: 'views' }) },
  'POST /api/activity/recents': { body: (fx) => ({ model: 'card', model_id: fx.cardId, context: 'selection' }), users: 403, admin: 204 },
  'GET /api/api-key': {},
  'POST /api/api-key': invalid,
  'DELETE /api/api-key/:id': {},
  'PUT /api/api-key/:id': {},
  'PUT /api/api-key/:id/regenerate': {},
  'GET /api/api-key/count': {},
  'GET /api/bookmark': signedIn,
  'DELETE /api/bookmark/:model/:id': { users: 204 }, // one's own (absent) bookmark
  'POST /api/bookmark/:model/:id': {},
  'PUT /api/bookmark/ordering': invalid,
  'GET /api/cache': {},
  'PUT /api/cache': { body: () => ({ model: 'root', model_id: 0, strategy: { type: 'nocache' } }) },
  'DELETE /api/cache': { body: () => ({ model: 'root', model_id: [0] }) },
  'POST /api/cache/invalidate': { query: (fx) => ({ question: fx.cardId }) },
  // model persistence: the fixture card is a question on SQLite, with no persisted_info row
  'POST /api/card/:id/persist': { admin: 400 },
  'POST /api/card/:id/refresh': { users: 404, admin: 404 },
  'POST /api/card/:id/unpersist': { users: 204, admin: 204 }, // nothing to switch off: Metabase's no-op 204
  'POST /api/persist/card/:card-id/persist': { admin: 400 },
  'POST /api/persist/card/:card-id/refresh': { users: 404, admin: 404 },
  'POST /api/persist/card/:card-id/unpersist': { users: 204, admin: 204 },
  'GET /api/persist': {},
  'GET /api/persist/:persisted-info-id': { admin: 404 },
  'GET /api/persist/card/:card-id': { users: 404, admin: 404 },
  'POST /api/persist/database/:id/persist': { users: [400, 403], admin: 400 },
  'POST /api/persist/database/:id/unpersist': {},
  'POST /api/persist/enable': {},
  'POST /api/persist/disable': {},
  'POST /api/persist/set-refresh-schedule': { body: () => ({ cron: '0 0 0/6 * * ? *' }) },
  'GET /api/card': signedIn,
  'POST /api/card': { body: (fx) => ({ name: 'x', display: 'table', visualization_settings: {}, dataset_query: productsCount(fx) }), user: 200, nodata: 403, admin: 200 },
  'DELETE /api/card/:id': {},
  'GET /api/card/:id': {},
  'PUT /api/card/:id': {},
  'POST /api/card/:id/copy': {},
  'GET /api/card/:id/dashboards': {},
  'GET /api/card/:id/params/:param-key/search/:query': {},
  'GET /api/card/:id/params/:param-key/values': {},
  'DELETE /api/card/:id/public_link': {},
  'POST /api/card/:id/public_link': {},
  'POST /api/card/:id/query': {},
  'GET /api/card/:id/query_metadata': {},
  'POST /api/card/:id/query/:export-format': {},
  'GET /api/card/:id/series': { admin: 400 }, // a breakout of a category can't take series
  'GET /api/card/:id/timelines': {},
  'POST /api/card/collections': { body: (fx) => ({ card_ids: [fx.cardId], collection_id: null }) },
  'GET /api/card/embeddable': {},
  'POST /api/card/from-csv': invalid, // no file
  'POST /api/card/pivot/:card-id/query': {},
  'GET /api/card/public': {},
  'GET /api/collection': signedIn,
  'POST /api/collection': invalid,
  'GET /api/collection/:id': {},
  'PUT /api/collection/:id': {},
  'GET /api/collection/:id/items': {},
  'GET /api/collection/:id/timelines': {},
  'GET /api/collection/graph': {},
  'PUT /api/collection/graph': { admin: 400 },
  'GET /api/collection/root': signedIn,
  'GET /api/collection/root/items': signedIn,
  'GET /api/collection/root/timelines': signedIn,
  'GET /api/collection/trash': signedIn,
  'GET /api/collection/tree': signedIn,
  'GET /api/dashboard': signedIn,
  'POST /api/dashboard': invalid,
  'DELETE /api/dashboard/:id': {},
  'GET /api/dashboard/:id': {},
  'PUT /api/dashboard/:id': {},
  'PUT /api/dashboard/:id/cards': invalid,
  'POST /api/dashboard/:id/copy': {},
  'POST /api/dashboard/:id/dashcard/:dashcard-id/card/:card-id/query': {},
  'POST /api/dashboard/:id/dashcard/:dashcard-id/card/:card-id/query/:export-format': {},
  'GET /api/dashboard/:id/dashcard/:dashcard-id/execute': { query: () => ({ parameters: '{}' }), admin: 404 }, // no dashcard has an action
  'POST /api/dashboard/:id/dashcard/:dashcard-id/execute': { admin: 404 }, // no dashcard has an action
  'GET /api/dashboard/:id/items': {},
  'GET /api/dashboard/:id/params/:param-key/search/:query': {},
  'GET /api/dashboard/:id/params/:param-key/values': {},
  'DELETE /api/dashboard/:id/public_link': {},
  'POST /api/dashboard/:id/public_link': {},
  'GET /api/dashboard/:id/query_metadata': {},
  'GET /api/dashboard/:id/related': {},
  'POST /api/dashboard/:id/revert': invalid,
  'GET /api/dashboard/:id/revisions': {},
  'GET /api/dashboard/embeddable': {},
  'GET /api/dashboard/params/valid-filter-fields': { ...dataRead, query: (fx) => ({ filtered: fx.categoryField }) },
  'POST /api/dashboard/pivot/:dashboard-id/dashcard/:dashcard-id/card/:card-id/query': {},
  'GET /api/dashboard/public': {},
  'POST /api/dashboard/save': invalid,
  'POST /api/dashboard/save/collection/:parent-collection-id': invalid,
  'GET /api/database': signedIn,
  'POST /api/database': { admin: 400 },
  'GET /api/database/-1337/datasets': signedIn,
  'GET /api/database/-1337/datasets/:schema': signedIn,
  'GET /api/database/-1337/metadata': signedIn,
  'GET /api/database/-1337/schema/:schema': signedIn,
  'GET /api/database/-1337/schemas': signedIn,
  'DELETE /api/database/:id': {},
  'GET /api/database/:id': dataRead,
  'PUT /api/database/:id': {},
  'GET /api/database/:id/autocomplete_suggestions': { ...dataRead, query: () => ({ prefix: 'P' }) },
  'GET /api/database/:id/card_autocomplete_suggestions': { ...dataRead, query: () => ({ query: 'Zq' }) },
  'POST /api/database/:id/discard_values': {},
  'POST /api/database/:id/dismiss_spinner': {},
  'GET /api/database/:id/fields': dataRead,
  'GET /api/database/:id/idfields': dataRead,
  'GET /api/database/:id/metadata': dataRead,
  // the site switch is checked first (400 `Persisting models is not enabled.` for anyone); SQLite can't persist models
  'POST /api/database/:id/persist': { users: [400, 403], admin: 400 },
  'POST /api/database/:id/rescan_values': {},
  'GET /api/database/:id/schema': dataRead,
  'GET /api/database/:id/schema/:schema': dataRead,
  'GET /api/database/:id/schemas': dataRead,
  'POST /api/database/:id/sync_schema': {},
  'GET /api/database/:id/syncable_schemas': {},
  'POST /api/database/:id/unpersist': {},
  'GET /api/database/:id/usage_info': {},
  'POST /api/database/sample_database': {},
  'POST /api/database/validate': { admin: 400 },
  'POST /api/dataset': { body: productsCount, user: 202, nodata: 403, admin: 202 },
  'POST /api/dataset/:export-format': { body: (fx) => ({ query: JSON.stringify(productsCount(fx)) }), user: 200, nodata: 403, admin: 200 },
  'POST /api/dataset/duration': { body: productsCount, users: 200 }, // only the average running time of a query hash
  'POST /api/dataset/native': { body: productsCount, user: 200, nodata: 403, admin: 200 },
  'POST /api/dataset/parameter/search/:query': { body: valuesBody, ...dataRead },
  'POST /api/dataset/parameter/search': { body: valuesBody, query: () => ({ query: 'a' }), ...dataRead },
  'POST /api/dataset/parameter/values': { body: valuesBody, ...dataRead },
  'POST /api/dataset/pivot': { body: byCategory, user: 202, nodata: 403, admin: 202 },
  'POST /api/dataset/query_metadata': { body: productsCount, users: 200 }, // what the caller may not see is left out
  'GET /api/field/:id': dataRead,
  'PUT /api/field/:id': {},
  'DELETE /api/field/:id/dimension': {},
  'POST /api/field/:id/dimension': { admin: 400 },
  'POST /api/field/:id/discard_values': {},
  'GET /api/field/:id/related': dataRead,
  'GET /api/field/:id/remapping/:remapped-id': { ...dataRead, query: () => ({ value: 'Gizmo' }) },
  'POST /api/field/:id/rescan_values': {},
  'GET /api/field/:id/search/:search-id': { ...dataRead, query: () => ({ value: 'Gi' }) },
  'GET /api/field/:id/summary': dataRead,
  'GET /api/field/:id/values': dataRead,
  'POST /api/field/:id/values': { admin: 400 },
  // snippets are for those who may write SQL somewhere (the ordinary user may, on the Sample Database)
  'GET /api/native-query-snippet': signedIn, // an empty list for the no-data user
  'POST /api/native-query-snippet': invalid,
  'GET /api/native-query-snippet/:id': { user: 200 },
  'PUT /api/native-query-snippet/:id': { user: 200 }, // All Users curate the root snippet folder by default
  'GET /api/permissions/graph': {},
  'PUT /api/permissions/graph': { admin: 400 },
  'GET /api/permissions/graph/db/:db-id': {},
  'GET /api/permissions/graph/group/:group-id': {},
  'GET /api/permissions/group': {},
  'POST /api/permissions/group': invalid,
  'DELETE /api/permissions/group/:id': {},
  'GET /api/permissions/group/:id': {},
  'PUT /api/permissions/group/:id': invalid,
  'GET /api/permissions/membership': {},
  'POST /api/permissions/membership': invalid,
  'DELETE /api/permissions/membership/:id': { admin: 404 }, // cleared just before
  'PUT /api/permissions/membership/:id': invalid,
  'PUT /api/permissions/membership/:id/clear': {},
  'GET /api/revision': { query: (fx) => ({ entity: 'card', id: fx.cardId }) },
  'GET /api/revision/:entity/:id': {},
  'POST /api/revision/revert': invalid,
  'GET /api/search': signedIn,
  // segments: read by whoever may query their table, written by admins (PUT/DELETE need a revision_message)
  'GET /api/segment': signedIn, // the no-data user's list is empty
  'POST /api/segment': { admin: 400 },
  'GET /api/segment/:id': dataRead,
  'PUT /api/segment/:id': { admin: 400 },
  'DELETE /api/segment/:id': { query: () => ({ revision_message: 'matrix' }) }, // archives it
  'GET /api/segment/:id/revisions': dataRead,
  'POST /api/segment/:id/revert': { admin: 400 },
  'GET /api/setting': {},
  'PUT /api/setting': { users: 204 }, // nothing sent; users may change only their own settings
  'GET /api/setting/:key': signedIn,
  'PUT /api/setting/:key': { body: () => ({ value: null }) }, // resets site-name; a body without `value` is a 400
  'GET /api/task': {},
  'GET /api/task/:id': {}, // history row 1: the housekeeping run at start
  'GET /api/task/info': {},
  'GET /api/task/unique-tasks': {},
  'GET /api/table': signedIn,
  'PUT /api/table': { admin: 400 },
  'GET /api/table/:id': dataRead,
  'PUT /api/table/:id': {},
  'POST /api/table/:id/discard_values': {},
  'PUT /api/table/:id/fields/order': { admin: 400 },
  'GET /api/table/:id/fks': dataRead,
  'GET /api/table/:id/query_metadata': dataRead,
  'GET /api/table/:id/related': dataRead,
  'POST /api/table/:id/rescan_values': {},
  'POST /api/table/:id/sync_schema': {},
  'GET /api/table/card__:id/query_metadata': { users: 404 }, // saved questions the caller can't read aren't tables
  'GET /api/timeline': signedIn,
  'POST /api/timeline': invalid,
  'POST /api/timeline-event': invalid,
  'DELETE /api/timeline-event/:id': {},
  'GET /api/timeline-event/:id': {},
  'PUT /api/timeline-event/:id': {},
  'DELETE /api/timeline/:id': {},
  'GET /api/timeline/:id': {},
  'PUT /api/timeline/:id': {},
  'GET /api/timeline/collection/:id': {},
  'GET /api/timeline/collection/root': signedIn,
  'GET /api/user': {},
  'POST /api/user': invalid,
  'DELETE /api/user/:id': { admin: 400 }, // the last admin stays
  'GET /api/user/:id': {},
  'PUT /api/user/:id': {},
  'PUT /api/user/:id/modal/:modal': {},
  'PUT /api/user/:id/password': invalid,
  'PUT /api/user/:id/reactivate': { admin: 400 }, // already active
  'GET /api/user/current': signedIn,
  'GET /api/user/recipients': signedIn,
  // endpoints of newer Metabase versions (test/endpoints)
  'GET /api/database/:id/healthcheck': dataRead,
  'GET /api/table/:id/data': dataRead,
  'GET /api/table/card__:id/fks': signedIn, // always []
  'POST /api/table/:id/append-csv': invalid, // no file
  'POST /api/table/:id/replace-csv': invalid,
  'POST /api/upload/csv': invalid,
  'POST /api/cards/move': { body: (fx) => ({ card_ids: [fx.cardId], collection_id: fx.collectionId }) },
  'POST /api/cards/dashboards': { body: (fx) => ({ card_ids: [fx.cardId] }) },
  'GET /api/card/:id/params/:param-key/remapping': { query: () => ({ value: 'Gizmo' }) },
  'DELETE /api/collection/:id': { admin: 400 }, // not in the Trash
  'GET /api/bug-reporting/details': {},
  'GET /api/util/bug_report_details': {},
  'GET /api/analytics/anonymous-stats': {},
  'GET /api/util/stats': {},
  'GET /api/logger/logs': {},
  'GET /api/bug-reporting/connection-pool-details': {},
  'GET /api/util/diagnostic_info/connection_pool_info': {},
  'GET /api/util/logs': {},
  'POST /api/eid-translation/translate': invalid,
  'POST /api/util/entity_id': invalid,
  'GET /api/geojson': { admin: 400 }, // no url
  'GET /api/login-history/current': signedIn,
  'GET /api/user-key-value/namespace/:namespace': signedIn,
  'GET /api/user-key-value/namespace/:namespace/key/:key': { users: 204, admin: 204 },
  'PUT /api/user-key-value/namespace/:namespace/key/:key': invalid, // no value
  'DELETE /api/user-key-value/namespace/:namespace/key/:key': { users: 204 },
  // the endpoints the first pass left for later (test/endpoints)
  'GET /api/collection/root/dashboard-question-candidates': {},
  'GET /api/collection/:id/dashboard-question-candidates': {},
  'POST /api/collection/root/move-dashboard-question-candidates': { body: () => ({ card_ids: [999999] }) }, // moves nothing
  'POST /api/collection/:id/move-dashboard-question-candidates': { body: () => ({ card_ids: [999999] }) },
  'GET /api/setup/admin_checklist': {},
  'GET /api/segment/:id/related': dataRead,
  'GET /api/automagic-dashboards/:entity/:entity-id-or-query': dataRead,
  'GET /api/automagic-dashboards/:entity/:entity-id-or-query/cell/:cell-query': dataRead,
  'GET /api/automagic-dashboards/:entity/:entity-id-or-query/cell/:cell-query/compare/:comparison-entity/:comparison-entity-id-or-query': dataRead,
  'GET /api/automagic-dashboards/:entity/:entity-id-or-query/cell/:cell-query/rule/:prefix/:dashboard-template': dataRead,
  'GET /api/automagic-dashboards/:entity/:entity-id-or-query/cell/:cell-query/rule/:prefix/:dashboard-template/compare/:comparison-entity/:comparison-entity-id-or-query': dataRead,
  'GET /api/automagic-dashboards/:entity/:entity-id-or-query/compare/:comparison-entity/:comparison-entity-id-or-query': dataRead,
  'GET /api/automagic-dashboards/:entity/:entity-id-or-query/query_metadata': dataRead,
  'GET /api/automagic-dashboards/:entity/:entity-id-or-query/rule/:prefix/:dashboard-template': dataRead,
  'GET /api/automagic-dashboards/:entity/:entity-id-or-query/rule/:prefix/:dashboard-template/compare/:comparison-entity/:comparison-entity-id-or-query': dataRead,
  'GET /api/automagic-dashboards/database/:id/candidates': dataRead,
  'GET /api/automagic-dashboards/model_index/:model-index-id/primary_key/:pk-id': { users: 404, admin: 404 }, // there is none
  'GET /api/card/:id/related': {}, // the card is in the admin-only collection
  'POST /api/card/related': { body: productsCount, user: 200, nodata: 403, admin: 200 },
  'GET /api/tiles/:zoom/:x/:y/:lat-field/:lon-field': { ...dataRead, query: (fx) => ({ query: JSON.stringify({ database: fx.sample.id, type: 'query', query: { 'source-table': fx.sample.table('PEOPLE') } }) }) },
  'GET /api/tiles/:card-id/:zoom/:x/:y/:lat-field/:lon-field': { admin: 400 }, // the card has no latitude
  'GET /api/tiles/:dashboard-id/dashcard/:dashcard-id/card/:card-id/:zoom/:x/:y/:lat-field/:lon-field': { admin: 400 },
  // 0.58's form: the fields in the query string
  'GET /api/tiles/:zoom/:x/:y': { ...dataRead, query: (fx) => ({ ...tileFields(fx), query: JSON.stringify({ database: fx.sample.id, type: 'query', query: { 'source-table': fx.sample.table('PEOPLE') } }) }) },
  'GET /api/tiles/:card-id/:zoom/:x/:y': { admin: 400, query: tileFields },
  'GET /api/tiles/:dashboard-id/dashcard/:dashcard-id/card/:card-id/:zoom/:x/:y': { admin: 400, query: tileFields },
  'POST /api/model-index': invalid,
  'GET /api/model-index': invalid, // no model_id
  'GET /api/model-index/:id': { users: 404, admin: 404 }, // there is none
  'DELETE /api/model-index/:id': { users: 404, admin: 404 },
};

/** Routes open to anonymous callers (public links, embedding, sign-in): `all` is what everyone gets. */
const OPEN: Record<string, Expectation> = {
  'GET /api/health': { all: 200 },
  'GET /api/geojson/:key': { all: 200 }, // the built-in maps (public and embedded dashboards draw maps)
  'POST /api/pulse/unsubscribe': { all: 400 }, // the signed link's hash is missing
  'POST /api/pulse/unsubscribe/undo': { all: 400 },
  'GET /api/util/random_token': { all: 200 },
  'POST /api/util/password_check': { all: 400 },
  'GET /api/session/properties': { all: 200 },
  'POST /api/session': { all: 400 },
  'DELETE /api/session': { anon: 404, users: 204, admin: 204 },
  'POST /api/session/forgot_password': { all: 400 },
  'POST /api/session/google_auth': { all: 400 },
  'GET /api/session/password_reset_token_valid': { all: 400 },
  'POST /api/session/password-check': { all: 400 },
  'POST /api/session/reset_password': { all: 400 },
  'POST /api/setup': { all: 403 }, // set up already
  'GET /api/setup/user_defaults': { all: 404 }, // MB_USER_DEFAULTS is not set
  'POST /api/notify/db/:id': { all: 403 }, // MB_API_KEY is not set: nobody
  'POST /api/notify/db/:id/new-table': { all: 403 },
  'POST /api/notify/db/attached_datawarehouse': { all: 403 },
  'GET /api/public/action/:uuid': { all: 200 },
  'POST /api/public/action/:uuid/execute': { all: 400 }, // no parameter values
  'GET /api/public/card/:uuid': { all: 200 },
  'GET /api/public/card/:uuid/field/:field-id/remapping/:remapped-id': { all: 200, query: () => ({ value: 'Gizmo' }) },
  'GET /api/public/card/:uuid/field/:field-id/search/:search-field-id': { all: 200, query: () => ({ value: 'Gi' }) },
  'GET /api/public/card/:uuid/field/:field-id/values': { all: 200 },
  'GET /api/public/card/:uuid/params/:param-key/search/:query': { all: 200 },
  'GET /api/public/card/:uuid/params/:param-key/values': { all: 200 },
  'GET /api/public/card/:uuid/query': { all: 202 },
  'GET /api/public/card/:uuid/query/:export-format': { all: 200 },
  'GET /api/public/dashboard/:uuid': { all: 200 },
  'GET /api/public/dashboard/:uuid/dashcard/:dashcard-id/card/:card-id': { all: 202 },
  'GET /api/public/dashboard/:uuid/dashcard/:dashcard-id/card/:card-id/:export-format': { all: 200 },
  'POST /api/public/dashboard/:uuid/dashcard/:dashcard-id/card/:card-id/:export-format': { all: 200 },
  'GET /api/public/dashboard/:uuid/dashcard/:dashcard-id/execute': { all: 404 },
  'POST /api/public/dashboard/:uuid/dashcard/:dashcard-id/execute': { all: 404 },
  'GET /api/public/dashboard/:uuid/field/:field-id/remapping/:remapped-id': { all: 200, query: () => ({ value: 'Gizmo' }) },
  'GET /api/public/dashboard/:uuid/field/:field-id/search/:search-field-id': { all: 200, query: () => ({ value: 'Gi' }) },
  'GET /api/public/dashboard/:uuid/field/:field-id/values': { all: 200 },
  'GET /api/public/dashboard/:uuid/params/:param-key/search/:query': { all: 200 },
  'GET /api/public/dashboard/:uuid/params/:param-key/values': { all: 200 },
  'GET /api/public/oembed': { all: 200, query: (fx) => ({ url: `http://quarry.example/public/question/${fx.cardUuid}` }) },
  'GET /api/public/pivot/card/:uuid/query': { all: 202 },
  'GET /api/public/pivot/dashboard/:uuid/dashcard/:dashcard-id/card/:card-id': { all: 202 },
  'GET /api/embed/card/:token': { all: 200 },
  'GET /api/embed/card/:token/field/:field-id/remapping/:remapped-id': { all: 200, query: () => ({ value: 'Gizmo' }) },
  'GET /api/embed/card/:token/field/:field-id/search/:search-field-id': { all: 200, query: () => ({ value: 'Gi' }) },
  'GET /api/embed/card/:token/field/:field-id/values': { all: 200 },
  'GET /api/embed/card/:token/params/:param-key/search/:prefix': { all: 200 },
  'GET /api/embed/card/:token/params/:param-key/values': { all: 200 },
  'GET /api/embed/card/:token/query': { all: 202 },
  'GET /api/embed/card/:token/query/:export-format': { all: 200 },
  'GET /api/embed/dashboard/:token': { all: 200 },
  'GET /api/embed/dashboard/:token/dashcard/:dashcard-id/card/:card-id': { all: 202 },
  'GET /api/embed/dashboard/:token/dashcard/:dashcard-id/card/:card-id/:export-format': { all: 200 },
  'GET /api/embed/dashboard/:token/field/:field-id/remapping/:remapped-id': { all: 200, query: () => ({ value: 'Gizmo' }) },
  'GET /api/embed/dashboard/:token/field/:field-id/search/:search-field-id': { all: 200, query: () => ({ value: 'Gi' }) },
  'GET /api/embed/dashboard/:token/field/:field-id/values': { all: 200 },
  'GET /api/embed/dashboard/:token/params/:param-key/search/:prefix': { all: 200 },
  'GET /api/embed/dashboard/:token/params/:param-key/values': { all: 200 },
  'GET /api/embed/pivot/card/:token/query': { all: 202 },
  'GET /api/embed/pivot/dashboard/:token/dashcard/:dashcard-id/card/:card-id': { all: 202 },
};

// The preview of embedding: admins only, under both spellings.
for (const prefix of ['/api/preview-embed', '/api/preview_embed']) {
  for (const [path, status] of [
    ['/card/:token', 200],
    ['/card/:token/query', 202],
    ['/dashboard/:token', 200],
    ['/dashboard/:token/dashcard/:dashcard-id/card/:card-id', 202],
    ['/dashboard/:token/params/:param-key/values', 200],
    ['/pivot/card/:token/query', 202],
    ['/pivot/dashboard/:token/dashcard/:dashcard-id/card/:card-id', 202],
  ] as const) {
    EXPECTED[`GET ${prefix}${path}`] = { admin: status };
  }
}

function expected(key: string, caller: CallerName, route: Expectation, open: boolean): Status {
  if (route.all !== undefined && route[caller] === undefined) return route.all;
  if (route[caller] !== undefined) return route[caller]!;
  if ((caller === 'user' || caller === 'nodata') && route.users !== undefined) return route.users;
  if (caller === 'anon') return open ? OK : 401;
  if (caller === 'admin') return OK;
  return 403;
}

function denied(response: ApiResponse): boolean {
  return response.status === 401 || response.status === 403 || (response.status === 202 && response.body?.error_type === 'missing-required-permissions');
}

forEachAppDb(
  'authorization matrix',
  (server) => {
    let fx: MatrixFixtures;
    let routes: RegisteredRoute[];

    before(async () => {
      fx = await matrixFixtures(server());
      routes = registeredRoutes(server().server.app);
    });
    after(async () => {
      await fx?.cleanup();
    });

    test('every registered route says who may call it', () => {
      const missing = routes.map((r) => `${r.method} ${r.path}`).filter((key) => !(key in EXPECTED) && !(key in OPEN));
      assert.deepEqual(missing, [], 'add these routes to the matrix');
    });

    // (before the matrix, whose admin requests end by deleting the fixtures)
    test('public and embed endpoints answer hostile input with sanitized errors', async () => {
      const anon = fx.callers.anon;
      const leaks = /select |from |core_user|stack|\bat \/|\.ts:|sqlite|postgres|syntax/i;
      const hostile = [
        ['uuid', "' OR 1=1 --"],
        ['uuid', '00000000-0000-4000-8000-000000000000'],
        ['parameters', '{{'],
        ['parameters', JSON.stringify([{ id: 'cat-param', value: "x' UNION SELECT password FROM core_user --" }])],
        ['parameters', JSON.stringify([{ id: 'catp', value: { $ne: 1 } }])],
        ['parameters', JSON.stringify([{ id: '../../etc/passwd', value: 1 }])],
        ['parameters', JSON.stringify([{ id: { toString: 1 }, value: 'x' }])],
      ];
      const checks: Promise<string | null>[] = [];
      for (const route of routes.filter((r) => r.path.startsWith('/api/public/'))) {
        for (const [kind, value] of hostile) {
          let path = concretePath(route.path, fx);
          const options: { query?: Record<string, string> } = {};
          if (kind === 'uuid') path = path.replace(fx.cardUuid, encodeURIComponent(value)).replace(fx.dashboardUuid, encodeURIComponent(value));
          else options.query = { parameters: value };
          checks.push(
            anon.request(route.method, path, route.method === 'POST' ? {} : undefined, options).then((r) => {
              if (r.status >= 500) return `${route.method} ${path}: ${r.status}`;
              if (r.status === 404 && r.text !== 'Not found.' && r.text !== 'API endpoint does not exist.') return `${route.method} ${path}: 404 ${r.text}`;
              if (r.status === 400 && r.text !== 'An error occurred.') return `${route.method} ${path}: 400 ${r.text}`;
              if (r.status === 202 && r.body.status === 'failed' && r.body.error !== 'An error occurred while running the query.') return `${route.method} ${path}: ${r.text}`;
              if (r.status >= 400 && leaks.test(r.text)) return `${route.method} ${path}: leaks ${r.text}`;
              return null;
            }),
          );
        }
      }
      // numeric ids that can't be (0) and bodies that aren't JSON: refused in the same plain words, never as a
      // validation map or a parser's message
      const numbered = (route: RegisteredRoute) => /:(dashcard-id|card-id|field-id|search-field-id|remapped-id)/.test(route.path);
      for (const route of routes.filter((r) => (r.path.startsWith('/api/public/') || r.path.startsWith('/api/embed/')) && numbered(r))) {
        const path = route.path
          .replace(/:(dashcard-id|card-id|field-id|search-field-id|remapped-id)/, '0')
          .replace(/:([a-z-]+)/g, (m) => concretePath(m, fx));
        const wanted = route.path.startsWith('/api/public/') ? 'An error occurred.' : null;
        checks.push(
          anon.request(route.method, path, undefined, { query: OPEN[`${route.method} ${route.path}`]?.query?.(fx) }).then((r) =>
            r.status === 400 && !r.headers.get('content-type')?.includes('json') && (wanted === null || r.text === wanted) ? null : `${route.method} ${path}: ${r.status} ${r.text.slice(0, 120)}`,
          ),
        );
      }
      for (const route of routes.filter((r) => r.path.startsWith('/api/public/') && r.method === 'POST')) {
        checks.push(
          anon.request('POST', concretePath(route.path, fx), undefined, { raw: '{"parameters": [', contentType: 'application/json' }).then((r) =>
            r.status === 400 && r.text === 'An error occurred.' ? null : `${route.method} ${route.path} with a broken body: ${r.status} ${r.text.slice(0, 120)}`,
          ),
        );
      }
      const [header, , sig] = fx.cardToken.split('.');
      const tampered = `${header}.${Buffer.from(JSON.stringify({ resource: { question: fx.cardId, dashboard: fx.dashboardId }, params: { cat: 'x' } })).toString('base64url')}.${sig}`;
      for (const route of routes.filter((r) => r.path.startsWith('/api/embed/'))) {
        const path = concretePath(route.path, fx).replace(fx.cardToken, tampered).replace(fx.dashboardToken, tampered);
        checks.push(
          anon.request(route.method, path, undefined, { query: OPEN[`${route.method} ${route.path}`]?.query?.(fx) }).then((r) =>
            r.status === 400 && r.text === 'Message seems corrupt or manipulated' ? null : `${route.method} ${route.path}: ${r.status} ${r.text.slice(0, 120)}`,
          ),
        );
      }
      assert.deepEqual((await Promise.all(checks)).filter((x) => x !== null), []);
    });

    test('every caller gets the expected status, never a 5xx, and no data when denied', async () => {
      const results = new Map<string, ApiResponse>();
      const send = async (caller: CallerName, route: RegisteredRoute) => {
        const key = `${route.method} ${route.path}`;
        const spec = EXPECTED[key] ?? OPEN[key] ?? {};
        const body = route.method === 'GET' || (route.method === 'DELETE' && !spec.body) ? undefined : spec.body ? spec.body(fx) : {};
        const client: Client = fx.callers[caller];
        results.set(`${caller} ${key}`, await client.request(route.method, concretePath(route.path, fx), body, { query: spec.query?.(fx) }));
      };
      // reads in parallel; then each caller's writes in order: deletes last (the database, whose removal takes its
      // cards along, after the rest), logging out at the very end
      const last = ['DELETE /api/database/:id', 'DELETE /api/session'];
      const order = (r: RegisteredRoute) => {
        const index = last.indexOf(`${r.method} ${r.path}`);
        return r.method === 'GET' ? 0 : index >= 0 ? 3 + index : r.method === 'DELETE' ? 2 : 1;
      };
      const reads = routes.filter((r) => order(r) === 0);
      // deletes of parts (a link, a dimension) before deletes of the things they belong to
      const writes = routes.filter((r) => order(r) > 0).sort((a, b) => order(a) - order(b) || (order(a) === 2 ? b.path.length - a.path.length : 0));
      for (let i = 0; i < reads.length; i += 16) {
        await Promise.all(reads.slice(i, i + 16).flatMap((route) => CALLERS.map((caller) => send(caller, route))));
      }
      await Promise.all(CALLERS.filter((c) => c !== 'admin').map(async (caller) => {
        for (const route of writes) await send(caller, route);
      }));
      for (const route of writes) await send('admin', route);

      const failures: string[] = [];
      const discover = process.env.QUARRY_MATRIX_DISCOVER === '1';
      for (const route of routes) {
        const key = `${route.method} ${route.path}`;
        const open = key in OPEN;
        const spec = EXPECTED[key] ?? OPEN[key] ?? {};
        const line: string[] = [];
        for (const caller of CALLERS) {
          const response = results.get(`${caller} ${key}`)!;
          const want = expected(key, caller, spec, open);
          const wanted = Array.isArray(want) ? want : [want];
          line.push(`${caller}=${response.status}`);
          if (response.status >= 500) failures.push(`${caller} ${key}: ${response.status} ${response.text.slice(0, 200)}`);
          else if (!wanted.includes(response.status)) failures.push(`${caller} ${key}: ${response.status}, expected ${JSON.stringify(want)} — ${response.text.slice(0, 160)}`);
          if (denied(response) && (response.text.includes(SECRET_MARKER) || /"rows"\s*:\s*\[\s*\[/.test(response.text))) {
            failures.push(`${caller} ${key}: a denied body carries data — ${response.text.slice(0, 200)}`);
          }
        }
        if (discover) console.log(`MATRIX ${key} ${line.join(' ')}`);
      }
      assert.deepEqual(failures, []);
    });

  },
);
