// Public links: making and revoking them (admins, setting on), what anonymous viewers see of a shared card or
// dashboard, running them with ?parameters= (validated against the saved definitions), downloads, pivot, filter
// values and field lookups, oEmbed — and that errors are sanitized.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { uniqueName } from '../cards/fixtures.js';

forEachAppDb('public links', (server) => {
  let admin: Client;
  let anon: Client;
  let user: Client;
  let sample: Sample;
  let countCard: any;
  let nativeCard: any;
  let dashboard: any;
  let dashcardId: number;

  const catParam = { id: 'cat-param', type: 'category', target: ['variable', ['template-tag', 'cat']], name: 'Cat', slug: 'cat' };

  async function card(fields: Record<string, unknown>) {
    const response = await admin.post('/api/card', { name: uniqueName('Shared'), display: 'table', visualization_settings: {}, ...fields });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  async function share(kind: 'card' | 'dashboard', id: number): Promise<string> {
    const response = await admin.post(`/api/${kind}/${id}/public_link`);
    assert.equal(response.status, 200, response.text);
    return response.body.uuid;
  }

  before(async () => {
    admin = await setupAdmin(server());
    anon = server().anon;
    user = (await createUserClient(server(), admin)).client;
    sample = await installSample(admin);
    countCard = await card({
      display: 'scalar',
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS'), aggregation: [['count']] } },
    });
    nativeCard = await card({
      dataset_query: {
        database: sample.id,
        type: 'native',
        native: {
          query: 'SELECT COUNT(*) AS n FROM PRODUCTS [[WHERE CATEGORY = {{cat}}]]',
          'template-tags': { cat: { id: 'cat-param', name: 'cat', 'display-name': 'Cat', type: 'text' } },
        },
      },
      parameters: [catParam],
    });
    const d = await admin.post('/api/dashboard', { name: uniqueName('Shared dash'), parameters: [{ id: 'catp', name: 'Category', slug: 'category', type: 'string/=' }] });
    dashboard = d.body;
    const mapping = { parameter_id: 'catp', card_id: countCard.id, target: ['dimension', ['field', sample.field('PRODUCTS', 'CATEGORY'), null]] };
    const put = await admin.put(`/api/dashboard/${dashboard.id}`, {
      dashcards: [{ id: -1, card_id: countCard.id, row: 0, col: 0, size_x: 6, size_y: 4, parameter_mappings: [mapping], visualization_settings: {}, series: [] }],
    });
    assert.equal(put.status, 200, put.text);
    dashcardId = put.body.dashcards[0].id;
  });

  test('links: admins make them (the same UUID twice), list them, revoke them; users may not', async () => {
    const uuid = await share('card', countCard.id);
    assert.match(uuid, /^[0-9a-f-]{36}$/);
    assert.deepEqual((await admin.post(`/api/card/${countCard.id}/public_link`)).body, { uuid });
    assert.equal((await admin.get(`/api/card/${countCard.id}`)).body.public_uuid, uuid);
    assert.ok((await admin.get('/api/card/public')).body.some((c: any) => c.id === countCard.id && c.public_uuid === uuid));
    assert.equal((await user.post(`/api/card/${countCard.id}/public_link`)).status, 403);
    assert.equal((await user.get('/api/card/public')).status, 403);
    assert.equal((await anon.post(`/api/card/${countCard.id}/public_link`)).status, 401);

    const dashUuid = await share('dashboard', dashboard.id);
    assert.ok((await admin.get('/api/dashboard/public')).body.some((d: any) => d.id === dashboard.id && d.public_uuid === dashUuid));
    assert.equal((await user.post(`/api/dashboard/${dashboard.id}/public_link`)).status, 403);

    const throwaway = await card({ dataset_query: countCard.dataset_query });
    const link = await share('card', throwaway.id);
    assert.equal((await anon.get(`/api/public/card/${link}`)).status, 200);
    assert.equal((await admin.delete(`/api/card/${throwaway.id}/public_link`)).status, 204);
    const gone = await anon.get(`/api/public/card/${link}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.text, 'Not found.');
    assert.equal((await admin.delete(`/api/card/${throwaway.id}/public_link`)).status, 404);
    assert.equal((await admin.get(`/api/card/${throwaway.id}`)).body.public_uuid, null);

    // archived items can't be shared, and their links stop working
    const archived = await card({ dataset_query: countCard.dataset_query });
    const archivedLink = await share('card', archived.id);
    await admin.put(`/api/card/${archived.id}`, { archived: true });
    assert.equal((await anon.get(`/api/public/card/${archivedLink}`)).status, 404);
    assert.equal((await admin.post(`/api/card/${archived.id}/public_link`)).status, 404);
    assert.equal((await admin.post('/api/card/999999/public_link')).status, 404);
  });

  test('the setting: off means no new links and every public endpoint answers 400', async () => {
    const uuid = await share('card', countCard.id);
    assert.equal((await admin.put('/api/setting/enable-public-sharing', { value: false })).status, 204);
    try {
      const create = await admin.post(`/api/card/${nativeCard.id}/public_link`);
      assert.equal(create.status, 400);
      assert.equal(create.text, 'Public sharing is not enabled.');
      for (const path of [`/api/public/card/${uuid}`, `/api/public/card/${uuid}/query`]) {
        const response = await anon.get(path);
        assert.equal(response.status, 400);
        assert.equal(response.text, 'An error occurred.');
      }
      assert.equal((await admin.get('/api/card/public')).status, 400);
    } finally {
      await admin.put('/api/setting/enable-public-sharing', { value: true });
    }
  });

  test('a shared card shows what draws it and nothing else; its result keeps only the data', async () => {
    const uuid = await share('card', nativeCard.id);
    const shown = await anon.get(`/api/public/card/${uuid}`);
    assert.equal(shown.status, 200, shown.text);
    assert.deepEqual(Object.keys(shown.body).sort(), ['dataset_query', 'description', 'display', 'id', 'name', 'param_fields', 'param_values', 'parameters', 'visualization_settings']);
    assert.deepEqual(shown.body.dataset_query, { type: 'native', native: { 'template-tags': nativeCard.dataset_query.native['template-tags'] } });
    assert.ok(!shown.text.includes('SELECT'), 'no SQL');
    assert.deepEqual(shown.body.parameters.map((p: any) => p.slug), ['cat']);

    const all = await anon.get(`/api/public/card/${uuid}/query`);
    assert.equal(all.status, 202, all.text);
    assert.equal(all.body.status, 'completed');
    assert.equal(all.body.data.rows[0][0], 200);
    assert.deepEqual(Object.keys(all.body).sort(), ['data', 'json_query', 'row_count', 'status']);
    assert.deepEqual(Object.keys(all.body.json_query), ['parameters']);
    assert.equal(all.body.data.native_form, undefined);
    assert.ok(!all.text.includes('PRODUCTS'), 'no SQL, no table names');

    const widgets = await anon.get(`/api/public/card/${uuid}/query`, { query: { parameters: JSON.stringify([{ id: 'cat-param', value: 'Widget' }]) } });
    assert.equal(widgets.body.status, 'completed', widgets.text);
    const widgetCount = widgets.body.data.rows[0][0];
    assert.ok(widgetCount > 0 && widgetCount < 200);

    const mbql = await anon.get(`/api/public/card/${await share('card', countCard.id)}/query`);
    assert.equal(mbql.body.data.rows[0][0], 200);
  });

  test('parameters: values only — injection is inert, unknown or malformed parameters are refused', async () => {
    const uuid = await share('card', nativeCard.id);
    const run = (parameters: unknown) => anon.get(`/api/public/card/${uuid}/query`, { query: { parameters: typeof parameters === 'string' ? parameters : JSON.stringify(parameters) } });
    for (const value of ["Widget' OR '1'='1", 'Widget; DROP TABLE PRODUCTS; --', "x') UNION SELECT 1 --"]) {
      const response = await run([{ id: 'cat-param', value }]);
      assert.equal(response.body.status, 'completed', response.text);
      assert.equal(response.body.data.rows[0][0], 0, `${value} matched nothing`);
    }
    // a client-sent target or type can't point the value anywhere else
    const redirected = await run([{ id: 'cat-param', value: 'Widget', type: 'number/>=', target: ['dimension', ['field', sample.field('PEOPLE', 'PASSWORD'), null]] }]);
    assert.equal(redirected.body.status, 'completed');
    assert.ok(redirected.body.data.rows[0][0] > 0 && redirected.body.data.rows[0][0] < 200);
    for (const bad of [[{ id: 'nope', value: 'Widget' }], [{ id: 'cat-param', value: { sql: 'SELECT 1' } }], '{not json', { id: 'cat-param' }]) {
      const response = await run(bad);
      assert.equal(response.status, 400, JSON.stringify(bad));
      assert.equal(response.text, 'An error occurred.');
    }
    const notFound = await anon.get('/api/public/card/00000000-0000-4000-8000-000000000000/query');
    assert.equal(notFound.status, 404);
    assert.equal(notFound.text, 'Not found.');
  });

  test('failures never show SQL, stack traces or ids', async () => {
    const broken = await card({ dataset_query: { database: sample.id, type: 'native', native: { query: 'SELECT secret_column FROM no_such_table_xyz' } } });
    const uuid = await share('card', broken.id);
    const response = await anon.get(`/api/public/card/${uuid}/query`);
    assert.equal(response.status, 202);
    assert.deepEqual(response.body, { status: 'failed', error: 'An error occurred while running the query.', error_type: 'invalid-query' });
    const csv = await anon.get(`/api/public/card/${uuid}/query/csv`);
    assert.ok(!/no_such_table|secret_column|stack|\bat \//i.test(csv.text), csv.text);
  });

  test('downloads: csv, json and xlsx with parameters, api as an attachment', async () => {
    const uuid = await share('card', nativeCard.id);
    const parameters = JSON.stringify([{ id: 'cat-param', value: 'Gizmo' }]);
    const csv = await anon.get(`/api/public/card/${uuid}/query/csv`, { query: { parameters } });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-disposition') ?? '', /attachment; filename=".+\.csv"/);
    const [header, value] = csv.text.trim().split('\n');
    assert.equal(header.trim().toUpperCase(), 'N');
    assert.ok(Number(value) > 0 && Number(value) < 200);
    const json = await anon.get(`/api/public/card/${uuid}/query/json`, { query: { parameters } });
    assert.equal(json.status, 200);
    assert.equal(Object.values(JSON.parse(json.text)[0])[0], Number(value));
    const xlsx = await anon.get(`/api/public/card/${uuid}/query/xlsx`);
    assert.equal(xlsx.status, 200);
    assert.match(xlsx.headers.get('content-type') ?? '', /spreadsheetml/);
    const api = await anon.get(`/api/public/card/${uuid}/query/api`);
    assert.equal(api.status, 200);
    assert.equal(api.body.data.rows[0][0], 200);
    assert.equal(api.body.data.native_form, undefined);
    assert.equal((await anon.get(`/api/public/card/${uuid}/query/pdf`)).status, 404);
  });

  test('a shared dashboard: its shape, dashcard results with filters, downloads, filter values, fields', async () => {
    const uuid = await share('dashboard', dashboard.id);
    const shown = await anon.get(`/api/public/dashboard/${uuid}`);
    assert.equal(shown.status, 200, shown.text);
    assert.deepEqual(shown.body.parameters.map((p: any) => p.slug), ['category']);
    assert.deepEqual(shown.body.dashcards.map((d: any) => d.id), [dashcardId]);
    assert.deepEqual(shown.body.dashcards[0].card.dataset_query, { type: 'query' });
    for (const key of ['collection', 'creator_id', 'public_uuid', 'made_public_by_id', 'collection_id']) assert.equal(shown.body[key], undefined, key);

    const base = `/api/public/dashboard/${uuid}/dashcard/${dashcardId}/card/${countCard.id}`;
    const all = await anon.get(base);
    assert.equal(all.status, 202);
    assert.equal(all.body.data.rows[0][0], 200);
    const gadgets = await anon.get(base, { query: { parameters: JSON.stringify([{ id: 'catp', value: ['Gadget'] }]) } });
    assert.equal(gadgets.body.status, 'completed', gadgets.text);
    assert.ok(gadgets.body.data.rows[0][0] < 200);
    const unknown = await anon.get(base, { query: { parameters: JSON.stringify([{ id: 'zzz', value: 'x' }]) } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.text, 'An error occurred.');
    assert.equal((await anon.get(`/api/public/dashboard/${uuid}/dashcard/${dashcardId}/card/${nativeCard.id}`)).status, 404, 'a card that is not on the dashcard');
    assert.equal((await anon.get(`/api/public/dashboard/${uuid}/dashcard/999999/card/${countCard.id}`)).status, 404);

    const csv = await anon.get(`${base}/csv`, { query: { parameters: JSON.stringify([{ id: 'catp', value: ['Gadget'] }]) } });
    assert.equal(csv.status, 200);
    assert.equal(Number(csv.text.trim().split('\n')[1]), gadgets.body.data.rows[0][0]);
    const posted = await anon.post(`${base}/json`, { parameters: JSON.stringify([{ id: 'catp', value: ['Gadget'] }]) });
    assert.equal(posted.status, 200);

    const values = await anon.get(`/api/public/dashboard/${uuid}/params/catp/values`);
    assert.equal(values.status, 200, values.text);
    assert.deepEqual(values.body.values.map((v: unknown[]) => v[0]).sort(), ['Doohickey', 'Gadget', 'Gizmo', 'Widget']);
    const search = await anon.get(`/api/public/dashboard/${uuid}/params/catp/search/gad`);
    assert.deepEqual(search.body.values.map((v: unknown[]) => v[0]), ['Gadget']);

    const category = sample.field('PRODUCTS', 'CATEGORY');
    const fieldValues = await anon.get(`/api/public/dashboard/${uuid}/field/${category}/values`);
    assert.equal(fieldValues.status, 200, fieldValues.text);
    assert.equal(fieldValues.body.field_id, category);
    const other = await anon.get(`/api/public/dashboard/${uuid}/field/${sample.field('PEOPLE', 'PASSWORD')}/values`);
    assert.equal(other.status, 400, 'only fields the dashboard filters on');
    assert.equal(other.text, 'An error occurred.');

    const executes = await anon.get(`/api/public/dashboard/${uuid}/dashcard/${dashcardId}/execute`);
    assert.equal(executes.status, 404);
  });

  test('a filter wired through an unusable target (stored before targets were checked) never runs unfiltered', async () => {
    const d = (await admin.post('/api/dashboard', { name: uniqueName('Old wiring'), parameters: [{ id: 'catp', name: 'Category', slug: 'category', type: 'string/=' }] })).body;
    const mapping = { parameter_id: 'catp', card_id: countCard.id, target: ['dimension', ['field', sample.field('PRODUCTS', 'CATEGORY'), null]] };
    const put = await admin.put(`/api/dashboard/${d.id}`, { dashcards: [{ id: -1, card_id: countCard.id, row: 0, col: 0, size_x: 6, size_y: 4, parameter_mappings: [mapping] }] });
    const dc = put.body.dashcards[0].id;
    await server().ctx.db.updateTable('report_dashboardcard').set({ parameter_mappings: JSON.stringify([{ ...mapping, target: ['dimension', ['field', { a: 1 }, null]] }]) }).where('id', '=', dc).execute();
    const uuid = await share('dashboard', d.id);
    const base = `/api/public/dashboard/${uuid}/dashcard/${dc}/card/${countCard.id}`;
    const filtered = await anon.get(base, { query: { parameters: JSON.stringify([{ id: 'catp', value: ['Gadget'] }]) } });
    assert.deepEqual([filtered.status, filtered.text], [400, 'An error occurred.']);
    assert.equal((await anon.get(base)).body.data.rows[0][0], 200, 'without a value it runs as saved');
  });

  test('card filter values, pivot results, oEmbed', async () => {
    const uuid = await share('card', nativeCard.id);
    const values = await anon.get(`/api/public/card/${uuid}/params/cat-param/values`);
    assert.equal(values.status, 200, values.text);
    const pivotCard = await card({
      display: 'pivot',
      dataset_query: {
        database: sample.id,
        type: 'query',
        query: { 'source-table': sample.table('PRODUCTS'), aggregation: [['count']], breakout: [['field', sample.field('PRODUCTS', 'CATEGORY'), null]] },
      },
    });
    const pivot = await anon.get(`/api/public/pivot/card/${await share('card', pivotCard.id)}/query`);
    assert.equal(pivot.status, 202, pivot.text);
    assert.equal(pivot.body.status, 'completed');
    assert.ok(pivot.body.data.cols.some((c: any) => c.name === 'pivot-grouping'));
    assert.equal(pivot.body.data.native_form, undefined);

    const embed = await anon.get('/api/public/oembed', { query: { url: `${server().url}/public/question/${uuid}"><script>`, maxwidth: 500 } });
    assert.equal(embed.status, 200);
    assert.equal(embed.body.width, 500);
    assert.equal(embed.body.height, 800);
    assert.ok(!embed.body.html.includes('<script>'));
    assert.equal((await anon.get('/api/public/oembed', { query: { url: 'javascript:alert(1)' } })).status, 400);
    assert.equal((await anon.get('/api/public/oembed', { query: { url: `${server().url}/public/question/${uuid}`, maxwidth: '99999999999999999999999' } })).status, 400, 'no absurd sizes');
  });
});
