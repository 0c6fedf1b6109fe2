// Which picture a card gets (Metabase's static-viz choice) and the table every card can fall back to.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeVisualization, type TableVisualization, type VisualizationInput } from '../../src/visualization/index.js';

const OPTIONS = { timezone: 'UTC', width: 600 };

const cols = [
  { name: 'CATEGORY', display_name: 'Category', base_type: 'type/Text', source: 'breakout' },
  { name: 'count', display_name: 'Count', base_type: 'type/BigInteger', source: 'aggregation' },
  { name: 'sum', display_name: 'Sum of Total', base_type: 'type/Float', source: 'aggregation' },
];
const rows = [
  ['Widget', 10, 1500.5],
  ['Gadget', 7, 980],
];

function describe(display: string, settings: Record<string, unknown> = {}, input: Partial<VisualizationInput> = {}, options = {}) {
  return describeVisualization({ display, settings, cols, rows, ...input }, { ...OPTIONS, ...options });
}

test('no rows, or a single null, is "No results"', () => {
  assert.deepEqual(describe('bar', {}, { rows: [] }), { kind: 'empty', message: 'No results' });
  assert.equal(describe('scalar', {}, { cols: [cols[1]], rows: [[null]] }).kind, 'empty');
});

test('one column and one row is a scalar, except for progress and gauge', () => {
  const single = { cols: [cols[1]], rows: [[1234]] };
  for (const display of ['bar', 'line', 'table', 'pie', 'smartscalar']) assert.equal(describe(display, {}, single).kind, 'scalar', display);
  for (const display of ['progress', 'gauge']) {
    const viz = describe(display, {}, single);
    assert.equal(viz.kind, 'chart', display);
    assert.equal(viz.kind === 'chart' && viz.display, display);
  }
});

test('every display named in the task is drawn by its own builder', () => {
  const expected: Record<string, string> = { line: 'chart', area: 'chart', bar: 'chart', combo: 'chart', row: 'chart', pie: 'chart', funnel: 'chart', waterfall: 'chart', table: 'table' };
  for (const [display, kind] of Object.entries(expected)) assert.equal(describe(display).kind, kind, display);
});

test('unknown and undrawable displays become tables, never errors', () => {
  for (const display of ['pin_map', 'state', 'country', 'map', 'pivot', 'object', 'scatter-3d', '']) assert.equal(describe(display).kind, 'table', display);
  const textOnly = { cols: [cols[0], { name: 'B', display_name: 'B', base_type: 'type/Text' }], rows: [['a', 'b']] };
  for (const display of ['line', 'bar', 'area', 'combo', 'row', 'pie', 'funnel', 'progress', 'gauge', 'smartscalar']) {
    assert.equal(describe(display, {}, textOnly).kind, 'table', display);
  }
  assert.equal(describe('line', { 'graph.metrics': ['CATEGORY'] }).kind, 'table');
  assert.equal(describe('pie', {}, { rows: [['Widget', -1, 0]] }).kind, 'table');
});

function table(settings: Record<string, unknown> = {}, input: Partial<VisualizationInput> = {}, options = {}): TableVisualization {
  const viz = describe('table', settings, input, options);
  assert.equal(viz.kind, 'table');
  return viz as TableVisualization;
}

test('table: formatted values, numbers right-aligned, currency in the header', () => {
  const t = table({ column_settings: { '["name","sum"]': { number_style: 'currency', currency: 'EUR' } } });
  assert.deepEqual(t.columns, [
    { title: 'Category', align: 'left' },
    { title: 'Count', align: 'right' },
    { title: 'Sum of Total (€)', align: 'right' },
  ]);
  assert.deepEqual(t.rows[0].map((c) => c.text), ['Widget', '10', '1,500.50']);
  assert.equal(t.totalRows, 2);
});

test('table: column order and visibility follow table.columns; titles follow column_title', () => {
  const t = table({
    'table.columns': [
      { name: 'sum', enabled: true },
      { name: 'CATEGORY', enabled: true },
      { name: 'count', enabled: false },
    ],
    column_settings: { '["name","sum"]': { column_title: 'Revenue' } },
  });
  assert.deepEqual(t.columns.map((c) => c.title), ['Revenue', 'Category']);
  assert.deepEqual(t.rows[1].map((c) => c.text), ['980', 'Gadget']);
});

test('table: description and sensitive columns are never shown', () => {
  const t = table({}, {
    cols: [...cols, { name: 'NOTES', display_name: 'Notes', base_type: 'type/Text', semantic_type: 'type/Description' }, { name: 'SSN', display_name: 'SSN', base_type: 'type/Text', visibility_type: 'sensitive' }],
    rows: rows.map((r) => [...r, 'long text', '123']),
  });
  assert.deepEqual(t.columns.map((c) => c.title), ['Category', 'Count', 'Sum of Total']);
});

test('table: rows are cut at the limit (20 by default, never more than 100)', () => {
  const many = Array.from({ length: 250 }, (_, i) => [`c${i}`, i, i]);
  assert.equal(table({}, { rows: many }).rows.length, 20);
  assert.equal(table({}, { rows: many }, { tableRowLimit: 7 }).rows.length, 7);
  const capped = table({}, { rows: many }, { tableRowLimit: 500 });
  assert.equal(capped.rows.length, 100);
  assert.equal(capped.totalRows, 250);
});

test('table: conditional formatting colours cells and rows', () => {
  const t = table({
    'table.column_formatting': [
      { columns: ['count'], type: 'single', operator: '>', value: 8, color: '#ED6E6E', highlight_row: false },
      { columns: ['sum'], type: 'range', colors: ['#FFFFFF', '#509EE3'], min_type: null, max_type: null },
      { columns: ['CATEGORY'], type: 'single', operator: 'starts-with', value: 'Gad', color: '#88BF4D', highlight_row: true },
    ],
  });
  assert.ok(t.rows[0][1].background, 'count > 8 coloured');
  assert.equal(t.rows[1][1].background, t.rows[1][0].background, 'highlighted row');
  assert.ok(t.rows[1][0].background);
  assert.equal(t.rows[1][2].background, '#FFFFFF', 'range minimum is the first colour');
  assert.notEqual(t.rows[0][2].background, '#FFFFFF');
  assert.equal(t.rows[0][0].background, undefined);
});

test('global formatting (custom-formatting) applies unless the column says otherwise', () => {
  const formatting = { 'type/Number': { number_separators: ',.' }, 'type/Temporal': { date_style: 'D/M/YYYY' } };
  const input = {
    cols: [{ name: 'D', display_name: 'D', base_type: 'type/Date' }, { name: 'N', display_name: 'N', base_type: 'type/Float' }],
    rows: [['2024-03-05T00:00:00Z', 1234.5]],
  };
  const t = table({}, input, { formatting });
  assert.deepEqual(t.rows[0].map((c) => c.text), ['5/3/2024', '1.234,5']);
  const own = table({ column_settings: { '["name","N"]': { number_separators: '.,' } } }, input, { formatting });
  assert.equal(own.rows[0][1].text, '1,234.5');
});

test('field settings on the column apply too', () => {
  const t = table({}, { cols: [{ name: 'P', display_name: 'Price', base_type: 'type/Float', settings: { number_style: 'currency', currency_in_header: false } }], rows: [[3], [4]] });
  assert.equal(t.rows[0][0].text, '$3.00');
});
