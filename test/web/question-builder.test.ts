// The question page in a real browser, as a person uses it: sign in, open the sample ORDERS table from Browse, build
// "count of orders by month" with the builder (drawn as a line: the first month's point is the API's count), save it
// into a collection, reopen it by its URL; switch its display (bar, table, pivot table with the API's total).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBrowser } from './browser.js';
import { ADMIN, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import type { Page } from 'playwright-core';

/** The data of the drawn chart's first series, read from the ECharts instance. */
export async function firstSeriesData(page: Page): Promise<unknown[]> {
  return page.getByTestId('chart').evaluate((el) => {
    const option = (el as unknown as { echartsOption(): { series: Array<{ data: unknown[] }> } }).echartsOption();
    return option.series[0].data;
  });
}

/** The y value of one point as ECharts holds it ([x, y], {value: [x, y]} or y). */
export function yOf(point: unknown): number {
  const v = point && typeof point === 'object' && !Array.isArray(point) ? (point as { value: unknown }).value : point;
  return Number(Array.isArray(v) ? v[v.length - 1] : v);
}

export async function pick(page: Page, label: string, option: string | RegExp, nth = 0): Promise<void> {
  await page.getByRole('textbox', { name: label }).nth(nth).click();
  await page.getByRole('option', { name: option }).first().click();
}

forEachBrowser('the question page: builder, save, reopen, displays', (session) => {
  let admin: Client;
  let sample: Sample;
  let collectionId: number;
  let savedId: number;
  let byMonth: Array<[string, number]>;

  const ok = <R extends { status: number; text: string }>(response: R): R => {
    assert.ok(response.status < 300, `${response.status} ${response.text}`);
    return response;
  };

  before(async () => {
    admin = await setupAdmin(session().server);
    sample = await installSample(admin);
    collectionId = ok(await admin.post('/api/collection', { name: 'Sales reports', parent_id: null })).body.id;
    const result = ok(await admin.post('/api/dataset', {
      database: sample.id,
      type: 'query',
      query: { 'source-table': sample.table('ORDERS'), aggregation: [['count']], breakout: [['field', sample.field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }]] },
    })).body;
    byMonth = result.data.rows;
    assert.ok(byMonth.length > 12);
  });

  test('sign in, open ORDERS from Browse, summarize count by month: a line whose first point is the API count', async () => {
    const { page, url, screenshot, pageErrors } = session();
    await page.goto(url('/auth/login'));
    await page.getByLabel('Email address').fill(ADMIN.email);
    await page.getByLabel(/^Password/).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(url('/'));

    await page.goto(url('/browse/databases'));
    await page.getByText('Sample Database').first().click();
    await page.getByTestId('table-card').filter({ hasText: /^Orders/ }).click();
    await page.waitForURL(/\/question#/);
    const grid = page.getByTestId('results-grid');
    await grid.waitFor();
    assert.equal(await page.getByTestId('row-count').textContent(), 'Showing first 2,000 rows', 'an ad-hoc question shows its first 2,000 rows');
    await screenshot('question-orders-table');

    await page.getByRole('button', { name: 'Add a metric' }).click();
    await page.getByRole('button', { name: 'Add a grouping' }).click();
    assert.equal(await page.getByRole('textbox', { name: 'Group by' }).inputValue(), 'Created At');
    assert.equal(await page.getByRole('textbox', { name: 'Time unit' }).inputValue(), 'Month');
    await page.getByRole('button', { name: 'Visualize' }).click();
    const chart = page.getByTestId('chart');
    await chart.waitFor();
    assert.equal(await chart.getAttribute('data-display'), 'line');
    const data = await firstSeriesData(page);
    assert.equal(data.length >= byMonth.length, true, 'every month is drawn');
    assert.equal(yOf(data[0]), byMonth[0][1], "the first month's point is the API's count");
    assert.equal(data.map(yOf).reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0), byMonth.reduce((a, r) => a + r[1], 0));
    // The URL now carries the built question: opening it again shows the same.
    const hash = new URL(page.url()).hash;
    const shared = JSON.parse(Buffer.from(decodeURIComponent(hash.slice(1)), 'base64').toString('utf8'));
    assert.deepEqual(shared.dataset_query.query.breakout, [['field', sample.field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }]]);
    assert.equal(shared.display, 'line');
    await screenshot('question-builder-line');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByLabel('Name').fill('Orders by month');
    await pick(page, 'Which collection should this go in?', 'Sales reports');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/question\/\d+-orders_by_month$/);
    savedId = Number(/\/question\/(\d+)/.exec(page.url())![1]);
    const card = ok(await admin.get(`/api/card/${savedId}`)).body;
    assert.equal(card.collection_id, collectionId);
    assert.equal(card.display, 'line');
    assert.deepEqual(card.dataset_query.query.aggregation, [['count']]);
    assert.deepEqual(pageErrors, []);
  });

  test('the saved question reopens by its URL and switches display: bar, table, pivot table', async () => {
    const { page, url, screenshot } = session();
    await page.goto(url(`/question/${savedId}`));
    await page.getByTestId('question-title').filter({ hasText: 'Orders by month' }).waitFor();
    await page.getByTestId('chart').waitFor();
    assert.equal(yOf((await firstSeriesData(page))[0]), byMonth[0][1]);
    await screenshot('question-saved-line');

    await pick(page, 'Visualization', 'Bar');
    await page.locator('[data-testid=chart][data-display=bar]').waitFor();
    assert.equal(yOf((await firstSeriesData(page))[0]), byMonth[0][1]);

    await pick(page, 'Visualization', 'Table');
    await page.getByTestId('results-grid').waitFor();
    assert.equal(await page.getByTestId('row-count').textContent(), `Showing ${byMonth.length} rows`);

    await pick(page, 'Visualization', 'Pivot table');
    const pivot = page.getByTestId('pivot-table');
    await pivot.waitFor();
    const total = byMonth.reduce((a, r) => a + r[1], 0);
    const lastRow = pivot.locator('tbody tr').last();
    assert.equal(await lastRow.locator('td').first().textContent(), 'Grand totals');
    assert.equal(await lastRow.locator('td').last().textContent(), total.toLocaleString('en-US'));
    await screenshot('question-pivot');
    // The new display is kept for everyone once saved.
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('button', { name: 'Save changes' }).waitFor({ state: 'detached' });
    assert.equal(ok(await admin.get(`/api/card/${savedId}`)).body.display, 'pivot');
  });

  test('a running question can be cancelled, and run again', async () => {
    const { page, url } = session();
    // The answer is held back, so the question is still running when Cancel is clicked.
    let held = 0;
    await page.route('**/api/dataset', () => {
      held++;
    });
    const table = { database: sample.id, type: 'query', query: { 'source-table': sample.table('PRODUCTS') } };
    await page.goto(url(`/question#${Buffer.from(JSON.stringify({ dataset_query: table, display: 'table', visualization_settings: {} })).toString('base64')}`));
    await page.getByText('Running…').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alert').filter({ hasText: 'The query was cancelled.' }).waitFor();
    assert.equal(held, 1);
    assert.equal(await page.getByText('Running…').count(), 0);
    await page.unroute('**/api/dataset');
    await page.getByRole('button', { name: 'Visualize' }).click();
    await page.getByTestId('results-grid').waitFor();
    assert.equal(await page.getByTestId('row-count').textContent(), 'Showing 200 rows');
  });

  test("a filter picks from the column's values and the rows are the API's", async () => {
    const { page, screenshot } = session();
    const category = sample.field('PRODUCTS', 'CATEGORY');
    const expected = ok(await admin.post('/api/dataset', {
      database: sample.id,
      type: 'query',
      query: { 'source-table': sample.table('PRODUCTS'), filter: ['=', ['field', category, null], 'Gizmo', 'Widget'] },
    })).body.data.rows.length;
    await page.getByRole('button', { name: 'Add a filter' }).click();
    await pick(page, 'Filter column', 'Category');
    await page.getByRole('textbox', { name: 'Values' }).click();
    await page.getByRole('option', { name: 'Gizmo' }).click();
    await page.getByRole('option', { name: 'Widget' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Visualize' }).click();
    await page.getByTestId('row-count').filter({ hasText: `Showing ${expected} rows` }).waitFor();
    const hash = new URL(page.url()).hash;
    const shared = JSON.parse(Buffer.from(decodeURIComponent(hash.slice(1)), 'base64').toString('utf8'));
    assert.deepEqual(shared.dataset_query.query.filter, ['=', ['field', category, null], 'Gizmo', 'Widget']);
    await screenshot('question-builder-filter');
  });
});
