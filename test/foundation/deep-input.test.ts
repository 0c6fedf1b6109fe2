// JSON nested deeper than anything walks safely: 100,000 nested arrays (200 KB) used to overflow the stack of some
// recursive walk and answer 500 on about 30 routes. Now every body, JSON query-string param, form field and JSON
// setting is bounded at 1,000 levels (Jackson's default, so nothing Metabase accepts is refused) with a 400 in
// Metabase's validation shape; what is within the bound is read, stored, walked and written back on every route;
// and a query deeper than the bound that still reaches the engine (a card saved before) fails clearly.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { ApiResponse, Client } from '../helpers/client.js';
import { listRoutes, fillPath } from '../helpers/routes.js';
import { registerWarehouses, type Warehouse } from '../query/helpers/warehouses.js';

const LIMIT = 1000;

/** `[[[…]]]`, `depth` arrays deep, as text (JSON.stringify itself overflows on values this deep). */
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** A value `depth` levels deep (arrays and maps alternating), built without recursion. */
function nestedValue(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? { k: value } : [value];
  return value;
}

/** `['+', ['+', …, 1], 1]`: an MBQL expression `depth` clauses deep, as JSON text. */
function nestedExpression(depth: number, leaf: unknown): string {
  return '["+",'.repeat(depth - 1) + JSON.stringify(leaf) + ',1]'.repeat(depth - 1);
}

