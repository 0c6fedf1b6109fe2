// The rendering interface the subscriptions use (src/notify/render): PNGs that decode at the asked width and are
// the same bytes every time, email HTML that shows the formatted values, fallbacks that never throw, and an event
// loop that keeps running while the worker pool draws a 25-card dashboard.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeRenderer, renderCardHtml, renderCardPng, type RenderableResult } from '../../src/notify/render/index.js';
import { pngSize } from './render-png.js';

const monthly: RenderableResult = {
  cols: [
    { name: 'CREATED_AT', display_name: 'Created At: Month', base_type: 'type/DateTime', unit: 'month', source: 'breakout' },
    { name: 'count', display_name: 'Count', base_type: 'type/BigInteger', source: 'aggregation' },
    { name: 'sum', display_name: 'Sum of Total', base_type: 'type/Float', source: 'aggregation' },
  ],
  rows: Array.from({ length: 12 }, (_, m) => [`2024-${String(m + 1).padStart(2, '0')}-01T00:00:00Z`, 100 + ((m * 37) % 90), 1234.5 * (m + 1)]),
};

const UTC = { timezone: 'UTC' };

after(() => closeRenderer());

describe('renderCardPng', () => {
  test('a table is drawn as a 1,200 px PNG by default, and at the width asked', async () => {
    const card = { name: 'Orders', display: 'table', visualization_settings: {} };
    const wide = pngSize(await renderCardPng(card, monthly, UTC));
    assert.equal(wide.width, 1200);
    assert.ok(wide.height > 100, `height ${wide.height}`);
    const narrow = pngSize(await renderCardPng(card, monthly, { ...UTC, width: 400 }));
    assert.equal(narrow.width, 400);
  });

  test('bar and line charts decode, and the same input gives the same bytes twice', async () => {
    for (const display of ['bar', 'line']) {
      const card = { name: 'Orders', display, visualization_settings: { 'graph.show_goal': true, 'graph.goal_value': 150 } };
      const first = await renderCardPng(card, monthly, UTC);
      const second = await renderCardPng(card, monthly, UTC);
      const size = pngSize(first);
      assert.equal(size.width, 1200, display);
      assert.ok(size.height >= 600, `${display} height ${size.height}`);
      assert.ok(first.equals(second), `${display}: identical PNGs`);
    }
  });

  test('a different setting draws a different picture', async () => {
    const plain = await renderCardPng({ name: 'Orders', display: 'bar', visualization_settings: {} }, monthly, UTC);
    const goal = await renderCardPng({ name: 'Orders', display: 'bar', visualization_settings: { 'graph.show_goal': true, 'graph.goal_value': 150 } }, monthly, UTC);
    assert.ok(!plain.equals(goal));
  });
});

describe('renderCardHtml', () => {
  test('a table is an HTML table with formatted values, inline styles, and the "Showing N of M rows." note', async () => {
    const card = { name: 'Orders', display: 'table', visualization_settings: { column_settings: { '["name","sum"]': { number_style: 'currency' } } } };
    const { html, images } = await renderCardHtml(card, monthly, { ...UTC, imageMode: 'cid', tableRowLimit: 5 });
    assert.deepEqual(images, []);
    assert.match(html, /^<table /);
    assert.match(html, />Sum of Total \(\$\)<\/th>/);
    assert.match(html, />January 2024<\/td>/);
    assert.match(html, />1,234.50<\/td>/);
    assert.match(html, /Showing <strong>5<\/strong> of <strong>12<\/strong> rows\./);
    assert.doesNotMatch(html, />June 2024</);
    assert.doesNotMatch(html, /<script|class=/i);
  });

  test('the table shows 20 rows unless told otherwise', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => [`row ${i + 1}`]);
    const { html } = await renderCardHtml(
      { name: 'Rows', display: 'table', visualization_settings: {} },
      { cols: [{ name: 'X', display_name: 'X', base_type: 'type/Text' }, { name: 'Y', display_name: 'Y', base_type: 'type/Text' }], rows: rows.map((r) => [...r, 'y']) },
      { ...UTC, imageMode: 'cid' },
    );
    assert.match(html, />row 20</);
    assert.doesNotMatch(html, />row 21</);
    assert.match(html, /Showing <strong>20<\/strong> of <strong>30<\/strong> rows\./);
  });

  test('values are escaped', async () => {
    const { html } = await renderCardHtml(
      { name: '<b>', display: 'table', visualization_settings: {} },
      { cols: [{ name: 'X', display_name: '<i>X</i>', base_type: 'type/Text' }], rows: [['<script>alert(1)</script>'], ['a & b']] },
      { ...UTC, imageMode: 'cid' },
    );
    assert.doesNotMatch(html, /<script>|<i>/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /a &amp; b/);
  });

  test('a chart is an <img> referencing its PNG by content id, or a data: URI', async () => {
    const card = { name: 'Orders by month', display: 'line', visualization_settings: {} };
    const cid = await renderCardHtml(card, monthly, { ...UTC, imageMode: 'cid' });
    assert.equal(cid.images.length, 1);
    assert.equal(pngSize(cid.images[0].png).width, 1200);
    assert.ok(cid.html.includes(`src="cid:${cid.images[0].cid}"`), cid.html);
    assert.match(cid.html, /style="display: block; width: 100%;"/);
    const inline = await renderCardHtml(card, monthly, { ...UTC, imageMode: 'data-uri' });
    assert.deepEqual(inline.images, []);
    const base64 = /src="data:image\/png;base64,([^"]+)"/.exec(inline.html)?.[1];
    assert.ok(base64, inline.html.slice(0, 200));
    assert.ok(Buffer.from(base64, 'base64').equals(cid.images[0].png));
  });
});

