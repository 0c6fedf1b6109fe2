// A signed-in dashboard in a real browser: its cards (on the Sample Database) show the numbers the API gives, a
// filter set through its widget or the URL (?state=CA) changes them to the API's filtered numbers, tabs, text and
// heading cards (Markdown, never HTML), linked filters, Apply when auto-apply is off, and a title that opens its
// question.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBrowser } from './browser.js';
import { setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';

const exact = (n: number) => new RegExp(`^${n.toLocaleString('en-US')}$`);

forEachBrowser('dashboards', (session) => {
  let admin: Client;
  let sample: Sample;
  let dashboard: any;
  let countCard: any;
  let byCategory: any;
  let peopleCard: any;
  let priceCard: any;
  const dashcardIds = new Map<number, number>();

  const ok = <R extends { status: number; text: string }>(response: R): R => {
    assert.ok(response.status < 300, `${response.status} ${response.text}`);
    return response;
  };
  /** What the API answers for a dashcard with these filter values. */
  const apiRows = async (card: any, parameters: Array<{ id: string; type: string; value: unknown }> = []) =>
    ok(await admin.post(`/api/dashboard/${dashboard.id}/dashcard/${dashcardIds.get(card.id)}/card/${card.id}/query`, { parameters })).body.data.rows as unknown[][];
  const scalarOf = (title: string) => session().page.getByTestId('dashcard').filter({ has: session().page.getByTestId('dashcard-title').filter({ hasText: title }) }).getByTestId('scalar-value');

  before(async () => {
    admin = await setupAdmin(session().server);
    await session().signIn(admin.session!);
    sample = await installSample(admin);
    const products = sample.table('PRODUCTS');
    countCard = ok(await admin.post('/api/card', {
      name: 'Product count', display: 'scalar', visualization_settings: {},
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': products, aggregation: [['count']] } },
    })).body;
    byCategory = ok(await admin.post('/api/card', {
      name: 'Products per category', display: 'bar', visualization_settings: {},
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': products, aggregation: [['count']], breakout: [['field', sample.field('PRODUCTS', 'CATEGORY'), null]] } },
    })).body;
    priceCard = ok(await admin.post('/api/card', {
      name: 'Average price per category', display: 'bar', visualization_settings: {},
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': products, aggregation: [['avg', ['field', sample.field('PRODUCTS', 'PRICE'), null]]], breakout: [['field', sample.field('PRODUCTS', 'CATEGORY'), null]] } },
    })).body;
    peopleCard = ok(await admin.post('/api/card', {
      name: 'People count', display: 'scalar', visualization_settings: {},
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('PEOPLE'), aggregation: [['count']] } },
    })).body;
    dashboard = ok(await admin.post('/api/dashboard', {
      name: 'Shop overview',
      parameters: [
        { id: 'catp', name: 'Category', slug: 'category', type: 'string/=', sectionId: 'string' },
        { id: 'vendp', name: 'Vendor', slug: 'vendor', type: 'string/=', sectionId: 'string', filteringParameters: ['catp'] },
        { id: 'statep', name: 'State', slug: 'state', type: 'string/=', sectionId: 'location' },
      ],
    })).body;
    const category = ['dimension', ['field', sample.field('PRODUCTS', 'CATEGORY'), null]];
    const vendor = ['dimension', ['field', sample.field('PRODUCTS', 'VENDOR'), null]];
    const productMappings = (cardId: number) => [
      { parameter_id: 'catp', card_id: cardId, target: category },
      { parameter_id: 'vendp', card_id: cardId, target: vendor },
    ];
    const saved = ok(await admin.put(`/api/dashboard/${dashboard.id}`, {
      tabs: [{ id: -1, name: 'Products' }, { id: -2, name: 'People' }],
      dashcards: [
        { id: -1, card_id: null, dashboard_tab_id: -1, row: 0, col: 0, size_x: 24, size_y: 1, visualization_settings: { virtual_card: { display: 'heading' }, text: 'The catalogue' } },
        { id: -2, card_id: countCard.id, dashboard_tab_id: -1, row: 1, col: 0, size_x: 6, size_y: 4, visualization_settings: {}, parameter_mappings: productMappings(countCard.id) },
        { id: -3, card_id: byCategory.id, dashboard_tab_id: -1, row: 1, col: 6, size_x: 12, size_y: 6, visualization_settings: {}, parameter_mappings: productMappings(byCategory.id) },
        {
          id: -4, card_id: null, dashboard_tab_id: -1, row: 1, col: 18, size_x: 6, size_y: 4,
          visualization_settings: { virtual_card: { display: 'text' }, text: '## Notes\nShowing {{which}}, **in bold**, order_id as typed <script>window.injected = 1</script> [bad](javascript:window.injected=2) [docs](https://example.com/docs)\n- one\n- two' },
          parameter_mappings: [{ parameter_id: 'catp', target: ['text-tag', 'which'] }],
        },
        { id: -6, card_id: byCategory.id, dashboard_tab_id: -2, row: 4, col: 0, size_x: 12, size_y: 6, visualization_settings: { 'card.title': 'Count and price' }, series: [{ id: priceCard.id }] },
        { id: -5, card_id: peopleCard.id, dashboard_tab_id: -2, row: 0, col: 0, size_x: 8, size_y: 4, visualization_settings: {}, parameter_mappings: [{ parameter_id: 'statep', card_id: peopleCard.id, target: ['dimension', ['field', sample.field('PEOPLE', 'STATE'), null]] }] },
      ],
    })).body;
    // each card's dashcard on the Products tab (By category also appears on People, with a series)
    for (const dc of saved.dashcards) if (dc.card_id && !dashcardIds.has(dc.card_id)) dashcardIds.set(dc.card_id, dc.id);
    dashboard = saved;
  });

  test('the cards show the API\'s numbers, laid out on the grid; text cards are Markdown, never HTML', async () => {
    const { page, url, screenshot, pageErrors } = session();
    const total = (await apiRows(countCard))[0][0] as number;
    const perCategory = await apiRows(byCategory);
    await page.goto(url(`/dashboard/${dashboard.id}-shop-overview`));
    await page.getByRole('heading', { name: 'Shop overview' }).waitFor();
    await scalarOf('Product count').filter({ hasText: exact(total) }).waitFor();
    const chart = page.locator('[data-testid="chart"][data-display="bar"]');
    await chart.waitFor();
    assert.equal(await chart.getAttribute('data-points'), String(perCategory.length));
    for (const [category] of perCategory) await chart.getByText(String(category), { exact: true }).first().waitFor();

    // exactly where the grid puts them: the count takes a quarter of the width, the chart half
    const [countBox, chartBox] = await Promise.all([
      page.locator(`[data-dashcard-id="${dashcardIds.get(countCard.id)}"]`).boundingBox(),
      page.locator(`[data-dashcard-id="${dashcardIds.get(byCategory.id)}"]`).boundingBox(),
    ]);
    assert.ok(countBox && chartBox);
    assert.ok(Math.abs(chartBox.width / countBox.width - 2) < 0.1, `${chartBox.width} vs ${countBox.width}`);
    assert.ok(Math.abs(chartBox.y - countBox.y) < 2 && chartBox.x > countBox.x + countBox.width);

    await page.getByTestId('heading-card').getByText('The catalogue').waitFor();
    const text = page.getByTestId('text-card');
    await text.getByRole('heading', { name: 'Notes' }).waitFor();
    assert.equal(await text.locator('strong').count(), 1, '**…** is bold');
    assert.equal(await text.locator('li').count(), 2);
    await text.getByText('order_id as typed', { exact: false }).waitFor();
    assert.equal(await text.locator('em').count(), 0, 'snake_case is no emphasis');
    assert.equal(await text.locator('script').count(), 0, 'no markup from the text');
    assert.equal(await page.evaluate(() => (globalThis as any).injected), undefined);
    assert.equal(await text.getByRole('link', { name: 'bad' }).count(), 0, 'a javascript: link is no link');
    assert.equal(await text.getByRole('link', { name: 'docs' }).getAttribute('href'), 'https://example.com/docs');
    await screenshot('dashboard');
    assert.deepEqual(pageErrors, []);
  });

  test('a filter picked in its widget goes into the URL, and the cards show the API\'s filtered numbers', async () => {
    const { page, url, screenshot } = session();
    const gizmo = (await apiRows(countCard, [{ id: 'catp', type: 'string/=', value: ['Gizmo'] }]))[0][0] as number;
    await page.goto(url(`/dashboard/${dashboard.id}`));
    await page.getByTestId('scalar-value').first().waitFor();
    await page.getByTestId('parameter-category').click();
    // the values come from the chain-filter endpoint
    const offered = ok(await admin.get(`/api/dashboard/${dashboard.id}/params/catp/values`)).body.values.map((v: unknown[]) => String(v[0]));
    for (const value of offered) await page.getByRole('option', { name: value, exact: true }).waitFor();
    await page.getByRole('option', { name: 'Gizmo', exact: true }).click();
    await page.waitForURL(/[?&]category=Gizmo(&|$)/);
    await scalarOf('Product count').filter({ hasText: exact(gizmo) }).waitFor();
    await page.locator('[data-testid="chart"][data-points="1"]').waitFor();
    await page.getByTestId('text-card').getByText('Gizmo').waitFor();
    await page.keyboard.press('Escape');
    await screenshot('dashboard-filtered');

    // linked filter: Vendor's values are those of Gizmo products only
    const linked = ok(await admin.get(`/api/dashboard/${dashboard.id}/params/vendp/values`, { query: { catp: 'Gizmo' } })).body.values.map((v: unknown[]) => String(v[0]));
    const all = ok(await admin.get(`/api/dashboard/${dashboard.id}/params/vendp/values`)).body.values.map((v: unknown[]) => String(v[0]));
    const outside = all.find((v: string) => !linked.includes(v));
    assert.ok(linked.length > 0 && outside, 'some vendors sell no gizmos');
    await page.getByTestId('parameter-vendor').click();
    await page.getByRole('option', { name: linked[0], exact: true }).waitFor();
    assert.equal(await page.getByRole('option', { name: outside, exact: true }).count(), 0, `${outside} sells no gizmo`);
    await page.keyboard.press('Escape');
  });

  test('?state=CA in the URL filters the People tab; tabs switch and live in the URL', async () => {
    const { page, url } = session();
    const everyone = (await apiRows(peopleCard))[0][0] as number;
    const ca = (await apiRows(peopleCard, [{ id: 'statep', type: 'string/=', value: ['CA'] }]))[0][0] as number;
    assert.ok(ca < everyone);
    const peopleTab = dashboard.tabs.find((t: any) => t.name === 'People');
    await page.goto(url(`/dashboard/${dashboard.id}?tab=${peopleTab.id}-people&state=CA`));
    await scalarOf('People count').filter({ hasText: exact(ca) }).waitFor();
    assert.equal(await page.getByTestId('dashcard-title').filter({ hasText: 'Product count' }).count(), 0, 'the other tab\'s cards are not shown');
    assert.equal(await page.getByTestId('parameter-state').inputValue(), '');
    await page.getByText('CA', { exact: true }).waitFor();

    await page.getByRole('tab', { name: 'Products' }).click();
    await page.waitForURL(/tab=\d+-products/);
    await scalarOf('Product count').waitFor();
    await page.getByRole('tab', { name: 'People' }).click();
    await scalarOf('People count').filter({ hasText: exact(ca) }).waitFor();
    await page.goto(url(`/dashboard/${dashboard.id}?tab=${peopleTab.id}`));
    await scalarOf('People count').filter({ hasText: exact(everyone) }).waitFor();
    // a dashcard with another card overlaid draws both series: one bar per category each
    const overlaid = page.getByTestId('dashcard').filter({ hasText: 'Count and price' }).getByTestId('chart');
    await overlaid.waitFor();
    assert.equal(await overlaid.getAttribute('data-points'), '8');
    await overlaid.getByText('Average price per category').first().waitFor();
    await session().screenshot('dashboard-people-tab');
  });

  test('with auto-apply off, a changed filter waits for Apply', async () => {
    const { page, url } = session();
    ok(await admin.put(`/api/dashboard/${dashboard.id}`, { auto_apply_filters: false }));
    const total = (await apiRows(countCard))[0][0] as number;
    const widget = (await apiRows(countCard, [{ id: 'catp', type: 'string/=', value: ['Widget'] }]))[0][0] as number;
    await page.goto(url(`/dashboard/${dashboard.id}`));
    await scalarOf('Product count').filter({ hasText: exact(total) }).waitFor();
    await page.getByTestId('parameter-category').fill('Widget');
    await page.getByTestId('parameter-category').press('Enter');
    await page.keyboard.press('Escape');
    assert.ok(!page.url().includes('category='), 'not applied yet');
    assert.equal(await scalarOf('Product count').textContent(), total.toLocaleString('en-US'));
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/category=Widget/);
    await scalarOf('Product count').filter({ hasText: exact(widget) }).waitFor();
    ok(await admin.put(`/api/dashboard/${dashboard.id}`, { auto_apply_filters: true }));
  });

  test('a card\'s title opens its question; with a filter set, the question carries it', async () => {
    const { page, url } = session();
    await page.goto(url(`/dashboard/${dashboard.id}`));
    await page.getByTestId('dashcard-title').filter({ hasText: 'Product count' }).click();
    await page.waitForURL(new RegExp(`/question/${countCard.id}-product_count$`));

    await page.goto(url(`/dashboard/${dashboard.id}?category=Doohickey`));
    await page.getByTestId('dashcard-title').filter({ hasText: 'Product count' }).click();
    await page.waitForURL(/\/question#/);
    const card = JSON.parse(Buffer.from(new URL(page.url()).hash.slice(1), 'base64').toString('utf8'));
    assert.equal(card.original_card_id, countCard.id);
    assert.deepEqual(card.dataset_query.parameters.map((p: any) => p.value), [['Doohickey']]);
    // the question it opens is the filtered one
    const doohickey = (await apiRows(countCard, [{ id: 'catp', type: 'string/=', value: ['Doohickey'] }]))[0][0];
    assert.equal(ok(await admin.post('/api/dataset', card.dataset_query)).body.data.rows[0][0], doohickey);
  });
});
