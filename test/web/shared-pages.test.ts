// Public links and signed embeds in a real browser, with no session: the page shows the card's or dashboard's own
// numbers (checked against the API's answer), filters change them and live in the URL, a token's locked filter is
// neither shown nor changeable, and the hash options (#bordered, #titled, #theme, #hide_parameters, #downloads) apply.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { forEachBrowser } from './browser.js';
import { setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';

const BY_CATEGORY_SQL = 'SELECT CATEGORY, COUNT(*) AS N FROM PRODUCTS WHERE 1 = 1 [[AND CATEGORY = {{cat}}]] GROUP BY CATEGORY ORDER BY CATEGORY';

forEachBrowser('public and embedded pages', (session) => {
  let admin: Client;
  let sample: Sample;
  let byCategory: any;
  let countCard: any;
  let dashboard: any;
  let secret: string;
  const counts = new Map<string, number>();

  const ok = <R extends { status: number; text: string }>(response: R): R => {
    assert.ok(response.status < 300, `${response.status} ${response.text}`);
    return response;
  };
  const sign = (resource: Record<string, number>, params: Record<string, unknown>) =>
    new SignJWT({ resource, params, exp: Math.round(Date.now() / 1000) + 600 }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));

  before(async () => {
    const server = session().server;
    admin = await setupAdmin(server);
    sample = await installSample(admin);
    ok(await admin.put('/api/setting/enable-public-sharing', { value: true }));
    ok(await admin.put('/api/setting/enable-embedding-static', { value: true }));
    secret = (await admin.get('/api/setting/embedding-secret-key')).body;
    byCategory = ok(await admin.post('/api/card', {
      name: 'Products by category',
      display: 'bar',
      visualization_settings: { 'graph.dimensions': ['CATEGORY'], 'graph.metrics': ['N'] },
      dataset_query: { database: sample.id, type: 'native', native: { query: BY_CATEGORY_SQL, 'template-tags': { cat: { id: 'cat-tag', name: 'cat', 'display-name': 'Category', type: 'text' } } } },
    })).body;
    countCard = ok(await admin.post('/api/card', {
      name: 'Product count',
      display: 'scalar',
      visualization_settings: {},
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS'), aggregation: [['count']] } },
    })).body;
    dashboard = ok(await admin.post('/api/dashboard', {
      name: 'Catalogue',
      parameters: [{ id: 'catp', name: 'Category', slug: 'category', type: 'string/=' }],
    })).body;
    ok(await admin.put(`/api/dashboard/${dashboard.id}`, {
      dashcards: [
        {
          id: -1, card_id: countCard.id, row: 0, col: 0, size_x: 6, size_y: 4, visualization_settings: {}, series: [],
          parameter_mappings: [{ parameter_id: 'catp', card_id: countCard.id, target: ['dimension', ['field', sample.field('PRODUCTS', 'CATEGORY'), null]] }],
        },
        {
          id: -2, card_id: null, row: 0, col: 6, size_x: 8, size_y: 2, series: [],
          visualization_settings: { virtual_card: { display: 'text' }, text: 'Showing {{which}}' },
          parameter_mappings: [{ parameter_id: 'catp', target: ['text-tag', 'which'] }],
        },
      ],
    }));
    // What the API says, to compare the pages with.
    const rows = ok(await admin.post(`/api/card/${byCategory.id}/query`)).body.data.rows as Array<[string, number]>;
    for (const [category, n] of rows) counts.set(category, n);
    assert.equal(counts.size, 4);
  });

  test('a public question draws its rows; a filter typed in changes them and goes into the URL', async () => {
    const { page, url, screenshot } = session();
    const { uuid } = ok(await admin.post(`/api/card/${byCategory.id}/public_link`)).body;
    await page.goto(url(`/public/question/${uuid}`));
    await page.getByRole('heading', { name: 'Products by category' }).waitFor();
    const chart = page.getByTestId('chart');
    await chart.waitFor();
    assert.equal(await chart.getAttribute('data-display'), 'bar');
    assert.equal(await chart.getAttribute('data-points'), '4', 'one bar per category');
    assert.ok((await chart.locator('svg path').count()) >= 4, 'the bars are drawn');
    for (const category of counts.keys()) await chart.getByText(category, { exact: true }).waitFor();
    await screenshot('public-question');

    await page.getByLabel('Category').fill('Gizmo');
    await page.getByLabel('Category').press('Enter');
    await page.waitForURL(/\?cat=Gizmo$/);
    await page.locator('[data-testid="chart"][data-points="1"]').waitFor();
    await page.getByTestId('chart').getByText('Gizmo', { exact: true }).waitFor();
    assert.equal(await page.getByTestId('chart').getByText('Widget', { exact: true }).count(), 0);
    assert.equal((await page.context().cookies()).filter((c) => c.name === 'metabase.SESSION').length, 0, 'no session was needed');

    // The download menu gives the server's own export of what is shown (the filter applies).
    await page.getByRole('button', { name: 'Download results' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: '.csv' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const api = await session().server.anon.get(`/api/public/card/${uuid}/query/csv`, { query: { parameters: JSON.stringify([{ id: 'cat-tag', type: 'category', value: 'Gizmo' }]) } });
    assert.equal(csv, api.text);
    assert.match(csv, /^CATEGORY,N\r?\nGizmo,\d+/);
  });

  test('a public dashboard shows its count, and the count of a category when its filter is set from the URL', async () => {
    const { page, url, screenshot } = session();
    const { uuid } = ok(await admin.post(`/api/dashboard/${dashboard.id}/public_link`)).body;
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    await page.goto(url(`/public/dashboard/${uuid}`));
    await page.getByRole('heading', { name: 'Catalogue' }).waitFor();
    await page.getByTestId('dashcard-title').filter({ hasText: 'Product count' }).waitFor();
    await page.getByTestId('scalar-value').filter({ hasText: String(total) }).waitFor();
    await screenshot('public-dashboard');

    await page.goto(url(`/public/dashboard/${uuid}?category=Gadget`));
    await page.getByTestId('scalar-value').filter({ hasText: new RegExp(`^${counts.get('Gadget')}$`) }).waitFor();
    await page.getByText('Showing Gadget').waitFor();
    assert.equal(await page.getByLabel('Category').inputValue(), 'Gadget');

    await page.getByLabel('Category').fill('Widget');
    await page.getByLabel('Category').press('Enter');
    await page.getByTestId('scalar-value').filter({ hasText: new RegExp(`^${counts.get('Widget')}$`) }).waitFor();
    assert.match(page.url(), /\?category=Widget$/);
  });

  test('an embedded question with a locked filter: no box for it, its rows only; #bordered, #titled and #downloads off', async () => {
    const { page, url, screenshot } = session();
    ok(await admin.put(`/api/card/${byCategory.id}`, { enable_embedding: true, embedding_params: { cat: 'locked' } }));
    const token = await sign({ question: byCategory.id }, { cat: 'Doohickey' });
    await page.goto(url(`/embed/question/${token}#bordered=false&titled=false&downloads=false`));
    await page.locator('[data-testid="chart"][data-points="1"]').waitFor();
    await page.getByTestId('chart').getByText('Doohickey', { exact: true }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Products by category' }).count(), 0, '#titled=false hides the title');
    assert.equal(await page.getByTestId('shared-frame').getAttribute('data-bordered'), 'false');
    assert.equal(await page.getByLabel('Category').count(), 0, 'a locked filter is not shown');
    assert.equal(await page.getByRole('button', { name: 'Download results' }).count(), 0);
    await screenshot('embed-question-locked');

    // The URL can't override a locked value: the page sends only the filters the viewer may set (the server would
    // refuse the others), so the token's value stands.
    await page.goto(url(`/embed/question/${token}?cat=Gizmo#titled=false`));
    await page.locator('[data-testid="chart"][data-points="1"]').waitFor();
    await page.getByTestId('chart').getByText('Doohickey', { exact: true }).waitFor();
    assert.equal(await page.getByTestId('chart').getByText('Gizmo', { exact: true }).count(), 0);
    assert.equal((await session().server.anon.get(`/api/embed/card/${token}/query`, { query: { cat: 'Gizmo' } })).status, 400);
  });

  test('an embedded dashboard with an editable filter, #theme=night and #hide_parameters', async () => {
    const { page, url, screenshot } = session();
    ok(await admin.put(`/api/dashboard/${dashboard.id}`, { enable_embedding: true, embedding_params: { category: 'enabled' } }));
    const token = await sign({ dashboard: dashboard.id }, {});
    await page.goto(url(`/embed/dashboard/${token}#theme=night`));
    await page.getByTestId('scalar-value').filter({ hasText: String([...counts.values()].reduce((a, b) => a + b, 0)) }).waitFor();
    assert.equal(await page.locator('html').getAttribute('data-mantine-color-scheme'), 'dark');
    await page.getByLabel('Category').fill('Gizmo');
    await page.getByLabel('Category').press('Enter');
    await page.getByTestId('scalar-value').filter({ hasText: new RegExp(`^${counts.get('Gizmo')}$`) }).waitFor();
    await screenshot('embed-dashboard-night');

    await page.goto(url(`/embed/dashboard/${token}?category=Widget#hide_parameters=category`));
    await page.getByTestId('scalar-value').filter({ hasText: new RegExp(`^${counts.get('Widget')}$`) }).waitFor();
    assert.equal(await page.getByLabel('Category').count(), 0, 'a hidden filter is not shown but still applies');
    assert.equal(await page.locator('html').getAttribute('data-mantine-color-scheme'), 'light');
  });
});
