// Real cards on the Sample Database: queries run through the real pipeline (runQueryToMemory, as subscriptions
// run them), then drawn by every display. PNGs decode at 1,200 px and repeat byte for byte; the HTML shows the
// values the query returned, formatted as the app shows them.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runQueryToMemory } from '../../src/query/index.js';
import { closeRenderer, renderCardHtml, renderCardPng, type RenderableResult } from '../../src/notify/render/index.js';
import { startServer, setupAdmin, type TestServer } from '../helpers/server.js';
import { installSample, type Sample } from '../cards/sample.js';
import { pngSize } from './render-png.js';

// QUARRY_RENDER_SAVE_DIR=/some/dir keeps the pictures, to look at them.
function keep(name: string, png: Buffer): void {
  const dir = process.env.QUARRY_RENDER_SAVE_DIR;
  if (dir) writeFileSync(join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.png`), png);
}

describe('rendering Sample Database cards', () => {
  let server: TestServer;
  let sample: Sample;

  before(async () => {
    server = await startServer('sqlite');
    sample = await installSample(await setupAdmin(server));
  });
  after(async () => {
    await closeRenderer();
    await server?.close();
  });

  async function run(query: Record<string, unknown>): Promise<RenderableResult> {
    const result = await runQueryToMemory(server.ctx, {
      query: { database: sample.id, type: 'query', query },
      caller: null,
      skipPermissionCheck: true,
      context: 'pulse',
      constraints: null,
    });
    assert.equal(result.status, 'completed', JSON.stringify(result).slice(0, 500));
    return result.data;
  }

  const orders = () => sample.table('ORDERS');
  const createdAt = (unit: string) => ['field', sample.field('ORDERS', 'CREATED_AT'), { 'temporal-unit': unit }];
  const category = () => ['field', sample.field('PRODUCTS', 'CATEGORY'), { 'source-field': sample.field('ORDERS', 'PRODUCT_ID') }];
  const total = () => ['field', sample.field('ORDERS', 'TOTAL'), null];

  const CHARTS: Array<[string, string, Record<string, unknown>, () => Record<string, unknown>]> = [
    ['orders by month', 'line', { 'graph.show_goal': true, 'graph.goal_value': 400 }, () => ({ 'source-table': orders(), aggregation: [['count']], breakout: [createdAt('month')] })],
    ['orders by month and category', 'bar', { 'stackable.stack_type': 'stacked' }, () => ({ 'source-table': orders(), aggregation: [['count']], breakout: [createdAt('quarter'), category()] })],
    ['share by category', 'area', { 'stackable.stack_type': 'normalized' }, () => ({ 'source-table': orders(), aggregation: [['count']], breakout: [createdAt('year'), category()] })],
    ['count and revenue', 'combo', { series_settings: { sum: { axis: 'right' } } }, () => ({ 'source-table': orders(), aggregation: [['count'], ['sum', total()]], breakout: [createdAt('year')] })],
    ['revenue by category', 'row', { 'graph.show_values': true }, () => ({ 'source-table': orders(), aggregation: [['sum', total()]], breakout: [category()] })],
    ['revenue share', 'pie', {}, () => ({ 'source-table': orders(), aggregation: [['sum', total()]], breakout: [category()] })],
    ['orders funnel', 'funnel', {}, () => ({ 'source-table': orders(), aggregation: [['count']], breakout: [category()] })],
    ['orders gauge', 'gauge', {}, () => ({ 'source-table': orders(), aggregation: [['count']] })],
    ['orders progress', 'progress', { 'progress.goal': 20000 }, () => ({ 'source-table': orders(), aggregation: [['count']] })],
  ];

  for (const [name, display, settings, query] of CHARTS) {
    test(`${display}: ${name}`, async () => {
      const result = await run(query());
      const card = { name, display, visualization_settings: settings };
      const png = await renderCardPng(card, result, { timezone: 'UTC' });
      keep(`${display}-${name}`, png);
      const size = pngSize(png);
      assert.equal(size.width, 1200);
      assert.ok(size.height >= 250, `${display} height ${size.height}`);
      assert.ok((await renderCardPng(card, result, { timezone: 'UTC' })).equals(png), 'the same bytes twice');
      const { html, images } = await renderCardHtml(card, result, { timezone: 'UTC', imageMode: 'cid' });
      assert.equal(images.length, 1);
      assert.ok(images[0].png.equals(png));
      assert.ok(html.includes(`cid:${images[0].cid}`));
    });
  }

  test('scalar: the count, formatted', async () => {
    const result = await run({ 'source-table': orders(), aggregation: [['count']] });
    const count = result.rows[0][0] as number;
    const { html, images } = await renderCardHtml({ name: 'Orders', display: 'scalar', visualization_settings: {} }, result, { timezone: 'UTC', imageMode: 'cid' });
    assert.deepEqual(images, []);
    assert.ok(html.includes(`>${count.toLocaleString('en-US')}<`), html);
    const png = await renderCardPng({ name: 'Orders', display: 'scalar', visualization_settings: {} }, result, { timezone: 'UTC', width: 400 });
    keep('scalar-orders', png);
    assert.equal(pngSize(png).width, 400);
  });

  test('smart scalar: the last month against the one before', async () => {
    const result = await run({ 'source-table': orders(), aggregation: [['count']], breakout: [createdAt('month')] });
    const [previous, last] = result.rows.slice(-2).map((r) => r[1] as number);
    const change = Math.abs((last - previous) / previous);
    const { html } = await renderCardHtml({ name: 'Trend', display: 'smartscalar', visualization_settings: {} }, result, { timezone: 'UTC', imageMode: 'cid' });
    assert.ok(html.includes(`>${last.toLocaleString('en-US')}<`), html);
    const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 2 }).format(change);
    assert.ok(html.includes(`${last > previous ? '↑' : '↓'} ${percent}`), html);
    assert.ok(html.includes(`vs. previous month: ${previous.toLocaleString('en-US')}`), html);
  });

  test('table: raw orders with formatted dates and numbers, cut at 20 rows', async () => {
    const result = await run({ 'source-table': orders(), 'order-by': [['asc', ['field', sample.field('ORDERS', 'ID'), null]]], limit: 30 });
    const settings = { column_settings: { [JSON.stringify(['name', 'TOTAL'])]: { number_style: 'currency', currency: 'USD' } } };
    const { html } = await renderCardHtml({ name: 'Orders', display: 'table', visualization_settings: settings }, result, { timezone: 'UTC', imageMode: 'cid' });
    assert.match(html, /Showing <strong>20<\/strong> of <strong>30<\/strong> rows\./);
    assert.match(html, />Total \(\$\)<\/th>/);
    const names = result.cols.map((c) => c.name);
    const first = result.rows[0];
    const totalText = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(first[names.indexOf('TOTAL')] as number);
    assert.ok(html.includes(`>${totalText}</td>`), totalText);
    const created = new Date(first[names.indexOf('CREATED_AT')] as string);
    const month = created.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
    assert.ok(html.includes(`>${month} ${created.getUTCDate()}, ${created.getUTCFullYear()}, `), `${month} ${created.getUTCDate()}`);
    const png = await renderCardPng({ name: 'Orders', display: 'table', visualization_settings: settings }, result, { timezone: 'UTC' });
    keep('table-orders', png);
    assert.equal(pngSize(png).width, 1200);
  });
});
