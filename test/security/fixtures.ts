// What the authorization matrix points its requests at: the Sample Database, an admin-only collection holding a
// card, a dashboard, a timeline and its event (all named with a marker that must never show up in a denied body),
// public links and embedding tokens for them, a group, a membership, an API key, a snippet and a segment — and the four
// callers: anonymous, an ordinary user (in a group that may query the Sample Database), a user whose groups have no
// data access (All Users only, which may query nothing), and the admin.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Client } from '../helpers/client.js';
import { createUserClient, setupAdmin, type TestServer } from '../helpers/server.js';
import { installSample, type Sample } from '../cards/sample.js';
import { addWarehouse, renameAction, tableModel } from '../actions/fixtures.js';

export const SECRET_MARKER = 'ZqSecretMarker';

export type CallerName = 'anon' | 'user' | 'nodata' | 'admin';

export interface MatrixFixtures {
  callers: Record<CallerName, Client>;
  sample: Sample;
  adminId: number;
  collectionId: number;
  cardId: number;
  dashboardId: number;
  dashcardId: number;
  categoryField: number;
  cardUuid: string;
  dashboardUuid: string;
  cardToken: string;
  dashboardToken: string;
  previewCardToken: string;
  previewDashboardToken: string;
  groupId: number;
  membershipId: number;
  apiKeyId: number;
  snippetId: number;
  /** A segment on PRODUCTS (readable by the ordinary user, not by the no-data user). */
  segmentId: number;
  timelineId: number;
  eventId: number;
  /** A query action on a model (in the admin-only collection) over a PostgreSQL warehouse, shared by public link. */
  actionId: number;
  actionUuid: string;
  /** The PostgreSQL warehouse (it has a schema, `public`; the Sample Database has none). */
  warehouseId: number;
  /** A subscription to the dashboard and an alert on the card, both to the admin; a webhook channel. */
  pulseId: number;
  alertId: number;
  /** Another alert, for /api/notification (unsubscribing from one doesn't race the other). */
  notificationId: number;
  channelId: number;
  /** Drops what the fixtures made outside Quarry (the warehouse). */
  cleanup(): Promise<void>;
}

function ok<T = any>(response: { status: number; text: string; body: T }, what: string): T {
  assert.ok(response.status >= 200 && response.status < 300, `${what}: ${response.status} ${response.text}`);
  return response.body;
}

