// X-rays in a real browser: the ORDERS X-ray draws every card with data (the numbers equal what its card's query
// gives through POST /api/dataset), a filter in the URL narrows them as the API does, the related X-rays are links,
// other entities (a field) open the same way, and "Save this" makes it a dashboard that opens.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBrowser } from './browser.js';
import { setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';

const exact = (n: number) => new RegExp(`^${n.toLocaleString('en-US')}$`);
const DRAWN = '[data-testid="chart"], [data-testid="scalar-value"], [data-testid="result-table"]';
/** Page-side (runs in the browser): at least `n` dashcards have drawn their result. */
function drawnCards([n, selector]: [number, string]): boolean {
  const cards: any[] = [...(globalThis as any).document.querySelectorAll('[data-testid="dashcard"]')];
  return cards.filter((el) => el.querySelector(selector)).length >= n;
}

forEachBrowser('X-ray pages', (session) => {
  let admin: Client;
  let sample: Sample;
  let xray: any;

  const ok = <R extends { status: number; text: string }>(response: R): R => {
    assert.ok(response.status < 300, `${response.status} ${response.text}`);
    return response;
  };
  const cardNamed = (name: string) => xray.dashcards.find((dc: any) => dc.card?.name === name);

  before(async () => {
    admin = await setupAdmin(session().server);
    await session().signIn(admin.session!);
    sample = await installSample(admin);
    xray = ok(await admin.get(`/api/automagic-dashboards/table/${sample.table('ORDERS')}`)).body;
  });

  test('the ORDERS X-ray draws every card with the numbers its query gives', async () => {
    const { page, url, screenshot, pageErrors } = session();
    const total = cardNamed('Total Orders');
    assert.ok(total, 'the X-ray has a Total Orders card');
    const count = ok(await admin.post('/api/dataset', total.card.dataset_query)).body.data.rows[0][0] as number;
    await page.goto(url(`/auto/dashboard/table/${sample.table('ORDERS')}`));
    await page.getByRole('heading', { name: xray.name }).waitFor();
    const totalCard = page.locator(`[data-dashcard-id="${total.id}"]`);
    await totalCard.getByTestId('scalar-value').filter({ hasText: exact(count) }).waitFor();
    const queryCards = xray.dashcards.filter((dc: any) => dc.card);
    // every card ends up drawn: a chart, a number or a table (none failed)
    await page.waitForFunction(drawnCards, [queryCards.length, DRAWN] as [number, string], { timeout: 60_000 });
    assert.equal(await page.getByRole('alert').count(), 0, 'no card failed');
    for (const chart of await page.locator('[data-testid="chart"]').all()) assert.ok(Number(await chart.getAttribute('data-points')) > 0, 'each chart plots data points');
    const headings = xray.dashcards.filter((dc: any) => !dc.card);
    assert.ok(headings.length > 0);
    await page.getByTestId('text-card').first().getByRole('heading').first().waitFor();
    // the related X-rays are links to their pages
    const related = page.getByTestId('xray-related');
    const first = Object.values(xray.related as Record<string, Array<{ url: string; title: string }>>).flat()[0];
    assert.equal(await related.getByRole('link', { name: first.title }).first().getAttribute('href'), first.url);
    await screenshot('xray-orders');
    assert.deepEqual(pageErrors, []);
  });

  test('a date filter in the URL narrows the cards as the API does', async () => {
    const { page, url } = session();
    const date = xray.parameters.find((p: any) => p.type === 'date/all-options');
    const total = cardNamed('Total Orders');
    const mapping = total.parameter_mappings.find((m: any) => m.parameter_id === date.id);
    const value = '2024-01-01~2024-06-30';
    const filtered = ok(await admin.post('/api/dataset', { ...total.card.dataset_query, parameters: [{ id: date.id, type: date.type, target: mapping.target, value }] })).body.data.rows[0][0] as number;
    await page.goto(url(`/auto/dashboard/table/${sample.table('ORDERS')}?${date.slug}=${value}`));
    await page.locator(`[data-dashcard-id="${total.id}"]`).getByTestId('scalar-value').filter({ hasText: exact(filtered) }).waitFor();
    assert.equal(await page.getByTestId(`parameter-${date.slug}`).inputValue(), value);
  });

  test('a field X-ray opens through a related link; "Save this" makes a dashboard that opens', async () => {
    const { page, url } = session();
    const links = Object.values(xray.related as Record<string, Array<{ url: string; title: string }>>).flat();
    const fieldLink = links.find((l) => l.url.startsWith('/auto/dashboard/field/')) ?? links[0];
    const target = ok(await admin.get(fieldLink.url.replace('/auto/dashboard/', '/api/automagic-dashboards/'))).body;
    await page.goto(url(`/auto/dashboard/table/${sample.table('ORDERS')}`));
    await page.getByTestId('xray-related').getByRole('link', { name: fieldLink.title }).first().click();
    await page.waitForURL((u) => u.pathname === fieldLink.url);
    await page.getByRole('heading', { name: target.name }).waitFor();
    await page.locator(DRAWN).first().waitFor();

    await page.goto(url(`/auto/dashboard/table/${sample.table('PRODUCTS')}`));
    const products = ok(await admin.get(`/api/automagic-dashboards/table/${sample.table('PRODUCTS')}`)).body;
    await page.getByRole('heading', { name: products.name }).waitFor();
    await page.getByRole('button', { name: 'Save this' }).click();
    await page.waitForURL(/\/dashboard\/\d+/);
    const id = Number(/\/dashboard\/(\d+)/.exec(page.url())![1]);
    const saved = ok(await admin.get(`/api/dashboard/${id}`)).body;
    assert.equal(saved.name, products.name);
    await page.getByRole('heading', { name: products.name }).waitFor();
    const firstCard = saved.dashcards.find((dc: any) => dc.card_id);
    await page.locator(`[data-dashcard-id="${firstCard.id}"]`).locator(DRAWN).first().waitFor();
  });
});