describe('fallbacks', () => {
  const opts = { ...UTC, imageMode: 'cid' as const };

  test('displays that are not drawn (maps, pivot, object detail, unknown) become tables', async () => {
    for (const display of ['pin_map', 'map', 'pivot', 'object', 'sankey-of-the-future']) {
      const { html, images } = await renderCardHtml({ name: 'X', display, visualization_settings: {} }, monthly, opts);
      assert.match(html, /^<table /, display);
      assert.equal(images.length, 0, display);
      pngSize(await renderCardPng({ name: 'X', display, visualization_settings: {} }, monthly, UTC));
    }
  });

  test('a chart it cannot draw (no number to plot) is a table', async () => {
    const text = { cols: [{ name: 'A', display_name: 'A', base_type: 'type/Text' }, { name: 'B', display_name: 'B', base_type: 'type/Text' }], rows: [['x', 'y']] };
    for (const display of ['line', 'bar', 'area', 'combo', 'row']) {
      const { html } = await renderCardHtml({ name: 'X', display, visualization_settings: {} }, text, opts);
      assert.match(html, /^<table /, display);
    }
  });

  test('no rows is "No results"', async () => {
    const { html } = await renderCardHtml({ name: 'X', display: 'bar', visualization_settings: {} }, { cols: monthly.cols, rows: [] }, opts);
    assert.match(html, />No results</);
    const nullOnly = await renderCardHtml({ name: 'X', display: 'scalar', visualization_settings: {} }, { cols: [monthly.cols[1]], rows: [[null]] }, opts);
    assert.match(nullOnly.html, />No results</);
    pngSize(await renderCardPng({ name: 'X', display: 'bar', visualization_settings: {} }, { cols: monthly.cols, rows: [] }, UTC));
  });

  test('a card as stored (settings as JSON text, extra fields that cannot cross threads) still renders with its settings', async () => {
    const stored = { id: 7, name: 'Stored', display: 'table', visualization_settings: JSON.stringify({ 'table.columns': [{ name: 'count', enabled: false }] }), onSave: () => 1 };
    const { html } = await renderCardHtml(stored as never, monthly, { ...opts, callback: () => 2 } as never);
    assert.match(html, /^<table /);
    assert.doesNotMatch(html, />Count</);
    assert.match(html, />Sum of Total</);
  });

  test('malformed input never throws', async () => {
    const odd: Array<[unknown, unknown]> = [
      [{ display: 'line', visualization_settings: { 'graph.dimensions': 'nope', 'graph.metrics': [42], series_settings: 7 } }, monthly],
      [{ display: null, visualization_settings: null }, monthly],
      [{ display: 'bar', visualization_settings: { 'graph.metrics': ['CREATED_AT'] } }, monthly],
      [{ display: 'table', visualization_settings: { 'table.columns': 'x', column_settings: [] } }, { cols: null, rows: null }],
      [{ display: 'bar', visualization_settings: {} }, { cols: monthly.cols, rows: [[1], 'not a row', [null, null, null]] }],
    ];
    for (const [card, result] of odd) {
      const { html } = await renderCardHtml({ name: 'Odd', ...(card as object) } as never, result as never, opts);
      assert.equal(typeof html, 'string');
      assert.ok(html.length > 0);
      pngSize(await renderCardPng({ name: 'Odd', ...(card as object) } as never, result as never, UTC));
    }
  });
});

describe('the worker pool', () => {
  test('the event loop keeps running while a 25-card dashboard renders', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      const cards = Array.from({ length: 25 }, (_, i) => ({ name: `Card ${i}`, display: ['bar', 'line', 'area', 'table', 'row'][i % 5], visualization_settings: {} }));
      const before = ticks;
      const rendered = await Promise.all(cards.map((card) => renderCardHtml(card, monthly, { ...UTC, imageMode: 'cid' })));
      assert.equal(rendered.length, 25);
      assert.equal(rendered.filter((r) => r.images.length === 1).length, 20);
      assert.ok(ticks - before >= 2, `the timer ran ${ticks - before} times during the render`);
    } finally {
      clearInterval(timer);
    }
  });

  test('the pool can be closed and starts again on the next render', async () => {
    await closeRenderer();
    pngSize(await renderCardPng({ name: 'Again', display: 'bar', visualization_settings: {} }, monthly, UTC));
  });
});