/** Metabase's validation 400 for `key`; public links and embeds answer every error their own way (plain text). */
function assertTooDeep(r: ApiResponse, key: string, label: string, path = ''): void {
  assert.equal(r.status, 400, `${label}: ${r.text.slice(0, 200)}`);
  if (/^\/api\/(public|embed|preview-embed|preview_embed)\//.test(path)) return;
  assert.ok(r.body.errors?.[key], `${label}: ${r.text.slice(0, 200)}`);
  assert.match(r.body['specific-errors']?.[key]?.[0] ?? '', /^nested more than 1000 levels deep, received: /, label);
}

forEachAppDb('deeply nested input', (server) => {
  let admin: Client;
  let w: Warehouse;

  before(async () => {
    admin = await setupAdmin(server());
    w = (await registerWarehouses(server(), admin, ['sqlite'])).sqlite;
  });

  test('100,000 nested arrays (200 KB) are a 400 in the validation shape on every route that takes a body', async () => {
    const body = nestedArrays(100_000);
    const routes = listRoutes(server().server.app).filter((r) => r.method !== 'GET');
    assert.ok(routes.length > 80, `${routes.length} routes`);
    for (const route of routes) {
      const url = fillPath(route.path, 1, (name) => (/uuid/.test(name) ? '00000000-0000-0000-0000-000000000000' : name.includes('format') ? 'csv' : 'x'));
      assertTooDeep(await admin.request(route.method, url, undefined, { raw: body }), 'body', `${route.method} ${url}`, url);
    }
    // Maps nest the same way; the bound is on the whole body, wherever the depth is.
    const maps = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    assertTooDeep(await admin.request('PUT', '/api/setting', undefined, { raw: maps }), 'body', 'nested maps');
    const inside = `{"name": "x", "display": "table", "visualization_settings": {"a": ${nestedArrays(LIMIT)}}, "dataset_query": {}}`;
    assertTooDeep(await admin.request('POST', '/api/card', undefined, { raw: inside }), 'body', 'deep inside a card');
    // Anonymous callers get the same answer: the body is refused before anything reads it.
    assertTooDeep(await server().anon.request('POST', '/api/session', undefined, { raw: body }), 'body', 'login');
  });

  test('JSON in query strings, form fields and JSON settings is bounded the same way', async () => {
    const deep = nestedArrays(LIMIT + 1);
    assertTooDeep(await admin.get('/api/action/1/execute', { query: { parameters: deep } }), 'parameters', 'action prefill');
    assertTooDeep(await admin.get('/api/dashboard/1/dashcard/1/execute', { query: { parameters: deep } }), 'parameters', 'dashcard prefill');
    const form = (fields: Record<string, string>) => ({ raw: new URLSearchParams(fields).toString(), contentType: 'application/x-www-form-urlencoded' });
    assertTooDeep(await admin.request('POST', '/api/dataset/csv', undefined, form({ query: deep })), 'query', 'download query');
    const query = JSON.stringify(w.mbql({ 'source-table': w.t('PRODUCTS') }));
    assertTooDeep(await admin.request('POST', '/api/dataset/csv', undefined, form({ query, visualization_settings: deep })), 'visualization_settings', 'download settings');
    const card = await admin.post('/api/card', { name: 'Products', display: 'table', visualization_settings: {}, dataset_query: w.mbql({ 'source-table': w.t('PRODUCTS') }) });
    assertTooDeep(await admin.request('POST', `/api/card/${card.body.id}/query/csv`, undefined, form({ parameters: deep })), 'parameters', 'card download');
    const colors = await admin.put('/api/setting/application-colors', { value: deep });
    assert.equal(colors.status, 400);
    assert.match(colors.text, /nested more than 1000 levels deep/);
    // Within the bound, the same text is read as usual.
    assert.equal((await admin.get('/api/action/1/execute', { query: { parameters: nestedArrays(LIMIT) } })).status, 404, 'read, then the action is looked up');
    assert.equal((await admin.put('/api/setting/application-colors', { value: JSON.stringify({ brand: '#509EE3' }) })).status, 204);
  });

  test('values 1,000 levels deep are stored, walked and written back by every route that reads them', async () => {
    // {visualization_settings: {deep: …}}: two levels around the value.
    const deep = nestedValue(LIMIT - 2);
    const created = await admin.post('/api/card', {
      name: 'Deep settings',
      display: 'table',
      visualization_settings: { deep },
      dataset_query: w.mbql({ 'source-table': w.t('PRODUCTS'), limit: 2 }),
    });
    assert.equal(created.status, 200, created.text.slice(0, 300));
    const id = created.body.id;
    assert.deepEqual((await admin.get(`/api/card/${id}`)).body.visualization_settings.deep, deep);
    const renamed = await admin.put(`/api/card/${id}`, { name: 'Deep settings, renamed', visualization_settings: { deep, more: deep } });
    assert.equal(renamed.status, 200, renamed.text.slice(0, 300));
    const dashboard = await admin.post('/api/dashboard', { name: 'Deep dashboard' });
    const layout = await admin.put(`/api/dashboard/${dashboard.body.id}`, {
      dashcards: [{ id: -1, card_id: id, row: 0, col: 0, size_x: 4, size_y: 4, visualization_settings: { deep: nestedValue(LIMIT - 4) }, parameter_mappings: [] }],
    });
    assert.equal(layout.status, 200, layout.text.slice(0, 300));
    const reads = [
      `/api/card/${id}`,
      `/api/card/${id}/revisions`,
      `/api/revision?entity=card&id=${id}`,
      `/api/dashboard/${dashboard.body.id}`,
      `/api/revision?entity=dashboard&id=${dashboard.body.id}`,
      `/api/collection/root/items`,
      `/api/search?q=Deep`,
      `/api/activity/recents?context=views`,
      `/api/card/${id}/query_metadata`,
    ];
    for (const path of reads) {
      const r = await admin.get(path);
      assert.ok(r.status < 500, `${path}: ${r.status} ${r.text.slice(0, 200)}`);
    }
    const run = await admin.post(`/api/card/${id}/query`, {});
    assert.equal(run.body.status, 'completed', run.body.error);
    const xlsx = await admin.post(`/api/card/${id}/query/xlsx`, {});
    assert.equal(xlsx.status, 200);
    const copy = await admin.post(`/api/card/${id}/copy`, {});
    assert.equal(copy.status, 200, copy.text.slice(0, 300));
    const revisions = (await admin.get(`/api/revision?entity=card&id=${id}`)).body;
    const reverted = await admin.post('/api/revision/revert', { entity: 'card', id, revision_id: revisions[revisions.length - 1].id });
    assert.ok(reverted.status < 500, reverted.text.slice(0, 200));
  });

  test('a 5,000-deep MBQL expression inside an otherwise valid query is a 400 before anything walks it', async () => {
    const query = `{"database": ${w.id}, "type": "query", "query": {"source-table": ${w.t('ORDERS')}, "expressions": {"x": ${nestedExpression(5000, ['field', w.fid('ORDERS', 'TOTAL'), null])}}, "limit": 1}}`;
    assertTooDeep(await admin.request('POST', '/api/dataset', undefined, { raw: query }), 'body', 'ad-hoc query');
    assertTooDeep(await admin.request('POST', '/api/dataset/native', undefined, { raw: query }), 'body', 'SQL of the query');
    const card = `{"name": "deep", "display": "table", "visualization_settings": {}, "dataset_query": ${query}}`;
    assertTooDeep(await admin.request('POST', '/api/card', undefined, { raw: card }), 'body', 'saved question');
  });

  test('a card saved before the bound, 2,500 levels deep in the app DB, still reads and fails clearly when run', async () => {
    const created = await admin.post('/api/card', { name: 'Old deep card', display: 'table', visualization_settings: {}, dataset_query: w.mbql({ 'source-table': w.t('ORDERS') }) });
    const id = created.body.id;
    const stored = `{"database": ${w.id}, "type": "query", "query": {"source-table": ${w.t('ORDERS')}, "expressions": {"x": ${nestedExpression(2500, 1)}}, "limit": 1}}`;
    await server().ctx.db.updateTable('report_card').set({ dataset_query: stored }).where('id', '=', id).execute();
    const read = await admin.get(`/api/card/${id}`);
    assert.equal(read.status, 200, read.text.slice(0, 200));
    const run = await admin.post(`/api/card/${id}/query`, {});
    assert.equal(run.status, 202);
    assert.equal(run.body.status, 'failed');
    assert.equal(run.body.error_type, 'invalid-query');
    assert.equal(run.body.error, 'Invalid query: it is nested more than 1000 levels deep.');
    const download = await admin.post(`/api/card/${id}/query/csv`, {});
    assert.ok(download.status < 500, download.text.slice(0, 200));
    for (const path of [`/api/card/${id}/query_metadata`, `/api/card/${id}/revisions`, `/api/search?q=Old`]) {
      const r = await admin.get(path);
      assert.ok(r.status < 500, `${path}: ${r.status} ${r.text.slice(0, 200)}`);
    }
  });
});