export async function matrixFixtures(t: TestServer): Promise<MatrixFixtures> {
  const admin = await setupAdmin(t);
  const sample = await installSample(admin);
  const me = ok(await admin.get('/api/user/current'), 'current user');
  const group = ok(await admin.post('/api/permissions/group', { name: 'Matrix data users' }), 'group');
  const { client: user, user: userRow } = await createUserClient(t, admin);
  const { client: nodata } = await createUserClient(t, admin);
  const members = ok(await admin.post('/api/permissions/membership', { group_id: group.id, user_id: userRow.id }), 'membership');
  const { revision } = ok(await admin.get('/api/permissions/graph'), 'graph');
  ok(
    await admin.put('/api/permissions/graph', {
      revision,
      groups: {
        1: { [sample.id]: { 'create-queries': 'no', download: { schemas: 'none' } } },
        [group.id]: { [sample.id]: { 'create-queries': 'query-builder-and-native', download: { schemas: 'full' } } },
      },
    }),
    'graph update',
  );

  const collection = ok(await admin.post('/api/collection', { name: `${SECRET_MARKER} collection` }), 'collection');
  const cg = ok(await admin.get('/api/collection/graph'), 'collection graph');
  ok(await admin.put('/api/collection/graph', { revision: cg.revision, groups: { 1: { [collection.id]: 'none' }, [group.id]: { [collection.id]: 'none' } } }), 'collection graph update');
  const categoryField = sample.field('PRODUCTS', 'CATEGORY');
  const card = ok(
    await admin.post('/api/card', {
      name: `${SECRET_MARKER} card`,
      display: 'table',
      visualization_settings: {},
      collection_id: collection.id,
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS'), aggregation: [['count']], breakout: [['field', categoryField, null]] } },
      parameters: [{ id: 'cat-param', type: 'category', name: 'Cat', slug: 'cat', target: ['dimension', ['field', categoryField, null]] }],
    }),
    'card',
  );
  const dashboard = ok(
    await admin.post('/api/dashboard', { name: `${SECRET_MARKER} dashboard`, collection_id: collection.id, parameters: [{ id: 'catp', name: 'Category', slug: 'category', type: 'string/=' }] }),
    'dashboard',
  );
  const layout = ok(
    await admin.put(`/api/dashboard/${dashboard.id}`, {
      dashcards: [
        {
          id: -1, card_id: card.id, row: 0, col: 0, size_x: 6, size_y: 4, visualization_settings: {}, series: [],
          parameter_mappings: [{ parameter_id: 'catp', card_id: card.id, target: ['dimension', ['field', categoryField, null]] }],
        },
      ],
    }),
    'layout',
  );
  const secret = randomBytes(32).toString('hex');
  ok(await admin.put('/api/setting/embedding-secret-key', { value: secret }), 'secret');
  ok(await admin.put('/api/setting/enable-embedding-static', { value: true }), 'embedding');
  ok(await admin.put(`/api/card/${card.id}`, { enable_embedding: true, embedding_params: { cat: 'enabled' } }), 'card embedding');
  ok(await admin.put(`/api/dashboard/${dashboard.id}`, { enable_embedding: true, embedding_params: { category: 'enabled' } }), 'dashboard embedding');
  const key = new TextEncoder().encode(secret);
  const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);

  const timeline = ok(await admin.post('/api/timeline', { name: `${SECRET_MARKER} timeline`, collection_id: collection.id }), 'timeline');
  const event = ok(await admin.post('/api/timeline-event', { name: `${SECRET_MARKER} event`, timeline_id: timeline.id, timestamp: '2024-01-01T00:00:00Z', timezone: 'UTC' }), 'event');
  const snippet = ok(await admin.post('/api/native-query-snippet', { name: 'matrix snippet', content: 'PRODUCTS' }), 'snippet');
  const segment = ok(
    await admin.post('/api/segment', {
      name: `${SECRET_MARKER} segment`,
      table_id: sample.table('PRODUCTS'),
      definition: { 'source-table': sample.table('PRODUCTS'), filter: ['=', ['field', categoryField, null], 'Widget'] },
    }),
    'segment',
  );
  const apiKey = ok(await admin.post('/api/api-key', { name: 'Matrix key', group_id: group.id }), 'api key');
  const warehouse = await addWarehouse(admin, 'postgres');
  const model = await tableModel(admin, warehouse, 'customers', collection.id);
  const action = ok(await admin.post('/api/action', renameAction(warehouse, model.id, { name: `${SECRET_MARKER} action` })), 'action');
  const toAdmin = { channel_type: 'email', enabled: true, schedule_type: 'daily', schedule_hour: 8, recipients: [{ id: me.id }] };
  const pulse = ok(
    await admin.post('/api/pulse', { name: `${SECRET_MARKER} subscription`, dashboard_id: dashboard.id, cards: [{ id: card.id, include_csv: false, include_xls: false, dashboard_card_id: layout.dashcards[0].id }], channels: [toAdmin] }),
    'subscription',
  );
  const alertBody = { alert_condition: 'rows', alert_first_only: false, card: { id: card.id, include_csv: false, include_xls: false }, channels: [toAdmin] };
  const alert = ok(await admin.post('/api/alert', alertBody), 'alert');
  const notification = ok(await admin.post('/api/alert', alertBody), 'notification');
  const channel = ok(await admin.post('/api/channel', { name: `${SECRET_MARKER} hook`, type: 'channel/http', details: { url: 'https://example.com/hook', 'auth-method': 'none' } }), 'channel');

  return {
    callers: { anon: t.anon, user, nodata, admin },
    sample,
    adminId: me.id,
    collectionId: collection.id,
    cardId: card.id,
    dashboardId: dashboard.id,
    dashcardId: layout.dashcards[0].id,
    categoryField,
    cardUuid: ok(await admin.post(`/api/card/${card.id}/public_link`), 'card link').uuid,
    dashboardUuid: ok(await admin.post(`/api/dashboard/${dashboard.id}/public_link`), 'dashboard link').uuid,
    cardToken: await sign({ resource: { question: card.id }, params: {} }),
    dashboardToken: await sign({ resource: { dashboard: dashboard.id }, params: {} }),
    previewCardToken: await sign({ resource: { question: card.id }, params: {}, _embedding_params: { cat: 'enabled' } }),
    previewDashboardToken: await sign({ resource: { dashboard: dashboard.id }, params: {}, _embedding_params: { category: 'enabled' } }),
    groupId: group.id,
    membershipId: (members as Array<{ user_id: number; membership_id: number }>).find((m) => m.user_id === userRow.id)!.membership_id,
    apiKeyId: apiKey.id,
    snippetId: snippet.id,
    segmentId: segment.id,
    timelineId: timeline.id,
    eventId: event.id,
    actionId: action.id,
    warehouseId: warehouse.id,
    actionUuid: ok(await admin.post(`/api/action/${action.id}/public_link`), 'action link').uuid,
    pulseId: pulse.id,
    alertId: alert.id,
    notificationId: notification.id,
    channelId: channel.id,
    cleanup: warehouse.drop,
  };
}

