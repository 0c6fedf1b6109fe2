// The builder's MBQL (web/src/components/builder/mbql.ts): what a person picks becomes the query the server runs,
// and a query the builder wrote reads back to the same picks; richer queries are left alone (null).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EMPTY_STATE, fromMbql, toMbql, type BuilderState } from '../../web/src/components/builder/mbql.js';

const state = (patch: Partial<BuilderState>): BuilderState => ({ ...EMPTY_STATE, databaseId: 1, tableId: 2, ...patch });

test('count by month, filtered, sorted by the count, limited', () => {
  const s = state({
    filters: [
      { fieldId: 5, op: '=', values: ['Widget', 'Gadget'] },
      { fieldId: 6, op: 'past', values: [3, 'month'] },
      { fieldId: 7, op: 'between', values: [10, 20] },
      { fieldId: 8, op: 'contains', values: ['abc'] },
      { fieldId: 9, op: 'not-null', values: [] },
    ],
    aggregations: [{ op: 'count' }, { op: 'sum', fieldId: 7 }],
    breakouts: [{ fieldId: 6, unit: 'month' }, { fieldId: 7, binning: 10 }],
    sort: [{ target: { kind: 'aggregation', index: 0 }, direction: 'desc' }, { target: { kind: 'breakout', index: 0 }, direction: 'asc' }],
    limit: 12,
  });
  const mbql = toMbql(s)!;
  assert.deepEqual(mbql, {
    database: 1,
    type: 'query',
    query: {
      'source-table': 2,
      filter: [
        'and',
        ['=', ['field', 5, null], 'Widget', 'Gadget'],
        ['time-interval', ['field', 6, null], -3, 'month'],
        ['between', ['field', 7, null], 10, 20],
        ['contains', ['field', 8, null], 'abc', { 'case-sensitive': false }],
        ['not-null', ['field', 9, null]],
      ],
      aggregation: [['count'], ['sum', ['field', 7, null]]],
      breakout: [['field', 6, { 'temporal-unit': 'month' }], ['field', 7, { binning: { strategy: 'num-bins', 'num-bins': 10 } }]],
      'order-by': [['desc', ['aggregation', 0]], ['asc', ['field', 6, { 'temporal-unit': 'month' }]]],
      limit: 12,
    },
  });
  assert.deepEqual(fromMbql(mbql), s, 'reads back to the same picks');
});

test('unfinished picks are left out; sorting by a column applies only to raw rows', () => {
  const mbql = toMbql(state({ filters: [{ fieldId: 5, op: '=', values: [] }], aggregations: [{ op: 'avg' }], sort: [{ target: { kind: 'field', fieldId: 3 }, direction: 'asc' }] }))!;
  assert.deepEqual(mbql.query, { 'source-table': 2, 'order-by': [['asc', ['field', 3, null]]] });
  const summarized = toMbql(state({ aggregations: [{ op: 'count' }], sort: [{ target: { kind: 'field', fieldId: 3 }, direction: 'asc' }] }))!;
  assert.deepEqual(summarized.query, { 'source-table': 2, aggregation: [['count']] });
  assert.equal(toMbql({ ...EMPTY_STATE, databaseId: 1 }), null, 'no table, no query');
});

test('a bare table opens in the builder; joins, expressions and nested queries do not', () => {
  assert.deepEqual(fromMbql({ database: 1, type: 'query', query: { 'source-table': 2 } }), state({}));
  assert.deepEqual(fromMbql({ database: 1, type: 'query', query: {} }), { ...EMPTY_STATE, databaseId: 1 });
  assert.equal(fromMbql({ database: 1, type: 'query', query: { 'source-table': 2, joins: [] } }), null);
  assert.equal(fromMbql({ database: 1, type: 'query', query: { 'source-table': 2, expressions: { x: ['+', 1, 1] } } }), null);
  assert.equal(fromMbql({ database: 1, type: 'query', query: { 'source-table': 'card__4' } }), null);
  assert.equal(fromMbql({ database: 1, type: 'query', query: { 'source-table': 2, aggregation: [['share', ['=', ['field', 1, null], 1]]] } }), null);
  assert.equal(fromMbql({ database: 1, type: 'native', native: { query: 'select 1' } }), null);
});

test("a query's `fields` are kept as they came while rows are raw, and dropped once summarized", () => {
  const fields = [['field', 3, null], ['field', 4, null]];
  const read = fromMbql({ database: 1, type: 'query', query: { 'source-table': 2, fields, limit: 5 } })!;
  assert.deepEqual(toMbql(read)!.query, { 'source-table': 2, fields, limit: 5 });
  assert.deepEqual(toMbql({ ...read, aggregations: [{ op: 'count' }] })!.query, { 'source-table': 2, aggregation: [['count']], limit: 5 });
});
