// The results grid's view of a result (src/visualization/grid.ts): the table's columns, titles and formatting per
// cell, and sorting by raw values (numbers as numbers, nulls last, a stable order).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareValues, describeGrid, sortedRowOrder } from '../../src/visualization/grid.js';

const cols = [
  { name: 'ID', display_name: 'ID', base_type: 'type/Integer', semantic_type: 'type/PK' },
  { name: 'TOTAL', display_name: 'Total', base_type: 'type/Float' },
  { name: 'CREATED_AT', display_name: 'Created At', base_type: 'type/DateTime' },
  { name: 'NOTE', display_name: 'Note', base_type: 'type/Text', semantic_type: 'type/Description' },
];
const rows = [
  [1, 1234.5, '2024-03-05T10:00:00Z', 'x'],
  [2, null, '2024-01-01T00:00:00Z', 'y'],
  [3, 99, null, 'z'],
];

test('columns, titles and formatted cells follow the settings, as the table visualization does', () => {
  const grid = describeGrid(
    {
      display: 'table',
      cols,
      rows,
      settings: {
        column_settings: { '["name","TOTAL"]': { number_style: 'currency', currency: 'EUR', decimals: 0 }, '["name","CREATED_AT"]': { date_style: 'YYYY/M/D' } },
        'table.column_formatting': [{ columns: ['TOTAL'], type: 'single', operator: '>', value: 100, color: '#ff0000' }],
      },
    },
    { timezone: 'UTC', width: 0 },
  );
  assert.deepEqual(grid.columns.map((c) => [c.index, c.title, c.align]), [[0, 'ID', 'right'], [1, 'Total (€)', 'right'], [2, 'Created At', 'left']], 'the description column is hidden');
  assert.equal(grid.columns[1].format(1234.5), '1,235');
  assert.equal(grid.columns[0].format(1), '1');
  assert.match(grid.columns[2].format('2024-03-05T10:00:00Z'), /^2024\/3\/5/);
  assert.ok(grid.background(rows[0], 1), 'a total over 100 is coloured');
  assert.equal(grid.background(rows[2], 1), undefined);
});

test('sorting compares raw values: numbers by value, nulls last, ties keep their order', () => {
  assert.deepEqual(sortedRowOrder(rows, 1, 'asc'), [2, 0, 1]);
  assert.deepEqual(sortedRowOrder(rows, 1, 'desc'), [0, 2, 1]);
  assert.deepEqual(sortedRowOrder([['10'], ['9'], ['9']], 0, 'asc'), [1, 2, 0], 'numeric text as numbers, stable');
  assert.ok(compareValues('b', 'a') > 0);
});

test('a pivot result becomes a cross table with row, column and grand totals', async () => {
  const { pivotTable } = await import('../../src/visualization/pivot.js');
  const pcols = [{ name: 'CATEGORY' }, { name: 'YEAR' }, { name: 'pivot-grouping' }, { name: 'count' }];
  const prow = [
    ['A', 2023, 0, 1],
    ['A', 2024, 0, 2],
    ['B', 2024, 0, 5],
    ['A', null, 2, 3], // row total of A (YEAR left out: bit 1)
    ['B', null, 2, 5],
    [null, 2023, 1, 1], // column totals (CATEGORY left out: bit 0)
    [null, 2024, 1, 7],
    [null, null, 3, 8],
  ];
  const t = pivotTable(pcols, prow)!;
  assert.deepEqual(t.rowKeys, [['A'], ['B']]);
  assert.deepEqual(t.colKeys, [2023, 2024]);
  assert.deepEqual(t.cell(['A'], 2024), [2]);
  assert.equal(t.cell(['B'], 2023), undefined);
  assert.deepEqual(t.cell(['B'], undefined), [5]);
  assert.deepEqual(t.total(2024), [7]);
  assert.deepEqual(t.total(undefined), [8]);
  assert.equal(pivotTable([{ name: 'x' }], [[1]]), null, 'not a pivot result');
});
