// Signed embedding: settings, the per-object flag, tokens (and attacks on them), the locked / enabled / disabled
// parameter rules with Metabase's messages, embedded cards and dashboards, filter values, the preview for admins
// under both spellings, and the embeddable lists.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SignJWT, generateKeyPair } from 'jose';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { uniqueName } from '../cards/fixtures.js';

const b64 = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');

async function sign(claims: Record<string, unknown>, secret: string, alg = 'HS256'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg }).sign(new TextEncoder().encode(secret));
}

forEachAppDb('signed embedding', (server) => {
  let admin: Client;
  let anon: Client;
  let user: Client;
  let sample: Sample;
  let secret: string;
  let nativeCard: any;
  let dashboard: any;
  let dashcardId: number;
  let countCard: any;

  const cardToken = (params: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    sign({ resource: { question: nativeCard.id }, params, exp: Math.round(Date.now() / 1000) + 600, ...extra }, secret);
  const dashToken = (params: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    sign({ resource: { dashboard: dashboard.id }, params, ...extra }, secret);

  async function setting(key: string, value: unknown) {
    const response = await admin.put(`/api/setting/${key}`, { value });
    assert.equal(response.status, 204, response.text);
  }

  before(async () => {
    admin = await setupAdmin(server());
    anon = server().anon;
    user = (await createUserClient(server(), admin)).client;
    sample = await installSample(admin);
    const created = await admin.post('/api/card', {
      name: uniqueName('Embedded'),
      display: 'scalar',
      visualization_settings: {},
      dataset_query: {
        database: sample.id,
        type: 'native',
        native: {
          query: 'SELECT COUNT(*) AS n FROM PRODUCTS WHERE 1 = 1 [[AND CATEGORY = {{cat}}]] [[AND VENDOR = {{vendor}}]] [[AND EAN = {{ean}}]]',
          'template-tags': {
            cat: { id: 'cat-id', name: 'cat', 'display-name': 'Cat', type: 'text' },
            vendor: { id: 'vendor-id', name: 'vendor', 'display-name': 'Vendor', type: 'text' },
            ean: { id: 'ean-id', name: 'ean', 'display-name': 'EAN', type: 'text' },
          },
        },
      },
    });
    nativeCard = created.body;
    countCard = (await admin.post('/api/card', {
      name: uniqueName('Count'),
      display: 'scalar',
      visualization_settings: {},
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS'), aggregation: [['count']] } },
    })).body;
    dashboard = (await admin.post('/api/dashboard', {
      name: uniqueName('Embedded dash'),
      parameters: [
        { id: 'catp', name: 'Category', slug: 'category', type: 'string/=' },
        { id: 'vendp', name: 'Vendor', slug: 'vendor', type: 'string/=' },
      ],
    })).body;
    const put = await admin.put(`/api/dashboard/${dashboard.id}`, {
      dashcards: [
        {
          id: -1, card_id: countCard.id, row: 0, col: 0, size_x: 6, size_y: 4, visualization_settings: {}, series: [],
          parameter_mappings: [
            { parameter_id: 'catp', card_id: countCard.id, target: ['dimension', ['field', sample.field('PRODUCTS', 'CATEGORY'), null]] },
            { parameter_id: 'vendp', card_id: countCard.id, target: ['dimension', ['field', sample.field('PRODUCTS', 'VENDOR'), null]] },
          ],
        },
        {
          id: -2, card_id: null, row: 4, col: 0, size_x: 4, size_y: 2, series: [],
          visualization_settings: { virtual_card: { display: 'text' }, text: 'Sold by {{who}}' },
          parameter_mappings: [{ parameter_id: 'vendp', target: ['text-tag', 'who'] }],
        },
      ],
    });
    assert.equal(put.status, 200, put.text);
    dashcardId = put.body.dashcards.find((d: any) => d.card_id === countCard.id).id;
  });

  test('embedding off, no secret, an object not published: each a 400 with its message', async () => {
    secret = randomBytes(32).toString('hex');
    const before = await anon.get(`/api/embed/card/${await sign({ resource: { question: nativeCard.id }, params: {} }, secret)}`);
    assert.equal(before.status, 400);
    assert.equal(before.text, 'Embedding is not enabled.');
    assert.equal((await admin.put(`/api/card/${nativeCard.id}`, { enable_embedding: true })).text, 'Embedding is not enabled.');
    await setting('enable-embedding-static', true);
    assert.match(String(await server().ctx.settings.getString('embedding-secret-key')), /^[0-9a-f]{64}$/, 'turning embedding on made a secret key');
    await setting('embedding-secret-key', null);
    assert.equal((await anon.get(`/api/embed/card/${await cardToken()}`)).text, 'The embedding secret key has not been set.');
    assert.equal((await admin.put('/api/setting/embedding-secret-key', { value: 'not-hex' })).status, 400);
    await setting('embedding-secret-key', secret);
    const unpublished = await anon.get(`/api/embed/card/${await cardToken()}`);
    assert.equal(unpublished.status, 400);
    assert.equal(unpublished.text, 'Embedding is not enabled for this object.');
    assert.equal((await user.put(`/api/card/${nativeCard.id}`, { enable_embedding: true })).status, 403);
    assert.equal((await admin.put(`/api/card/${nativeCard.id}`, { embedding_params: { cat: 'sometimes' } })).status, 400);
    const on = await admin.put(`/api/card/${nativeCard.id}`, { enable_embedding: true, embedding_params: { cat: 'locked', vendor: 'enabled', ean: 'disabled' } });
    assert.equal(on.status, 200, on.text);
    assert.ok(on.body.initially_published_at);
    const dash = await admin.put(`/api/dashboard/${dashboard.id}`, { enable_embedding: true, embedding_params: { category: 'enabled', vendor: 'locked' } });
    assert.equal(dash.status, 200, dash.text);
    assert.deepEqual((await admin.get('/api/card/embeddable')).body.filter((c: any) => c.id === nativeCard.id), [{ name: nativeCard.name, id: nativeCard.id }]);
    assert.ok((await admin.get('/api/dashboard/embeddable')).body.some((d: any) => d.id === dashboard.id));
    assert.equal((await user.get('/api/card/embeddable')).status, 403);
  });

  test('tokens: alg none, other algorithms, a wrong key, expiry with 60 s leeway, tampering, missing claims', async () => {
    const claims = { resource: { question: nativeCard.id }, params: { cat: 'Widget' } };
    const attacks: Record<string, string> = {
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      HS512: await sign(claims, secret, 'HS512'),
      'wrong key': await sign(claims, randomBytes(32).toString('hex')),
      'hex-decoded key': await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(Buffer.from(secret, 'hex')),
      expired: await sign({ ...claims, exp: Math.round(Date.now() / 1000) - 120 }, secret),
      garbage: 'not.a.token',
    };
    const { privateKey } = await generateKeyPair('RS256');
    attacks.RS256 = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    const good = await sign(claims, secret);
    const [h, , sig] = good.split('.');
    attacks.tampered = `${h}.${b64({ ...claims, params: { cat: 'Gadget' } })}.${sig}`;
    for (const [name, token] of Object.entries(attacks)) {
      for (const path of [`/api/embed/card/${token}`, `/api/embed/card/${token}/query`]) {
        const response = await anon.get(path);
        assert.equal(response.status, 400, `${name}: ${response.text}`);
        assert.match(response.headers.get('content-type') ?? '', /text\/plain/, name);
        assert.ok(!response.text.includes('Widget') && !/\d{3,}/.test(response.text.replace(/Token is expired \(\d+\)/, '')), `${name}: ${response.text}`);
      }
    }
    assert.equal((await anon.get(`/api/embed/card/${attacks['wrong key']}`)).text, 'Message seems corrupt or manipulated');
    assert.match((await anon.get(`/api/embed/card/${attacks.expired}`)).text, /^Token is expired/);
    const leeway = await sign({ ...claims, exp: Math.round(Date.now() / 1000) - 30 }, secret);
    assert.equal((await anon.get(`/api/embed/card/${leeway}`)).status, 200, 'within the 60 s leeway');
    const noParams = await anon.get(`/api/embed/card/${await sign({ resource: { question: nativeCard.id } }, secret)}`);
    assert.equal(noParams.text, 'Token is missing value for keypath [:params]');
    const cardOnDashboard = await anon.get(`/api/embed/dashboard/${await sign({ resource: { question: nativeCard.id }, params: {} }, secret)}`);
    assert.equal(cardOnDashboard.status, 400);
    assert.equal(cardOnDashboard.text, 'Token is missing value for keypath [:resource :dashboard]');
    const dashboardOnCard = await anon.get(`/api/embed/card/${await dashToken({ vendor: 'x' })}/query`);
    assert.equal(dashboardOnCard.text, 'Token is missing value for keypath [:resource :question]');
    assert.equal((await anon.get(`/api/embed/card/${await sign({ resource: { question: 999999 }, params: {} }, secret)}`)).text, 'Not found.');
  });

  test('parameters: locked only from the token, enabled from one place, disabled from nobody, unknown refused', async () => {
    const count = async (token: string, query: Record<string, string> = {}) => {
      const response = await anon.get(`/api/embed/card/${token}/query`, { query });
      return response;
    };
    const widgets = await count(await cardToken({ cat: 'Widget' }));
    assert.equal(widgets.status, 202, widgets.text);
    assert.equal(widgets.body.status, 'completed', widgets.text);
    const widgetCount = widgets.body.data.rows[0][0];
    assert.ok(widgetCount > 0 && widgetCount < 200);
    assert.equal(widgets.body.data.native_form, undefined);
    const all = await count(await cardToken({ cat: null }));
    assert.equal(all.body.data.rows[0][0], 200, 'an explicit null locked value means no filter');

    const cases: Array<[Record<string, unknown>, Record<string, string>, string]> = [
      // Metabase names the parameter as a keyword
      [{}, {}, 'You must specify a value for :cat in the JWT.'],
      [{ cat: 'Widget' }, { cat: 'Gadget' }, 'You can only specify a value for :cat in the JWT.'],
      [{ cat: 'Widget', vendor: 'x' }, { vendor: 'y' }, "You can't specify a value for :vendor if it's already set in the JWT."],
      [{ cat: 'Widget' }, { ean: '1' }, "You're not allowed to specify a value for :ean."],
      [{ cat: 'Widget', ean: '1' }, {}, "You're not allowed to specify a value for :ean."],
      [{ cat: 'Widget' }, { color: 'red' }, 'Unknown parameter :color.'],
    ];
    for (const [params, query, message] of cases) {
      const response = await count(await cardToken(params), query);
      assert.equal(response.status, 400, `${JSON.stringify(params)} ${JSON.stringify(query)}: ${response.text}`);
      assert.equal(response.text, message);
    }
    const byVendor = await count(await cardToken({ cat: 'Widget' }), { vendor: 'no such vendor' });
    assert.equal(byVendor.body.data.rows[0][0], 0, 'enabled values come from the URL');
    const injected = await count(await cardToken({ cat: "Widget' OR '1'='1" }));
    assert.equal(injected.body.data.rows[0][0], 0, 'values are bound, never spliced');

    const shown = await anon.get(`/api/embed/card/${await cardToken({ cat: 'Widget' })}`);
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body.parameters.map((p: any) => p.slug), ['vendor'], 'only what the viewer may set');
    assert.ok(!shown.text.includes('SELECT'));
    // listing values names the parameter as a quoted string
    assert.equal((await anon.get(`/api/embed/card/${await cardToken({ cat: 'Widget' })}/params/cat-id/values`)).text, 'Cannot search for values: "cat" is not an enabled parameter.');
    assert.equal((await anon.get(`/api/embed/card/${await cardToken({ cat: 'Widget' })}/params/vendor-id/values`)).status, 200);
    assert.equal(
      (await anon.get(`/api/embed/card/${await cardToken({ cat: 'Widget', vendor: 'Acme' })}/params/vendor-id/values`)).text,
      'You can\'t specify a value for "vendor" if it\'s already set in the JWT.',
    );

    const csv = await anon.get(`/api/embed/card/${await cardToken({ cat: 'Widget' })}/query/csv`);
    assert.equal(csv.status, 200);
    assert.equal(Number(csv.text.trim().split('\n')[1]), widgetCount);
  });

  test('an embedded dashboard: its filters, dashcard results by slug, filter values narrowed by the token', async () => {
    const token = await dashToken({ vendor: null });
    const shown = await anon.get(`/api/embed/dashboard/${token}`);
    assert.equal(shown.status, 200, shown.text);
    assert.deepEqual(shown.body.parameters.map((p: any) => p.slug), ['category']);
    assert.deepEqual(shown.body.dashcards.map((d: any) => d.card_id), [countCard.id, null]);
    const text = (await anon.get(`/api/embed/dashboard/${await dashToken({ vendor: 'Acme' })}`)).body.dashcards[1];
    assert.equal(text.visualization_settings.text, 'Sold by Acme', "the token's value fills the text card");
    const base = `/api/embed/dashboard/${token}/dashcard/${dashcardId}/card/${countCard.id}`;
    const all = await anon.get(base);
    assert.equal(all.body.data.rows[0][0], 200, all.text);
    const gizmos = await anon.get(base, { query: { category: 'Gizmo' } });
    assert.ok(gizmos.body.data.rows[0][0] < 200, gizmos.text);
    assert.equal((await anon.get(`/api/embed/dashboard/${await dashToken({})}/dashcard/${dashcardId}/card/${countCard.id}`)).text, 'You must specify a value for :vendor in the JWT.');
    assert.equal((await anon.get(`/api/embed/dashboard/${token}/dashcard/${dashcardId}/card/${nativeCard.id}`)).text, 'Not found.');

    const values = await anon.get(`/api/embed/dashboard/${token}/params/catp/values`);
    assert.equal(values.status, 200, values.text);
    assert.deepEqual(values.body.values.map((v: unknown[]) => v[0]).sort(), ['Doohickey', 'Gadget', 'Gizmo', 'Widget']);
    const vendor = (await admin.post('/api/dataset', { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS'), fields: [['field', sample.field('PRODUCTS', 'VENDOR'), null], ['field', sample.field('PRODUCTS', 'CATEGORY'), null]], limit: 1 } })).body.data.rows[0];
    const narrowed = await anon.get(`/api/embed/dashboard/${await dashToken({ vendor: vendor[0] })}/params/catp/values`);
    assert.deepEqual(narrowed.body.values.map((v: unknown[]) => v[0]), [vendor[1]], 'the locked vendor narrows the category values');
    assert.equal((await anon.get(`/api/embed/dashboard/${token}/params/vendp/values`)).text, 'Cannot search for values: "vendor" is not an enabled parameter.');
    const category = sample.field('PRODUCTS', 'CATEGORY');
    assert.equal((await anon.get(`/api/embed/dashboard/${token}/field/${category}/values`)).status, 200);
    assert.equal((await anon.get(`/api/embed/dashboard/${token}/field/${sample.field('PRODUCTS', 'VENDOR')}/values`)).status, 400, 'a locked filter’s field');
  });

  test("field lookups of an embedded dashboard show only what the token's rows have", async () => {
    const category = sample.field('PRODUCTS', 'CATEGORY');
    const vendors = (await admin.post('/api/dataset', {
      database: sample.id, type: 'query',
      query: { 'source-table': sample.table('PRODUCTS'), breakout: [['field', sample.field('PRODUCTS', 'VENDOR'), null]], aggregation: [['distinct', ['field', category, null]]], 'order-by': [['asc', ['aggregation', 0]]], limit: 1 },
    })).body.data.rows[0];
    const [vendor] = vendors;
    const own = (await admin.post('/api/dataset', {
      database: sample.id, type: 'query',
      query: { 'source-table': sample.table('PRODUCTS'), breakout: [['field', category, null]], filter: ['=', ['field', sample.field('PRODUCTS', 'VENDOR'), null], vendor] },
    })).body.data.rows.map((r: unknown[]) => r[0]);
    assert.ok(own.length < 4, 'the vendor sells only some categories');
    const token = await dashToken({ vendor });
    const values = await anon.get(`/api/embed/dashboard/${token}/field/${category}/values`);
    assert.equal(values.status, 200, values.text);
    assert.deepEqual(values.body.values.map((v: unknown[]) => v[0]).sort(), [...own].sort());
    const other = ['Doohickey', 'Gadget', 'Gizmo', 'Widget'].find((c) => !own.includes(c))!;
    const search = await anon.get(`/api/embed/dashboard/${token}/field/${category}/search/${category}`, { query: { value: other.slice(0, 3) } });
    assert.equal(search.status, 200, search.text);
    assert.deepEqual(search.body, [], `another vendor's ${other} stays hidden`);
    const found = await anon.get(`/api/embed/dashboard/${token}/field/${category}/search/${category}`, { query: { value: own[0].slice(0, 3) } });
    assert.deepEqual(found.body.map((v: unknown[]) => v[0]), [own[0]]);
    assert.equal((await anon.get(`/api/embed/dashboard/${token}/field/${category}/remapping/${category}`, { query: { value: other } })).status, 400, 'looking up a hidden value is refused');
    // without a token value, the whole field (as a public link shows it)
    const open = await anon.get(`/api/embed/dashboard/${await dashToken({ vendor: null })}/field/${category}/values`);
    assert.deepEqual(open.body.values.map((v: unknown[]) => v[0]).sort(), ['Doohickey', 'Gadget', 'Gizmo', 'Widget']);
  });

  test('embedded results in every form: downloads, pivot tables, parameter search', async () => {
    const token = await dashToken({ vendor: null });
    const csv = await anon.get(`/api/embed/dashboard/${token}/dashcard/${dashcardId}/card/${countCard.id}/csv`, { query: { category: 'Gizmo' } });
    assert.equal(csv.status, 200, csv.text);
    assert.match(csv.headers.get('content-disposition') ?? '', /attachment/);
    const gizmos = (await admin.post('/api/dataset', { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS'), aggregation: [['count']], filter: ['=', ['field', sample.field('PRODUCTS', 'CATEGORY'), null], 'Gizmo'] } })).body.data.rows[0][0];
    assert.deepEqual(csv.text.trim().split('\n'), ['Count', String(gizmos)]);
    const pivot = await anon.get(`/api/embed/pivot/dashboard/${token}/dashcard/${dashcardId}/card/${countCard.id}`);
    assert.equal(pivot.status, 202, pivot.text);
    assert.equal(pivot.body.status, 'completed', pivot.text);
    const search = await anon.get(`/api/embed/dashboard/${token}/params/catp/search/Gi`);
    assert.equal(search.status, 200, search.text);
    assert.deepEqual(search.body.values.map((v: unknown[]) => v[0]), ['Gizmo']);
    const cardCsv = await anon.get(`/api/embed/card/${await cardToken({ cat: 'Widget' })}/query/csv`);
    assert.equal(cardCsv.status, 200, cardCsv.text);
    assert.equal(cardCsv.text.trim().split('\n')[0], 'n');
  });

  test('preview: admins only, under both spellings, without publishing, policy from _embedding_params', async () => {
    const draft = (await admin.post('/api/card', { name: uniqueName('Draft'), display: 'scalar', visualization_settings: {}, dataset_query: nativeCard.dataset_query })).body;
    const token = await sign({ resource: { question: draft.id }, params: { cat: 'Widget' }, _embedding_params: { cat: 'locked' } }, secret);
    for (const prefix of ['/api/preview-embed', '/api/preview_embed']) {
      const shown = await admin.get(`${prefix}/card/${token}`);
      assert.equal(shown.status, 200, shown.text);
      assert.equal(shown.body.name, draft.name);
      const result = await admin.get(`${prefix}/card/${token}/query`);
      assert.equal(result.body.status, 'completed', result.text);
      assert.ok(result.body.data.rows[0][0] < 200);
      assert.equal((await anon.get(`${prefix}/card/${token}`)).status, 401);
      assert.equal((await user.get(`${prefix}/card/${token}`)).status, 403);
    }
    const noPolicy = await admin.get(`/api/preview-embed/card/${await sign({ resource: { question: draft.id }, params: {} }, secret)}`);
    assert.equal(noPolicy.status, 400);
    assert.equal(noPolicy.text, 'Token is missing value for keypath [:_embedding_params]');
    const unlocked = await sign({ resource: { question: draft.id }, params: {}, _embedding_params: { cat: 'enabled' } }, secret);
    assert.equal((await admin.get(`/api/preview-embed/card/${unlocked}/query`, { query: { cat: 'Widget' } })).body.status, 'completed');
    assert.equal((await anon.get(`/api/embed/card/${unlocked}`)).text, 'Embedding is not enabled for this object.', 'the real endpoint still needs publishing');
    const dashPreview = await admin.get(`/api/preview-embed/dashboard/${await sign({ resource: { dashboard: dashboard.id }, params: {}, _embedding_params: {} }, secret)}/dashcard/${dashcardId}/card/${countCard.id}`);
    assert.equal(dashPreview.body.data.rows[0][0], 200, dashPreview.text);
    const ghostToken = await sign({ resource: { dashboard: dashboard.id }, params: {}, _embedding_params: { ghost: 'enabled' } }, secret);
    const ghost = await admin.get(`/api/preview-embed/dashboard/${ghostToken}/dashcard/${dashcardId}/card/${countCard.id}`, { query: { ghost: 'x' } });
    assert.equal(ghost.status, 400);
    assert.equal(ghost.text, 'No matching parameter with slug "ghost". Found: ("category" "vendor")');
  });
});