/** The concrete URL of a route: each path parameter filled with the fixture it names. */
export function concretePath(path: string, fx: MatrixFixtures): string {
  const at = (prefix: string) => path.startsWith(prefix);
  const idFor = (): string => {
    if (at('/api/card') || at('/api/revision') || at('/api/table/card__') || at('/api/bookmark')) return String(fx.cardId);
    if (at('/api/dashboard')) return String(fx.dashboardId);
    if (at('/api/collection') || at('/api/timeline/collection')) return String(fx.collectionId);
    if (path === '/api/database/:id/schema/:schema') return String(fx.warehouseId);
    if (at('/api/database') || at('/api/persist/database')) return String(fx.sample.id);
    if (at('/api/table')) return String(fx.sample.table('PRODUCTS'));
    if (at('/api/field')) return String(fx.categoryField);
    if (at('/api/user')) return String(fx.adminId);
    if (at('/api/permissions/membership') && path.endsWith('/clear')) return String(fx.groupId);
    if (at('/api/permissions/membership')) return String(fx.membershipId);
    if (at('/api/permissions/group')) return String(fx.groupId);
    if (at('/api/api-key')) return String(fx.apiKeyId);
    if (at('/api/native-query-snippet')) return String(fx.snippetId);
    if (at('/api/segment')) return String(fx.segmentId);
    if (at('/api/timeline-event')) return String(fx.eventId);
    if (at('/api/timeline')) return String(fx.timelineId);
    if (at('/api/action')) return String(fx.actionId);
    if (at('/api/pulse/preview_dashboard')) return String(fx.dashboardId);
    if (at('/api/pulse/preview_card')) return String(fx.cardId);
    if (at('/api/pulse')) return String(fx.pulseId);
    if (at('/api/alert/question')) return String(fx.cardId);
    if (at('/api/alert')) return String(fx.alertId);
    if (at('/api/notification')) return String(fx.notificationId);
    if (at('/api/channel')) return String(fx.channelId);
    return '1';
  };
  const isCard = /\/(card|pivot\/card)\/:(uuid|token)/.test(path) || at('/api/card/');
  const preview = at('/api/preview');
  const values: Record<string, string> = {
    id: idFor(),
    'action-id': String(fx.actionId),
    'card-id': String(fx.cardId),
    'dashboard-id': String(fx.dashboardId),
    'dashcard-id': String(fx.dashcardId),
    'parent-collection-id': String(fx.collectionId),
    'db-id': String(fx.sample.id),
    'persisted-info-id': '1',
    'group-id': String(fx.groupId),
    'field-id': String(fx.categoryField),
    'search-field-id': String(fx.categoryField),
    'search-id': String(fx.categoryField),
    'remapped-id': String(fx.categoryField),
    'param-key': isCard ? 'cat-param' : 'catp',
    'export-format': 'csv',
    uuid: at('/api/public/action') ? fx.actionUuid : isCard ? fx.cardUuid : fx.dashboardUuid,
    token: preview ? (isCard ? fx.previewCardToken : fx.previewDashboardToken) : isCard ? fx.cardToken : fx.dashboardToken,
    query: 'gad',
    prefix: 'gad',
    schema: at('/api/database/-1337') ? 'Everything else' : 'public',
    model: 'card',
    entity: 'card',
    key: at('/api/geojson') ? 'us_states' : 'site-name',
    namespace: 'matrix',
    modal: 'qbnewb',
    zoom: '0',
    x: '0',
    y: '0',
    'lat-field': JSON.stringify(['field', fx.sample.field('PEOPLE', 'LATITUDE'), null]),
    'lon-field': JSON.stringify(['field', fx.sample.field('PEOPLE', 'LONGITUDE'), null]),
  };
  if (at('/api/automagic-dashboards')) {
    // X-rays of the PRODUCTS table, a Gadget cell and a comparison with the whole table
    const products = String(fx.sample.table('PRODUCTS'));
    Object.assign(values, {
      entity: 'table',
      'entity-id-or-query': products,
      'cell-query': Buffer.from(JSON.stringify(['=', ['field', fx.categoryField, null], 'Gadget'])).toString('base64'),
      prefix: 'GenericTable',
      'dashboard-template': 'Distributions',
      'comparison-entity': 'table',
      'comparison-entity-id-or-query': products,
      'model-index-id': '1',
      'pk-id': '1',
    });
  }
  return path.replace(/:([a-z-]+)/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no fixture for :${name} in ${path}`);
    return encodeURIComponent(value);
  });
}
