// The MBQL half of the cross-engine matrix: each case builds a query for one engine's copy of the sample data.
// Cases with `expect` also check exact values computed here, in JS, from the generated rows — independently of
// any SQL. `unsupported` lists engines that must refuse the query with error_type "unsupported-feature".

import { DateTime } from 'luxon';
import { generateSample, type SampleRows } from '../../../src/sample/generate.js';
import type { Engine, Warehouse } from './warehouses.js';

export interface Case {
  name: string;
  build: (w: Warehouse) => Record<string, unknown>;
  expect?: (rows: unknown[][], s: SampleRows) => unknown[][] | void;
  unsupported?: Engine[];
  /** Compare rows as a multiset (the query doesn't fix the order). */
  unordered?: boolean;
}

// Column indexes in the generated rows (schema.ts order).
export const O = { ID: 0, USER_ID: 1, PRODUCT_ID: 2, SUBTOTAL: 3, TAX: 4, TOTAL: 5, DISCOUNT: 6, CREATED_AT: 7, QUANTITY: 8 };
export const P = { ID: 0, EAN: 1, TITLE: 2, CATEGORY: 3, VENDOR: 4, PRICE: 5, RATING: 6, CREATED_AT: 7 };
export const PE = { ID: 0, ADDRESS: 1, EMAIL: 2, PASSWORD: 3, NAME: 4, CITY: 5, LONGITUDE: 6, STATE: 7, SOURCE: 8, BIRTH_DATE: 9, ZIP: 10, LATITUDE: 11, CREATED_AT: 12 };
export const A = { ID: 0, EMAIL: 1, FIRST_NAME: 2, LAST_NAME: 3, PLAN: 4, SOURCE: 5, SEATS: 6, CREATED_AT: 7, TRIAL_ENDS_AT: 8, CANCELED_AT: 9, TRIAL_CONVERTED: 10, ACTIVE_SUBSCRIPTION: 11 };

export const sample = (): SampleRows => generateSample();

const year = (ms: unknown) => new Date(ms as number).getUTCFullYear();
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Group rows by key, aggregate each group, sorted by key. */
function groupBy<T>(rows: unknown[][], key: (r: unknown[]) => T, agg: (g: unknown[][]) => unknown[]): unknown[][] {
  const groups = new Map<T, unknown[][]>();
  for (const r of rows) {
    const k = key(r);
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => compareKeys(a, b))
    .map(([k, g]) => [k, ...agg(g)]);
}

function compareKeys(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return (a as number) < (b as number) ? -1 : 1;
}

/** Rows grouped by several keys (sorted by them in turn, nulls first), each group aggregated: [k1, …, kn, …agg]. */
function groupByKeys(rows: unknown[][], keys: Array<(r: unknown[]) => unknown>, agg: (g: unknown[][]) => unknown[]): unknown[][] {
  const groups = new Map<string, { k: unknown[]; g: unknown[][] }>();
  for (const r of rows) {
    const k = keys.map((f) => f(r));
    const id = JSON.stringify(k);
    const e = groups.get(id);
    if (e) e.g.push(r);
    else groups.set(id, { k, g: [r] });
  }
  return [...groups.values()].sort((a, b) => compareRows(a.k, b.k, a.k.map(() => 'asc'))).map(({ k, g }) => [...k, ...agg(g)]);
}

function compareRows(a: unknown[], b: unknown[], dirs: Array<'asc' | 'desc'>, columns?: number[]): number {
  const cols = columns ?? dirs.map((_, i) => i);
  for (let i = 0; i < cols.length; i++) {
    const c = compareKeys(a[cols[i]], b[cols[i]]);
    if (c !== 0) return dirs[i] === 'asc' ? c : -c;
  }
  return 0;
}

/**
 * Running totals of column `value` of grouped rows: one total per combination of the `partition` columns, added up
 * in the order `order` gives (column indexes with directions) — what a cumulative aggregation means.
 */
function runningTotals(rows: unknown[][], value: number, partition: number[], order: Array<[number, 'asc' | 'desc']>): unknown[][] {
  const sorted = [...rows].sort((a, b) => compareRows(a, b, order.map(([, d]) => d), order.map(([c]) => c)));
  const totals = new Map<string, number>();
  const out = new Map<unknown[], number>();
  for (const r of sorted) {
    const key = JSON.stringify(partition.map((i) => r[i]));
    const t = (totals.get(key) ?? 0) + (r[value] as number);
    totals.set(key, t);
    out.set(r, t);
  }
  return rows.map((r) => r.map((v, i) => (i === value ? out.get(r) : v)));
}

const sortedBy = (rows: unknown[][], order: Array<[number, 'asc' | 'desc']>) => [...rows].sort((a, b) => compareRows(a, b, order.map(([, d]) => d), order.map(([c]) => c)));
const yearStart = (y: unknown) => `${y as number}-01-01T00:00:00Z`;
const quarterOf = (ms: unknown) => Math.floor(new Date(ms as number).getUTCMonth() / 3);

/** Epoch ms of the start of the (UTC) `unit` holding `ms`. */
const startOf = (ms: unknown, unit: 'day' | 'month' | 'year') => DateTime.fromMillis(ms as number, { zone: 'UTC' }).startOf(unit).toMillis();
/** `["relative-datetime", n, unit]` as Metabase means it: the start of the unit n units from now (UTC). */
const relativeStart = (n: number, unit: 'hour' | 'day' | 'month' | 'year') => DateTime.utc().plus({ [unit + 's']: n }).startOf(unit).toMillis();

const sum = (g: unknown[][], i: number) => g.reduce((acc, r) => acc + ((r[i] as number) ?? 0), 0);

/** PERCENTILE_CONT: linear interpolation between the two closest ranks. */
function percentileCont(values: number[], p: number): number {
  const xs = [...values].sort((a, b) => a - b);
  const rank = p * (xs.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return xs[lo] + (xs[hi] - xs[lo]) * (rank - lo);
}

const TEMPORAL_UNITS = ['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year', 'minute-of-hour', 'hour-of-day', 'day-of-week', 'day-of-month', 'day-of-year', 'week-of-year', 'month-of-year', 'quarter-of-year'];
const DATE_UNITS = ['day', 'week', 'month', 'quarter', 'year', 'day-of-week', 'day-of-month', 'day-of-year', 'week-of-year', 'month-of-year', 'quarter-of-year'];

function orders(w: Warehouse, query: Record<string, unknown>) {
  return w.mbql({ 'source-table': w.t('ORDERS'), ...query });
}
function products(w: Warehouse, query: Record<string, unknown>) {
  return w.mbql({ 'source-table': w.t('PRODUCTS'), ...query });
}
function people(w: Warehouse, query: Record<string, unknown>) {
  return w.mbql({ 'source-table': w.t('PEOPLE'), ...query });
}
function accounts(w: Warehouse, query: Record<string, unknown>) {
  return w.mbql({ 'source-table': w.t('ACCOUNTS'), ...query });
}
const count = [['count']];
/** A count of ORDERS under `filter`. */
const countOrders = (filter: (w: Warehouse) => unknown) => (w: Warehouse) => orders(w, { aggregation: count, filter: filter(w) });
const countProducts = (filter: (w: Warehouse) => unknown) => (w: Warehouse) => products(w, { aggregation: count, filter: filter(w) });
const countPeople = (filter: (w: Warehouse) => unknown) => (w: Warehouse) => people(w, { aggregation: count, filter: filter(w) });
const countAccounts = (filter: (w: Warehouse) => unknown) => (w: Warehouse) => accounts(w, { aggregation: count, filter: filter(w) });
const scalar = (v: unknown) => [[v]];

export const MBQL_CASES: Case[] = [
  // ----- aggregations -----------------------------------------------------------------------------------------
  { name: 'count of orders', build: (w) => orders(w, { aggregation: count }), expect: (_r, s) => scalar(s.ORDERS.length) },
  { name: 'count of a field skips nulls', build: (w) => orders(w, { aggregation: [['count', w.f('ORDERS', 'DISCOUNT')]] }), expect: (_r, s) => scalar(s.ORDERS.filter((r) => r[O.DISCOUNT] !== null).length) },
  { name: 'sum of total', build: (w) => orders(w, { aggregation: [['sum', w.f('ORDERS', 'TOTAL')]] }), expect: (_r, s) => scalar(sum(s.ORDERS, O.TOTAL)) },
  { name: 'sum of an integer column', build: (w) => orders(w, { aggregation: [['sum', w.f('ORDERS', 'QUANTITY')]] }), expect: (_r, s) => scalar(sum(s.ORDERS, O.QUANTITY)) },
  { name: 'avg of price', build: (w) => products(w, { aggregation: [['avg', w.f('PRODUCTS', 'PRICE')]] }), expect: (_r, s) => scalar(sum(s.PRODUCTS, P.PRICE) / s.PRODUCTS.length) },
  { name: 'avg of an integer column is fractional', build: (w) => orders(w, { aggregation: [['avg', w.f('ORDERS', 'QUANTITY')]] }), expect: (_r, s) => scalar(sum(s.ORDERS, O.QUANTITY) / s.ORDERS.length) },
  { name: 'min and max', build: (w) => orders(w, { aggregation: [['min', w.f('ORDERS', 'DISCOUNT')], ['max', w.f('ORDERS', 'DISCOUNT')]] }), expect: (_r, s) => { const d = s.ORDERS.map((r) => r[O.DISCOUNT]).filter((x): x is number => x !== null); return [[Math.min(...d), Math.max(...d)]]; } },
  { name: 'min and max of a timestamp', build: (w) => orders(w, { aggregation: [['min', w.f('ORDERS', 'CREATED_AT')], ['max', w.f('ORDERS', 'CREATED_AT')]] }), expect: (_r, s) => { const d = s.ORDERS.map((r) => r[O.CREATED_AT] as number); return [[iso(Math.min(...d)), iso(Math.max(...d))]]; } },
  { name: 'distinct count', build: (w) => orders(w, { aggregation: [['distinct', w.f('ORDERS', 'USER_ID')]] }), expect: (_r, s) => scalar(new Set(s.ORDERS.map((r) => r[O.USER_ID])).size) },
  { name: 'stddev (population)', build: (w) => products(w, { aggregation: [['stddev', w.f('PRODUCTS', 'PRICE')]] }), expect: (_r, s) => { const xs = s.PRODUCTS.map((r) => r[P.PRICE] as number); const m = xs.reduce((a, b) => a + b) / xs.length; return scalar(Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length)); } },
  { name: 'variance (population)', build: (w) => products(w, { aggregation: [['var', w.f('PRODUCTS', 'RATING')]] }), expect: (_r, s) => { const xs = s.PRODUCTS.map((r) => r[P.RATING] as number); const m = xs.reduce((a, b) => a + b) / xs.length; return scalar(xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length); } },
  { name: 'median', build: (w) => products(w, { aggregation: [['median', w.f('PRODUCTS', 'PRICE')]] }), expect: (_r, s) => { const xs = s.PRODUCTS.map((r) => r[P.PRICE] as number).sort((a, b) => a - b); return scalar((xs[99] + xs[100]) / 2); } },
  { name: 'percentile', build: (w) => products(w, { aggregation: [['percentile', w.f('PRODUCTS', 'PRICE'), 0.9]] }) },
  { name: 'percentile and median by group with other aggregations (exact)', build: (w) => products(w, { aggregation: [['percentile', w.f('PRODUCTS', 'PRICE'), 0.9], ['count'], ['median', w.f('PRODUCTS', 'RATING')], ['sum', w.f('PRODUCTS', 'PRICE')]], breakout: [w.f('PRODUCTS', 'CATEGORY')] }), expect: (_r, s) => groupBy(s.PRODUCTS, (r) => r[P.CATEGORY], (g) => [percentileCont(g.map((r) => r[P.PRICE] as number), 0.9), g.length, percentileCont(g.map((r) => r[P.RATING] as number), 0.5), sum(g, P.PRICE)]) },
  { name: 'median of an expression by a bucketed breakout, nulls ignored', build: (w) => orders(w, { aggregation: [['median', w.f('ORDERS', 'DISCOUNT')], ['count']], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })], filter: ['<', w.f('ORDERS', 'ID'), 3000] }), expect: (_r, s) => groupBy(s.ORDERS.filter((r) => (r[O.ID] as number) < 3000), (r) => year(r[O.CREATED_AT]), (g) => { const d = g.map((r) => r[O.DISCOUNT]).filter((x): x is number => x !== null); return [d.length ? percentileCont(d, 0.5) : null, g.length]; }).map(([y, ...v]) => [`${y}-01-01T00:00:00Z`, ...v]) },
  { name: 'median by group', build: (w) => orders(w, { aggregation: [['median', w.f('ORDERS', 'TOTAL')], ['count']], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })] }) },
  { name: 'cumulative sum by year', build: (w) => orders(w, { aggregation: [['cum-sum', w.f('ORDERS', 'QUANTITY')]], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })] }), expect: (_r, s) => { let acc = 0; return groupBy(s.ORDERS, (r) => year(r[O.CREATED_AT]), (g) => [sum(g, O.QUANTITY)]).map(([y, v]) => [`${y}-01-01T00:00:00Z`, (acc += v as number)]); } },
  { name: 'cumulative count by quarter', build: (w) => orders(w, { aggregation: [['cum-count']], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'quarter' })] }) },
  { name: 'cumulative count with a second breakout', build: (w) => orders(w, { aggregation: [['cum-count'], ['count']], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' }), w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY')] }), unordered: true },
  { name: 'cumulative sum without breakout', build: (w) => orders(w, { aggregation: [['cum-sum', w.f('ORDERS', 'TAX')]] }) },
  // Cumulative aggregations run along the finest temporal breakout (else the last one), restart for each value of
  // the other breakouts, and follow the query's order-by (Metabase 0.52+). Expected values: running totals in JS.
  {
    name: 'cumulative count along the year within each category (two breakouts)',
    build: (w) => orders(w, { aggregation: [['cum-count'], ['count']], breakout: [w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY'), w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })] }),
    expect: (_r, s) => {
      const category = new Map(s.PRODUCTS.map((p) => [p[P.ID], p[P.CATEGORY]]));
      const grouped = groupByKeys(s.ORDERS, [(r) => category.get(r[O.PRODUCT_ID]), (r) => year(r[O.CREATED_AT])], (g) => [g.length, g.length]);
      return runningTotals(grouped, 2, [0], [[1, 'asc']]).map(([c, y, ...v]) => [c, yearStart(y), ...v]);
    },
  },
  {
    name: 'cumulative sum by year, descending order runs the total from the latest year',
    build: (w) => orders(w, { aggregation: [['cum-sum', w.f('ORDERS', 'QUANTITY')]], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })], 'order-by': [['desc', w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })]] }),
    expect: (_r, s) => {
      const grouped = groupByKeys(s.ORDERS, [(r) => year(r[O.CREATED_AT])], (g) => [sum(g, O.QUANTITY)]);
      return sortedBy(runningTotals(grouped, 1, [], [[0, 'desc']]), [[0, 'desc']]).map(([y, v]) => [yearStart(y), v]);
    },
  },
  {
    name: 'cumulative count: two breakouts, descending on the accumulated one',
    build: (w) => orders(w, { aggregation: [['cum-count']], breakout: [w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY'), w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })], 'order-by': [['desc', w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })]] }),
    expect: (_r, s) => {
      const category = new Map(s.PRODUCTS.map((p) => [p[P.ID], p[P.CATEGORY]]));
      const grouped = groupByKeys(s.ORDERS, [(r) => category.get(r[O.PRODUCT_ID]), (r) => year(r[O.CREATED_AT])], (g) => [g.length]);
      return sortedBy(runningTotals(grouped, 2, [0], [[1, 'desc']]), [[1, 'desc'], [0, 'asc']]).map(([c, y, v]) => [c, yearStart(y), v]);
    },
  },
  {
    name: 'cumulative count: sorting a partitioning breakout only orders the rows',
    build: (w) => orders(w, { aggregation: [['cum-count']], breakout: [w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY'), w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })], 'order-by': [['desc', w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY')]] }),
    expect: (_r, s) => {
      const category = new Map(s.PRODUCTS.map((p) => [p[P.ID], p[P.CATEGORY]]));
      const grouped = groupByKeys(s.ORDERS, [(r) => category.get(r[O.PRODUCT_ID]), (r) => year(r[O.CREATED_AT])], (g) => [g.length]);
      return sortedBy(runningTotals(grouped, 2, [0], [[1, 'asc']]), [[0, 'desc'], [1, 'asc']]).map(([c, y, v]) => [c, yearStart(y), v]);
    },
  },
  {
    name: 'cumulative count along the finer of two temporal breakouts, whatever their order',
    build: (w) => orders(w, { aggregation: [['cum-count']], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' }), w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'quarter-of-year' })] }),
    expect: (_r, s) => {
      const grouped = groupByKeys(s.ORDERS, [(r) => year(r[O.CREATED_AT]), (r) => quarterOf(r[O.CREATED_AT]) + 1], (g) => [g.length]);
      return runningTotals(grouped, 2, [0], [[1, 'asc']]).map(([y, q, v]) => [yearStart(y), q, v]);
    },
  },
  {
    name: 'cumulative count along the last of two non-temporal breakouts',
    build: (w) => orders(w, { aggregation: [['cum-count']], breakout: [w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY'), w.via('ORDERS', 'USER_ID', 'PEOPLE', 'SOURCE')] }),
    expect: (_r, s) => {
      const category = new Map(s.PRODUCTS.map((p) => [p[P.ID], p[P.CATEGORY]]));
      const source = new Map(s.PEOPLE.map((p) => [p[PE.ID], p[PE.SOURCE]]));
      const grouped = groupByKeys(s.ORDERS, [(r) => category.get(r[O.PRODUCT_ID]), (r) => source.get(r[O.USER_ID])], (g) => [g.length]);
      return runningTotals(grouped, 2, [0], [[1, 'asc']]);
    },
  },
  {
    name: 'cumulative sum by one non-temporal breakout',
    build: (w) => orders(w, { aggregation: [['cum-sum', w.f('ORDERS', 'QUANTITY')]], breakout: [w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY')] }),
    expect: (_r, s) => {
      const category = new Map(s.PRODUCTS.map((p) => [p[P.ID], p[P.CATEGORY]]));
      return runningTotals(groupByKeys(s.ORDERS, [(r) => category.get(r[O.PRODUCT_ID])], (g) => [sum(g, O.QUANTITY)]), 1, [], [[0, 'asc']]);
    },
  },
  {
    name: 'cumulative count ordered by another aggregation accumulates in that order',
    build: (w) => orders(w, { aggregation: [['cum-count'], ['sum', w.f('ORDERS', 'QUANTITY')]], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })], 'order-by': [['desc', ['aggregation', 1]]] }),
    expect: (_r, s) => {
      const grouped = groupByKeys(s.ORDERS, [(r) => year(r[O.CREATED_AT])], (g) => [g.length, sum(g, O.QUANTITY)]);
      return sortedBy(runningTotals(grouped, 1, [], [[2, 'desc'], [0, 'asc']]), [[2, 'desc'], [0, 'asc']]).map(([y, ...v]) => [yearStart(y), ...v]);
    },
  },
  { name: 'share', build: (w) => orders(w, { aggregation: [['share', ['not-null', w.f('ORDERS', 'DISCOUNT')]]] }), expect: (_r, s) => scalar(s.ORDERS.filter((r) => r[O.DISCOUNT] !== null).length / s.ORDERS.length) },
  { name: 'count-where', build: (w) => orders(w, { aggregation: [['count-where', ['>', w.f('ORDERS', 'QUANTITY'), 5]]] }), expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.QUANTITY] as number) > 5).length) },
  { name: 'sum-where', build: (w) => orders(w, { aggregation: [['sum-where', w.f('ORDERS', 'TOTAL'), ['<', w.f('ORDERS', 'QUANTITY'), 2]]] }), expect: (_r, s) => scalar(sum(s.ORDERS.filter((r) => (r[O.QUANTITY] as number) < 2), O.TOTAL)) },
  { name: 'distinct-where', build: (w) => orders(w, { aggregation: [['distinct-where', w.f('ORDERS', 'PRODUCT_ID'), ['>', w.f('ORDERS', 'TOTAL'), 100]]] }), expect: (_r, s) => scalar(new Set(s.ORDERS.filter((r) => (r[O.TOTAL] as number) > 100).map((r) => r[O.PRODUCT_ID])).size) },
  { name: 'named aggregation', build: (w) => orders(w, { aggregation: [['aggregation-options', ['sum', w.f('ORDERS', 'TAX')], { name: 'taxes', 'display-name': 'All taxes' }]] }) },
  { name: 'arithmetic of aggregations', build: (w) => orders(w, { aggregation: [['/', ['sum', w.f('ORDERS', 'TOTAL')], ['count']]] }), expect: (_r, s) => scalar(sum(s.ORDERS, O.TOTAL) / s.ORDERS.length) },
  { name: 'aggregation expression with a literal', build: (w) => orders(w, { aggregation: [['+', ['max', w.f('ORDERS', 'QUANTITY')], 1]] }), expect: (_r, s) => scalar(Math.max(...s.ORDERS.map((r) => r[O.QUANTITY] as number)) + 1) },
  { name: 'round of an aggregation', build: (w) => orders(w, { aggregation: [['round', ['avg', w.f('ORDERS', 'QUANTITY')]]] }) },
  { name: 'duplicate aggregations get _2', build: (w) => orders(w, { aggregation: [['sum', w.f('ORDERS', 'TOTAL')], ['sum', w.f('ORDERS', 'TAX')]] }) },
  { name: 'aggregation over an expression', build: (w) => orders(w, { expressions: { net: ['-', w.f('ORDERS', 'TOTAL'), w.f('ORDERS', 'TAX')] }, aggregation: [['sum', ['expression', 'net']]] }) },
  { name: 'sum of a product of columns', build: (w) => orders(w, { aggregation: [['sum', ['*', w.f('ORDERS', 'SUBTOTAL'), w.f('ORDERS', 'QUANTITY')]]] }), expect: (_r, s) => scalar(s.ORDERS.reduce((a, r) => a + (r[O.SUBTOTAL] as number) * (r[O.QUANTITY] as number), 0)) },

  // ----- breakouts ----------------------------------------------------------------------------------------------
  ...TEMPORAL_UNITS.map((unit): Case => ({
    name: `orders by created_at ${unit}`,
    build: (w) => orders(w, { aggregation: count, breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': unit })] }),
  })),
  ...DATE_UNITS.map((unit): Case => ({
    name: `people by birth_date (a DATE) ${unit}`,
    build: (w) => people(w, { aggregation: count, breakout: [w.f('PEOPLE', 'BIRTH_DATE', { 'temporal-unit': unit })] }),
  })),
  { name: 'orders by year (exact)', build: (w) => orders(w, { aggregation: [['count'], ['sum', w.f('ORDERS', 'TOTAL')]], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })] }), expect: (_r, s) => groupBy(s.ORDERS, (r) => year(r[O.CREATED_AT]), (g) => [g.length, sum(g, O.TOTAL)]).map(([y, ...v]) => [`${y}-01-01T00:00:00Z`, ...v]) },
  { name: 'orders by month of year (exact)', build: (w) => orders(w, { aggregation: count, breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month-of-year' })] }), expect: (_r, s) => groupBy(s.ORDERS, (r) => new Date(r[O.CREATED_AT] as number).getUTCMonth() + 1, (g) => [g.length]) },
  { name: 'orders by day of week, weeks start on Sunday (exact)', build: (w) => orders(w, { aggregation: count, breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'day-of-week' })] }), expect: (_r, s) => groupBy(s.ORDERS, (r) => new Date(r[O.CREATED_AT] as number).getUTCDay() + 1, (g) => [g.length]) },
  { name: 'orders by week (exact, Sunday weeks)', build: (w) => orders(w, { aggregation: count, breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'week' })], limit: 20 }), expect: (_r, s) => groupBy(s.ORDERS, (r) => { const d = new Date(r[O.CREATED_AT] as number); const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()); return day - d.getUTCDay() * 86400000; }, (g) => [g.length]).slice(0, 20).map(([k, n]) => [iso(k as number), n]) },
  { name: 'datetime breakout without a unit is bucketed by day', build: (w) => orders(w, { aggregation: count, breakout: [w.f('ORDERS', 'CREATED_AT')], limit: 10 }) },
  { name: 'breakout on a category', build: (w) => products(w, { aggregation: [['count'], ['avg', w.f('PRODUCTS', 'PRICE')]], breakout: [w.f('PRODUCTS', 'CATEGORY')] }), expect: (_r, s) => groupBy(s.PRODUCTS, (r) => r[P.CATEGORY], (g) => [g.length, sum(g, P.PRICE) / g.length]) },
  { name: 'breakout on an integer column', build: (w) => orders(w, { aggregation: count, breakout: [w.f('ORDERS', 'QUANTITY')] }), expect: (_r, s) => groupBy(s.ORDERS, (r) => r[O.QUANTITY], (g) => [g.length]) },
  { name: 'breakout with nulls sorts nulls first', build: (w) => accounts(w, { aggregation: count, breakout: [w.f('ACCOUNTS', 'SOURCE')] }), expect: (_r, s) => groupBy(s.ACCOUNTS, (r) => r[A.SOURCE], (g) => [g.length]) },
  { name: 'breakout on a boolean', build: (w) => accounts(w, { aggregation: count, breakout: [w.f('ACCOUNTS', 'TRIAL_CONVERTED')] }) },
  { name: 'two breakouts', build: (w) => people(w, { aggregation: count, breakout: [w.f('PEOPLE', 'SOURCE'), w.f('PEOPLE', 'STATE')] }) },
  { name: 'binning num-bins 10', build: (w) => products(w, { aggregation: count, breakout: [w.f('PRODUCTS', 'PRICE', { binning: { strategy: 'num-bins', 'num-bins': 10 } })] }) },
  { name: 'binning num-bins 50', build: (w) => orders(w, { aggregation: count, breakout: [w.f('ORDERS', 'TOTAL', { binning: { strategy: 'num-bins', 'num-bins': 50 } })] }) },
  { name: 'binning bin-width 20 (exact)', build: (w) => products(w, { aggregation: count, breakout: [w.f('PRODUCTS', 'PRICE', { binning: { strategy: 'bin-width', 'bin-width': 20 } })] }), expect: (_r, s) => groupBy(s.PRODUCTS, (r) => Math.floor((r[P.PRICE] as number) / 20) * 20, (g) => [g.length]) },
  { name: 'binning default', build: (w) => orders(w, { aggregation: count, breakout: [w.f('ORDERS', 'SUBTOTAL', { binning: { strategy: 'default' } })] }) },
  { name: 'binning default on a coordinate', build: (w) => people(w, { aggregation: count, breakout: [w.f('PEOPLE', 'LATITUDE', { binning: { strategy: 'default' } })] }) },
  { name: 'binning two coordinates', build: (w) => people(w, { aggregation: count, breakout: [w.f('PEOPLE', 'LATITUDE', { binning: { strategy: 'bin-width', 'bin-width': 5 } }), w.f('PEOPLE', 'LONGITUDE', { binning: { strategy: 'bin-width', 'bin-width': 5 } })] }) },
  { name: 'implicit join breakout (exact)', build: (w) => orders(w, { aggregation: [['count'], ['sum', w.f('ORDERS', 'TOTAL')]], breakout: [w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY')] }), expect: (_r, s) => { const cat = new Map(s.PRODUCTS.map((p) => [p[P.ID], p[P.CATEGORY]])); return groupBy(s.ORDERS, (r) => cat.get(r[O.PRODUCT_ID]), (g) => [g.length, sum(g, O.TOTAL)]); } },
  { name: 'two implicit joins', build: (w) => orders(w, { aggregation: count, breakout: [w.via('ORDERS', 'USER_ID', 'PEOPLE', 'SOURCE'), w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY')] }) },
  { name: 'implicit join with a temporal unit', build: (w) => orders(w, { aggregation: count, breakout: [w.via('ORDERS', 'USER_ID', 'PEOPLE', 'CREATED_AT', { 'temporal-unit': 'year' })] }) },
  { name: 'implicit join in a filter', build: countOrders((w) => ['=', w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY'), 'Widget']), expect: (_r, s) => { const cat = new Map(s.PRODUCTS.map((p) => [p[P.ID], p[P.CATEGORY]])); return scalar(s.ORDERS.filter((r) => cat.get(r[O.PRODUCT_ID]) === 'Widget').length); } },
  { name: 'breakout on an expression', build: (w) => orders(w, { expressions: { big: ['>', w.f('ORDERS', 'QUANTITY'), 4] }, aggregation: count, breakout: [['expression', 'big']] }) },
  { name: 'breakout on a string expression', build: (w) => people(w, { expressions: { initial: ['substring', w.f('PEOPLE', 'STATE'), 1, 1] }, aggregation: count, breakout: [['expression', 'initial']] }) },
  { name: 'order by aggregation descending', build: (w) => people(w, { aggregation: count, breakout: [w.f('PEOPLE', 'STATE')], 'order-by': [['desc', ['aggregation', 0]], ['asc', w.f('PEOPLE', 'STATE')]], limit: 5 }) },

  // ----- filters ------------------------------------------------------------------------------------------------
  { name: '= string', build: countProducts((w) => ['=', w.f('PRODUCTS', 'CATEGORY'), 'Gizmo']), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => r[P.CATEGORY] === 'Gizmo').length) },
  { name: '= several values', build: countProducts((w) => ['=', w.f('PRODUCTS', 'CATEGORY'), 'Gizmo', 'Widget']), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => r[P.CATEGORY] === 'Gizmo' || r[P.CATEGORY] === 'Widget').length) },
  { name: '!= several values', build: countProducts((w) => ['!=', w.f('PRODUCTS', 'CATEGORY'), 'Gizmo', 'Widget']) },
  { name: '= number', build: countOrders((w) => ['=', w.f('ORDERS', 'QUANTITY'), 3]), expect: (_r, s) => scalar(s.ORDERS.filter((r) => r[O.QUANTITY] === 3).length) },
  { name: '= numeric string is a number', build: countOrders((w) => ['=', w.f('ORDERS', 'QUANTITY'), '3']) },
  { name: '= null is is-null', build: countOrders((w) => ['=', w.f('ORDERS', 'DISCOUNT'), null]) },
  { name: '< number', build: countOrders((w) => ['<', w.f('ORDERS', 'TOTAL'), 20.5]), expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.TOTAL] as number) < 20.5).length) },
  { name: '> number', build: countOrders((w) => ['>', w.f('ORDERS', 'TOTAL'), 120]) },
  { name: '<= number', build: countOrders((w) => ['<=', w.f('ORDERS', 'QUANTITY'), 2]) },
  { name: '>= number', build: countOrders((w) => ['>=', w.f('ORDERS', 'QUANTITY'), 10]) },
  { name: 'between numbers (inclusive)', build: countOrders((w) => ['between', w.f('ORDERS', 'QUANTITY'), 3, 5]), expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.QUANTITY] as number) >= 3 && (r[O.QUANTITY] as number) <= 5).length) },
  { name: 'and / or / not', build: countOrders((w) => ['and', ['or', ['<', w.f('ORDERS', 'QUANTITY'), 2], ['>', w.f('ORDERS', 'QUANTITY'), 8]], ['not', ['is-null', w.f('ORDERS', 'DISCOUNT')]]]) },
  { name: 'is-null', build: countOrders((w) => ['is-null', w.f('ORDERS', 'DISCOUNT')]), expect: (_r, s) => scalar(s.ORDERS.filter((r) => r[O.DISCOUNT] === null).length) },
  { name: 'not-null', build: countOrders((w) => ['not-null', w.f('ORDERS', 'DISCOUNT')]) },
  { name: 'is-empty on text', build: countAccounts((w) => ['is-empty', w.f('ACCOUNTS', 'SOURCE')]), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.SOURCE] === null || r[A.SOURCE] === '').length) },
  { name: 'not-empty on text', build: countAccounts((w) => ['not-empty', w.f('ACCOUNTS', 'SOURCE')]) },
  { name: 'is-empty on a number is is-null', build: countOrders((w) => ['is-empty', w.f('ORDERS', 'DISCOUNT')]) },
  { name: 'contains (case-sensitive by default)', build: countProducts((w) => ['contains', w.f('PRODUCTS', 'TITLE'), 'Steel']), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => (r[P.TITLE] as string).includes('Steel')).length) },
  { name: 'contains lower-case, case-sensitive, finds nothing capitalised', build: countProducts((w) => ['contains', w.f('PRODUCTS', 'TITLE'), 'steel']), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => (r[P.TITLE] as string).includes('steel')).length) },
  { name: 'contains case-insensitive', build: countProducts((w) => ['contains', w.f('PRODUCTS', 'TITLE'), 'STEEL', { 'case-sensitive': false }]), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => (r[P.TITLE] as string).toLowerCase().includes('steel')).length) },
  { name: 'does-not-contain', build: countProducts((w) => ['does-not-contain', w.f('PRODUCTS', 'TITLE'), 'Steel']) },
  { name: 'starts-with', build: countProducts((w) => ['starts-with', w.f('PRODUCTS', 'TITLE'), 'Small']), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => (r[P.TITLE] as string).startsWith('Small')).length) },
  { name: 'starts-with case-insensitive', build: countProducts((w) => ['starts-with', w.f('PRODUCTS', 'TITLE'), 'small', { 'case-sensitive': false }]) },
  { name: 'ends-with', build: countProducts((w) => ['ends-with', w.f('PRODUCTS', 'TITLE'), 'Lamp']), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => (r[P.TITLE] as string).endsWith('Lamp')).length) },
  { name: 'ends-with case-insensitive', build: countProducts((w) => ['ends-with', w.f('PRODUCTS', 'TITLE'), 'LAMP', { 'case-sensitive': false }]) },
  { name: 'contains with several values (options first)', build: countProducts((w) => ['contains', { 'case-sensitive': false }, w.f('PRODUCTS', 'TITLE'), 'lamp', 'chair']) },
  { name: 'does-not-contain with several values', build: countProducts((w) => ['does-not-contain', { 'case-sensitive': false }, w.f('PRODUCTS', 'TITLE'), 'lamp', 'chair']) },
  { name: 'inside', build: countPeople((w) => ['inside', w.f('PEOPLE', 'LATITUDE'), w.f('PEOPLE', 'LONGITUDE'), 45, -110, 35, -90]), expect: (_r, s) => scalar(s.PEOPLE.filter((r) => (r[PE.LATITUDE] as number) >= 35 && (r[PE.LATITUDE] as number) <= 45 && (r[PE.LONGITUDE] as number) >= -110 && (r[PE.LONGITUDE] as number) <= -90).length) },
  { name: '= date on a timestamp means that day', build: countOrders((w) => ['=', w.f('ORDERS', 'CREATED_AT'), '2025-03-14']), expect: (_r, s) => scalar(s.ORDERS.filter((r) => new Date(r[O.CREATED_AT] as number).toISOString().startsWith('2025-03-14')).length) },
  { name: '= with a month unit', build: countOrders((w) => ['=', w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month' }), '2025-03-01']), expect: (_r, s) => scalar(s.ORDERS.filter((r) => new Date(r[O.CREATED_AT] as number).toISOString().startsWith('2025-03')).length) },
  { name: '< a date', build: countOrders((w) => ['<', w.f('ORDERS', 'CREATED_AT'), '2023-01-01']), expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.CREATED_AT] as number) < Date.UTC(2023, 0, 1)).length) },
  { name: '> a date means after that day', build: countOrders((w) => ['>', w.f('ORDERS', 'CREATED_AT'), '2026-01-01']), expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.CREATED_AT] as number) >= Date.UTC(2026, 0, 2)).length) },
  { name: '> a date-time', build: countOrders((w) => ['>', w.f('ORDERS', 'CREATED_AT'), '2026-01-01T12:30:00']), expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.CREATED_AT] as number) > Date.UTC(2026, 0, 1, 12, 30)).length) },
  { name: 'between dates (inclusive days)', build: countOrders((w) => ['between', w.f('ORDERS', 'CREATED_AT'), '2024-01-01', '2024-01-31']), expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.CREATED_AT] as number) >= Date.UTC(2024, 0, 1) && (r[O.CREATED_AT] as number) < Date.UTC(2024, 1, 1)).length) },
  { name: 'between on a DATE column', build: countPeople((w) => ['between', w.f('PEOPLE', 'BIRTH_DATE'), '1980-01-01', '1989-12-31']), expect: (_r, s) => scalar(s.PEOPLE.filter((r) => (r[PE.BIRTH_DATE] as string) >= '1980-01-01' && (r[PE.BIRTH_DATE] as string) <= '1989-12-31').length) },
  { name: '= on a DATE column', build: countPeople((w) => ['=', w.f('PEOPLE', 'BIRTH_DATE'), '1993-04-26']) },
  { name: 'during a month', build: countOrders((w) => ['during', w.f('ORDERS', 'CREATED_AT'), '2024-03-01', 'month']), expect: (_r, s) => scalar(s.ORDERS.filter((r) => new Date(r[O.CREATED_AT] as number).toISOString().startsWith('2024-03')).length) },
  { name: 'during a year', build: countOrders((w) => ['during', w.f('ORDERS', 'CREATED_AT'), '2023-06-15', 'year']) },
  { name: 'time-interval previous 3 years', build: countOrders((w) => ['time-interval', w.f('ORDERS', 'CREATED_AT'), -3, 'year']) },
  { name: 'time-interval previous 2 years including this one', build: countOrders((w) => ['time-interval', w.f('ORDERS', 'CREATED_AT'), -2, 'year', { 'include-current': true }]) },
  { name: 'time-interval last year', build: countOrders((w) => ['time-interval', w.f('ORDERS', 'CREATED_AT'), 'last', 'year']) },
  { name: 'time-interval current year', build: countOrders((w) => ['time-interval', w.f('ORDERS', 'CREATED_AT'), 'current', 'year']) },
  { name: 'time-interval next 5 years', build: countAccounts((w) => ['time-interval', w.f('ACCOUNTS', 'CREATED_AT'), 5, 'year']) },
  { name: 'time-interval previous 24 months', build: countOrders((w) => ['time-interval', w.f('ORDERS', 'CREATED_AT'), -24, 'month']) },
  { name: 'time-interval previous 8 quarters', build: countOrders((w) => ['time-interval', w.f('ORDERS', 'CREATED_AT'), -8, 'quarter']) },
  { name: 'time-interval previous 100 weeks', build: countOrders((w) => ['time-interval', w.f('ORDERS', 'CREATED_AT'), -100, 'week']) },
  { name: 'time-interval previous 800 days', build: countOrders((w) => ['time-interval', w.f('ORDERS', 'CREATED_AT'), -800, 'day']) },
  { name: 'relative-time-interval', build: countOrders((w) => ['relative-time-interval', w.f('ORDERS', 'CREATED_AT'), -6, 'month', -1, 'year']) },
  { name: 'compare with relative-datetime', build: countOrders((w) => ['>', w.f('ORDERS', 'CREATED_AT'), ['relative-datetime', -2, 'year']]) },
  // Relative dates are the start of their unit's period (now + n units, truncated); a column compared with nothing but
  // relative dates and yyyy-MM-dd strings is compared by its day (Metabase's auto-bucketing), a bucketed one by its
  // bucket. Expected: the comparison done in JS on each row's day (or bucket) against the period start.
  ...([
    ['>', (d: number, v: number) => d > v],
    ['>=', (d: number, v: number) => d >= v],
    ['<', (d: number, v: number) => d < v],
    ['<=', (d: number, v: number) => d <= v],
    ['=', (d: number, v: number) => d === v],
    ['!=', (d: number, v: number) => d !== v],
  ] as const).map(([op, test]): Case => ({
    name: `${op} relative-datetime -3 years on an unbucketed timestamp compares its day with the year's start`,
    build: countOrders((w) => [op, w.f('ORDERS', 'CREATED_AT'), ['relative-datetime', -3, 'year']]),
    expect: (_r, s) => scalar(s.ORDERS.filter((r) => test(startOf(r[O.CREATED_AT], 'day'), relativeStart(-3, 'year'))).length),
  })),
  {
    name: 'between two relative-datetimes on an unbucketed timestamp',
    build: countOrders((w) => ['between', w.f('ORDERS', 'CREATED_AT'), ['relative-datetime', -3, 'year'], ['relative-datetime', -1, 'month']]),
    expect: (_r, s) => scalar(s.ORDERS.filter((r) => { const d = startOf(r[O.CREATED_AT], 'day'); return d >= relativeStart(-3, 'year') && d <= relativeStart(-1, 'month'); }).length),
  },
  {
    name: '> relative-datetime in hours on an unbucketed timestamp (a period start inside a day)',
    build: countOrders((w) => ['>', w.f('ORDERS', 'CREATED_AT'), ['relative-datetime', -20000, 'hour']]),
    expect: (_r, s) => scalar(s.ORDERS.filter((r) => startOf(r[O.CREATED_AT], 'day') > relativeStart(-20000, 'hour')).length),
  },
  {
    name: '> relative-datetime on a column bucketed to the same unit starts at the next period',
    build: countOrders((w) => ['>', w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' }), ['relative-datetime', -3, 'year']]),
    expect: (_r, s) => scalar(s.ORDERS.filter((r) => startOf(r[O.CREATED_AT], 'year') > relativeStart(-3, 'year')).length),
  },
  {
    name: '<= relative-datetime in years on a column bucketed by month',
    build: countOrders((w) => ['<=', w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month' }), ['relative-datetime', -3, 'year']]),
    expect: (_r, s) => scalar(s.ORDERS.filter((r) => startOf(r[O.CREATED_AT], 'month') <= relativeStart(-3, 'year')).length),
  },
  {
    name: '> relative-datetime on an expression compares the exact value',
    build: (w) => orders(w, { expressions: { at: ['datetime-add', w.f('ORDERS', 'CREATED_AT'), 12, 'hour'] }, aggregation: count, filter: ['>', ['expression', 'at'], ['relative-datetime', -3, 'year']] }),
    expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.CREATED_AT] as number) + 12 * 3600_000 > relativeStart(-3, 'year')).length),
  },
  { name: 'compare with a field', build: countOrders((w) => ['>', w.f('ORDERS', 'TOTAL'), w.f('ORDERS', 'SUBTOTAL')]), expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.TOTAL] as number) > (r[O.SUBTOTAL] as number)).length) },
  { name: 'in / not-in', build: countOrders((w) => ['and', ['in', w.f('ORDERS', 'QUANTITY'), 1, 2, 3], ['not-in', w.f('ORDERS', 'USER_ID'), 1, 2]]) },
  { name: 'exclusion on day-of-week', build: countOrders((w) => ['!=', w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'day-of-week' }), 1, 7]), expect: (_r, s) => scalar(s.ORDERS.filter((r) => { const d = new Date(r[O.CREATED_AT] as number).getUTCDay(); return d !== 0 && d !== 6; }).length) },
  { name: 'boolean column = true', build: countAccounts((w) => ['=', w.f('ACCOUNTS', 'TRIAL_CONVERTED'), true]), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.TRIAL_CONVERTED] === true).length) },
  { name: 'filter on a boolean expression', build: (w) => orders(w, { expressions: { big: ['>', w.f('ORDERS', 'QUANTITY'), 4] }, aggregation: count, filter: ['expression', 'big'] }) },

  // ----- NULLs under negated filters (Metabase keeps a column's NULL rows for !=, not-in, does-not-contain, not …) --
  { name: '!= on a nullable column keeps its NULLs (exact)', build: countAccounts((w) => ['!=', w.f('ACCOUNTS', 'SOURCE'), 'Facebook']), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.SOURCE] !== 'Facebook').length) },
  { name: '!= several values keeps NULLs (exact)', build: countAccounts((w) => ['!=', w.f('ACCOUNTS', 'SOURCE'), 'Facebook', 'Google']), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.SOURCE] !== 'Facebook' && r[A.SOURCE] !== 'Google').length) },
  { name: 'not-in keeps NULLs (exact)', build: countAccounts((w) => ['not-in', w.f('ACCOUNTS', 'SOURCE'), 'Invite', 'Twitter']), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.SOURCE] !== 'Invite' && r[A.SOURCE] !== 'Twitter').length) },
  { name: '!= null is not-null (exact)', build: countAccounts((w) => ['!=', w.f('ACCOUNTS', 'SOURCE'), null]), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.SOURCE] !== null).length) },
  { name: '!= null and a value drops NULLs (exact)', build: countAccounts((w) => ['!=', w.f('ACCOUNTS', 'SOURCE'), null, 'Facebook']), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.SOURCE] !== null && r[A.SOURCE] !== 'Facebook').length) },
  { name: '!= on a nullable number keeps NULLs (exact)', build: countOrders((w) => ['!=', w.f('ORDERS', 'DISCOUNT'), 0]), expect: (_r, s) => scalar(s.ORDERS.filter((r) => r[O.DISCOUNT] !== 0).length) },
  { name: 'does-not-contain keeps NULLs (exact)', build: countAccounts((w) => ['does-not-contain', w.f('ACCOUNTS', 'SOURCE'), 'oo']), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => !String(r[A.SOURCE] ?? '').includes('oo')).length) },
  { name: 'does-not-contain case-insensitive with several values keeps NULLs (exact)', build: countAccounts((w) => ['does-not-contain', { 'case-sensitive': false }, w.f('ACCOUNTS', 'SOURCE'), 'GOO', 'TWIT']), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => { const v = String(r[A.SOURCE] ?? '').toLowerCase(); return !v.includes('goo') && !v.includes('twit'); }).length) },
  { name: 'not contains keeps NULLs (exact)', build: countAccounts((w) => ['not', ['contains', w.f('ACCOUNTS', 'SOURCE'), 'oo']]), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => !String(r[A.SOURCE] ?? '').includes('oo')).length) },
  { name: 'not starts-with keeps NULLs (exact)', build: countAccounts((w) => ['not', ['starts-with', w.f('ACCOUNTS', 'SOURCE'), 'G']]), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => !String(r[A.SOURCE] ?? '').startsWith('G')).length) },
  { name: 'not ends-with keeps NULLs (exact)', build: countAccounts((w) => ['not', ['ends-with', w.f('ACCOUNTS', 'SOURCE'), 'er']]), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => !String(r[A.SOURCE] ?? '').endsWith('er')).length) },
  { name: '!= on an expression keeps NULLs (exact)', build: (w) => accounts(w, { expressions: { s: ['lower', w.f('ACCOUNTS', 'SOURCE')] }, aggregation: count, filter: ['!=', ['expression', 's'], 'google'] }), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.SOURCE] !== 'Google').length) },
  { name: 'exclusion on a nullable timestamp keeps NULLs (exact)', build: countAccounts((w) => ['!=', w.f('ACCOUNTS', 'CANCELED_AT', { 'temporal-unit': 'month-of-year' }), 1, 2]), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.CANCELED_AT] === null || ![0, 1].includes(new Date(r[A.CANCELED_AT] as number).getUTCMonth())).length) },
  { name: '!= a date keeps NULLs (exact)', build: countAccounts((w) => ['!=', w.f('ACCOUNTS', 'CANCELED_AT', { 'temporal-unit': 'year' }), '2022-01-01']), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.CANCELED_AT] === null || new Date(r[A.CANCELED_AT] as number).getUTCFullYear() !== 2022).length) },
  { name: 'string/!= parameter keeps NULLs (exact)', build: (w) => w.mbql({ 'source-table': w.t('ACCOUNTS'), aggregation: count }, { parameters: [{ type: 'string/!=', target: ['dimension', w.f('ACCOUNTS', 'SOURCE')], value: ['Facebook'] }] }), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.SOURCE] !== 'Facebook').length) },
  { name: 'string/does-not-contain parameter keeps NULLs (exact)', build: (w) => w.mbql({ 'source-table': w.t('ACCOUNTS'), aggregation: count }, { parameters: [{ type: 'string/does-not-contain', target: ['dimension', w.f('ACCOUNTS', 'SOURCE')], value: ['GOO'] }] }), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => !String(r[A.SOURCE] ?? '').toLowerCase().includes('goo')).length) },
  { name: 'number/!= parameter keeps NULLs (exact)', build: (w) => w.mbql({ 'source-table': w.t('ORDERS'), aggregation: count }, { parameters: [{ type: 'number/!=', target: ['dimension', w.f('ORDERS', 'DISCOUNT')], value: [0] }] }), expect: (_r, s) => scalar(s.ORDERS.filter((r) => r[O.DISCOUNT] !== 0).length) },
  { name: 'exclude-months date parameter keeps NULLs (exact)', build: (w) => w.mbql({ 'source-table': w.t('ACCOUNTS'), aggregation: count }, { parameters: [{ type: 'date/all-options', target: ['dimension', w.f('ACCOUNTS', 'CANCELED_AT')], value: 'exclude-months-Jan-Dec' }] }), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.CANCELED_AT] === null || ![0, 11].includes(new Date(r[A.CANCELED_AT] as number).getUTCMonth())).length) },

  // ----- differently-cased strings: = and != compare exactly on every engine (MySQL collations don't) ------------
  { name: '= a differently-cased string matches nothing (exact)', build: countProducts((w) => ['=', w.f('PRODUCTS', 'CATEGORY'), 'gizmo']), expect: () => scalar(0) },
  { name: '!= a differently-cased string keeps every row (exact)', build: countProducts((w) => ['!=', w.f('PRODUCTS', 'CATEGORY'), 'gizmo']), expect: (_r, s) => scalar(s.PRODUCTS.length) },
  { name: '= several values is case-sensitive (exact)', build: countProducts((w) => ['=', w.f('PRODUCTS', 'CATEGORY'), 'Gizmo', 'widget']), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => r[P.CATEGORY] === 'Gizmo').length) },
  { name: 'not-in several values is case-sensitive (exact)', build: countProducts((w) => ['not-in', w.f('PRODUCTS', 'CATEGORY'), 'Gizmo', 'widget']), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => r[P.CATEGORY] !== 'Gizmo').length) },
  { name: 'starts-with is case-sensitive by default (exact)', build: countProducts((w) => ['starts-with', w.f('PRODUCTS', 'CATEGORY'), 'giz']), expect: () => scalar(0) },
  { name: 'ends-with is case-sensitive by default (exact)', build: countProducts((w) => ['ends-with', w.f('PRODUCTS', 'CATEGORY'), 'MO']), expect: () => scalar(0) },
  { name: '= on a native source column is case-sensitive (exact)', build: (w) => w.mbql({ 'source-query': { native: w.engine === 'mysql' ? "SELECT 'a' AS `S` UNION ALL SELECT 'A' UNION ALL SELECT 'a'" : `SELECT 'a' AS "S" UNION ALL SELECT 'A' UNION ALL SELECT 'a'` }, aggregation: count, filter: ['=', ['field', 'S', { 'base-type': 'type/Text' }], 'a'] }), expect: () => scalar(2) },

  // ----- expressions ----------------------------------------------------------------------------------------------
  ...(
    [
      ['arithmetic', (w: Warehouse) => ['+', ['*', w.f('ORDERS', 'SUBTOTAL'), 2], ['-', w.f('ORDERS', 'TAX'), 1]]],
      ['division is floating', (w: Warehouse) => ['/', w.f('ORDERS', 'QUANTITY'), 4]],
      ['division by zero is null', (w: Warehouse) => ['/', w.f('ORDERS', 'QUANTITY'), 0]],
      ['abs', (w: Warehouse) => ['abs', ['-', w.f('ORDERS', 'TAX'), 5]]],
      ['ceil', (w: Warehouse) => ['ceil', w.f('ORDERS', 'TOTAL')]],
      ['floor', (w: Warehouse) => ['floor', w.f('ORDERS', 'TOTAL')]],
      ['round', (w: Warehouse) => ['round', w.f('ORDERS', 'TOTAL')]],
      ['power', (w: Warehouse) => ['power', w.f('ORDERS', 'QUANTITY'), 2]],
      ['sqrt', (w: Warehouse) => ['sqrt', w.f('ORDERS', 'TOTAL')]],
      ['exp', (w: Warehouse) => ['exp', ['/', w.f('ORDERS', 'QUANTITY'), 10]]],
      ['log (base 10)', (w: Warehouse) => ['log', w.f('ORDERS', 'TOTAL')]],
      ['coalesce', (w: Warehouse) => ['coalesce', w.f('ORDERS', 'DISCOUNT'), 0]],
      ['case', (w: Warehouse) => ['case', [[['<', w.f('ORDERS', 'QUANTITY'), 3], 'small'], [['<', w.f('ORDERS', 'QUANTITY'), 6], 'medium']], { default: 'large' }]],
      ['case without default', (w: Warehouse) => ['case', [[['>', w.f('ORDERS', 'QUANTITY'), 5], w.f('ORDERS', 'TOTAL')]]]],
      ['if', (w: Warehouse) => ['if', [[['not-null', w.f('ORDERS', 'DISCOUNT')], 1]], { default: 0 }]],
      ['text of a number', (w: Warehouse) => ['text', w.f('ORDERS', 'QUANTITY')]],
      ['integer of a float', (w: Warehouse) => ['integer', w.f('ORDERS', 'TAX')]],
      ['float of an integer', (w: Warehouse) => ['float', w.f('ORDERS', 'QUANTITY')]],
      ['datetime-add days', (w: Warehouse) => ['datetime-add', w.f('ORDERS', 'CREATED_AT'), 10, 'day']],
      ['datetime-add months (clamps month ends)', (w: Warehouse) => ['datetime-add', w.f('ORDERS', 'CREATED_AT'), 1, 'month']],
      ['datetime-add hours', (w: Warehouse) => ['datetime-add', w.f('ORDERS', 'CREATED_AT'), 36, 'hour']],
      ['datetime-subtract years', (w: Warehouse) => ['datetime-subtract', w.f('ORDERS', 'CREATED_AT'), 2, 'year']],
      ['datetime-subtract weeks', (w: Warehouse) => ['datetime-subtract', w.f('ORDERS', 'CREATED_AT'), 3, 'week']],
      ['datetime-add quarters on a DATE', (w: Warehouse) => ['datetime-add', w.via('ORDERS', 'USER_ID', 'PEOPLE', 'BIRTH_DATE'), 1, 'quarter']],
      ['date + interval', (w: Warehouse) => ['+', w.f('ORDERS', 'CREATED_AT'), ['interval', 7, 'day']]],
      ['datetime-diff days', (w: Warehouse) => ['datetime-diff', w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CREATED_AT'), w.f('ORDERS', 'CREATED_AT'), 'day']],
      ['datetime-diff hours', (w: Warehouse) => ['datetime-diff', w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CREATED_AT'), w.f('ORDERS', 'CREATED_AT'), 'hour']],
      ['datetime-diff months', (w: Warehouse) => ['datetime-diff', w.via('ORDERS', 'USER_ID', 'PEOPLE', 'CREATED_AT'), w.f('ORDERS', 'CREATED_AT'), 'month']],
      ['datetime-diff years from a DATE', (w: Warehouse) => ['datetime-diff', w.via('ORDERS', 'USER_ID', 'PEOPLE', 'BIRTH_DATE'), w.f('ORDERS', 'CREATED_AT'), 'year']],
      ['datetime-diff weeks', (w: Warehouse) => ['datetime-diff', w.f('ORDERS', 'CREATED_AT'), w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CREATED_AT'), 'week']],
      ['get-year', (w: Warehouse) => ['get-year', w.f('ORDERS', 'CREATED_AT')]],
      ['get-quarter', (w: Warehouse) => ['get-quarter', w.f('ORDERS', 'CREATED_AT')]],
      ['get-month', (w: Warehouse) => ['get-month', w.f('ORDERS', 'CREATED_AT')]],
      ['get-week (iso)', (w: Warehouse) => ['get-week', w.f('ORDERS', 'CREATED_AT')]],
      ['get-week (us)', (w: Warehouse) => ['get-week', w.f('ORDERS', 'CREATED_AT'), 'us']],
      ['get-day', (w: Warehouse) => ['get-day', w.f('ORDERS', 'CREATED_AT')]],
      ['get-day-of-week', (w: Warehouse) => ['get-day-of-week', w.f('ORDERS', 'CREATED_AT')]],
      ['get-day-of-week (iso)', (w: Warehouse) => ['get-day-of-week', w.f('ORDERS', 'CREATED_AT'), 'iso']],
      ['get-hour', (w: Warehouse) => ['get-hour', w.f('ORDERS', 'CREATED_AT')]],
      ['get-minute', (w: Warehouse) => ['get-minute', w.f('ORDERS', 'CREATED_AT')]],
      ['get-second', (w: Warehouse) => ['get-second', w.f('ORDERS', 'CREATED_AT')]],
      ['temporal-extract week-of-year-instance', (w: Warehouse) => ['temporal-extract', w.f('ORDERS', 'CREATED_AT'), 'week-of-year-instance']],
      ['month-name', (w: Warehouse) => ['month-name', ['get-month', w.f('ORDERS', 'CREATED_AT')]]],
      ['quarter-name', (w: Warehouse) => ['quarter-name', ['get-quarter', w.f('ORDERS', 'CREATED_AT')]]],
      ['day-name', (w: Warehouse) => ['day-name', ['get-day-of-week', w.f('ORDERS', 'CREATED_AT')]]],
    ] as Array<[string, (w: Warehouse) => unknown]>
  ).map(([name, expr]): Case => ({
    name: `expression ${name}`,
    build: (w) => orders(w, { expressions: { e: expr(w) }, fields: [w.f('ORDERS', 'ID'), ['expression', 'e']], 'order-by': [['asc', w.f('ORDERS', 'ID')]], limit: 40 }),
  })),
  ...(
    [
      ['concat', (w: Warehouse) => ['concat', w.f('PEOPLE', 'CITY'), ', ', w.f('PEOPLE', 'STATE')]],
      ['concat with a number', (w: Warehouse) => ['concat', w.f('PEOPLE', 'ID'), '-', w.f('PEOPLE', 'ZIP')]],
      ['substring', (w: Warehouse) => ['substring', w.f('PEOPLE', 'NAME'), 2, 4]],
      ['substring without length', (w: Warehouse) => ['substring', w.f('PEOPLE', 'ADDRESS'), 5]],
      ['length', (w: Warehouse) => ['length', w.f('PEOPLE', 'NAME')]],
      ['trim', (w: Warehouse) => ['trim', ['concat', '  ', w.f('PEOPLE', 'STATE'), '  ']]],
      ['ltrim', (w: Warehouse) => ['ltrim', ['concat', '  ', w.f('PEOPLE', 'STATE')]]],
      ['rtrim', (w: Warehouse) => ['rtrim', ['concat', w.f('PEOPLE', 'STATE'), '  ']]],
      ['upper', (w: Warehouse) => ['upper', w.f('PEOPLE', 'NAME')]],
      ['lower', (w: Warehouse) => ['lower', w.f('PEOPLE', 'NAME')]],
      ['replace', (w: Warehouse) => ['replace', w.f('PEOPLE', 'EMAIL'), '@', ' at ']],
      ['split-part', (w: Warehouse) => ['split-part', w.f('PEOPLE', 'EMAIL'), '@', 2]],
      ['regex-match-first', (w: Warehouse) => ['regex-match-first', w.f('PEOPLE', 'ADDRESS'), '[0-9]+']],
      ['domain of an email', (w: Warehouse) => ['domain', w.f('PEOPLE', 'EMAIL')]],
      ['host of an email', (w: Warehouse) => ['host', w.f('PEOPLE', 'EMAIL')]],
      ['date of a timestamp', (w: Warehouse) => ['date', w.f('PEOPLE', 'CREATED_AT')]],
      ['text of a date', (w: Warehouse) => ['text', w.f('PEOPLE', 'BIRTH_DATE')]],
      ['case on text', (w: Warehouse) => ['case', [[['starts-with', w.f('PEOPLE', 'EMAIL'), 'a'], 'A-list']], { default: w.f('PEOPLE', 'SOURCE') }]],
    ] as Array<[string, (w: Warehouse) => unknown]>
  ).map(([name, expr]): Case => ({
    name: `expression ${name}`,
    build: (w) => people(w, { expressions: { e: expr(w) }, fields: [w.f('PEOPLE', 'ID'), ['expression', 'e']], 'order-by': [['asc', w.f('PEOPLE', 'ID')]], limit: 40 }),

  })),
  ...(
    [
      ['subdomain', (w: Warehouse) => ['subdomain', ['concat', 'https://', w.f('ANALYTIC_EVENTS', 'PAGE_URL')]]],
      ['host', (w: Warehouse) => ['host', ['concat', 'https://user@', w.f('ANALYTIC_EVENTS', 'PAGE_URL'), '?q=1']]],
      ['domain', (w: Warehouse) => ['domain', w.f('ANALYTIC_EVENTS', 'PAGE_URL')]],
      ['path', (w: Warehouse) => ['path', ['concat', 'https://', w.f('ANALYTIC_EVENTS', 'PAGE_URL'), '?q=1#top']]],
    ] as Array<[string, (w: Warehouse) => unknown]>
  ).map(([name, expr]): Case => ({
    name: `expression ${name} of a URL`,
    build: (w) => w.mbql({ 'source-table': w.t('ANALYTIC_EVENTS'), expressions: { e: expr(w) }, fields: [w.f('ANALYTIC_EVENTS', 'ID'), w.f('ANALYTIC_EVENTS', 'PAGE_URL'), ['expression', 'e']], filter: ['not-null', w.f('ANALYTIC_EVENTS', 'PAGE_URL')], 'order-by': [['asc', w.f('ANALYTIC_EVENTS', 'ID')]], limit: 20 }),
  })),
  { name: 'convert-timezone', build: (w) => orders(w, { expressions: { e: ['convert-timezone', w.f('ORDERS', 'CREATED_AT'), 'Asia/Tokyo', 'UTC'] }, fields: [w.f('ORDERS', 'ID'), ['expression', 'e']], 'order-by': [['asc', w.f('ORDERS', 'ID')]], limit: 10 }), expect: (_r, s) => s.ORDERS.slice(0, 10).map((r) => [r[O.ID], iso((r[O.CREATED_AT] as number) + 9 * 3600_000)]) },
  // Across DST changes (exact, offsets from luxon): every order, bucketed by the New York hour.
  { name: 'convert-timezone to a zone with DST (exact)', build: (w) => orders(w, { expressions: { e: ['convert-timezone', w.f('ORDERS', 'CREATED_AT'), 'America/New_York'] }, aggregation: count, breakout: [['expression', 'e', { 'temporal-unit': 'hour-of-day' }]] }), expect: (_r, s) => groupBy(s.ORDERS, (r) => DateTime.fromMillis(r[O.CREATED_AT] as number, { zone: 'America/New_York' }).hour, (g) => [g.length]) },
  { name: 'convert-timezone between two zones with DST (exact)', build: (w) => orders(w, { expressions: { e: ['convert-timezone', ['convert-timezone', w.f('ORDERS', 'CREATED_AT'), 'Europe/Berlin'], 'America/Los_Angeles', 'Europe/Berlin'] }, fields: [w.f('ORDERS', 'ID'), ['expression', 'e']], 'order-by': [['asc', w.f('ORDERS', 'ID')]], limit: 400 }), expect: (_r, s) => s.ORDERS.slice(0, 400).map((r) => [r[O.ID], `${DateTime.fromMillis(r[O.CREATED_AT] as number, { zone: 'America/Los_Angeles' }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS").replace(/\.000$/, '')}Z`]) },
  { name: 'split-part (exact, every engine)', build: (w) => people(w, { expressions: { user: ['split-part', w.f('PEOPLE', 'EMAIL'), '@', 1], none: ['split-part', w.f('PEOPLE', 'EMAIL'), '@', 3] }, fields: [w.f('PEOPLE', 'ID'), ['expression', 'user'], ['expression', 'none']], 'order-by': [['asc', w.f('PEOPLE', 'ID')]], limit: 25 }), expect: (_r, s) => s.PEOPLE.slice(0, 25).map((r) => [r[PE.ID], String(r[PE.EMAIL]).split('@')[0], '']) },
  { name: 'regex-match-first (exact, every engine)', build: (w) => people(w, { expressions: { n: ['regex-match-first', w.f('PEOPLE', 'ADDRESS'), '[0-9]+'] }, fields: [w.f('PEOPLE', 'ID'), ['expression', 'n']], 'order-by': [['asc', w.f('PEOPLE', 'ID')]], limit: 25 }), expect: (_r, s) => s.PEOPLE.slice(0, 25).map((r) => [r[PE.ID], /[0-9]+/.exec(String(r[PE.ADDRESS]))?.[0] ?? null]) },
  // ----- expressions give the same values (and types) on every engine ---------------------------------------------
  ...(
    [
      ['text of a timestamp', (w: Warehouse) => ['text', w.f('ORDERS', 'CREATED_AT')], (r: unknown[]) => new Date(r[O.CREATED_AT] as number).toISOString().replace('T', ' ').replace('Z', '').replace(/\.?0+$/, '')],
      ['text of a float', (w: Warehouse) => ['text', w.f('ORDERS', 'TOTAL')], (r: unknown[]) => String(r[O.TOTAL])],
      ['text of an integral float', (w: Warehouse) => ['text', ['/', w.f('ORDERS', 'QUANTITY'), 1]], (r: unknown[]) => String(r[O.QUANTITY])],
      ['text of a boolean', (w: Warehouse) => ['text', ['>', w.f('ORDERS', 'QUANTITY'), 2]], (r: unknown[]) => String((r[O.QUANTITY] as number) > 2)],
      ['text of a date', (w: Warehouse) => ['text', ['date', w.f('ORDERS', 'CREATED_AT')]], (r: unknown[]) => new Date(r[O.CREATED_AT] as number).toISOString().slice(0, 10)],
      ['integer of decimal text rounds', () => ['integer', ' 12.7 '], () => 13],
      ['integer of negative text rounds away from zero', () => ['integer', '-12.5'], () => -13],
      ['integer of non-numeric text is null', () => ['integer', 'abc'], () => null],
      ['float of non-numeric text is null', () => ['float', '1.2.3'], () => null],
      ['case with integer and float branches', (w: Warehouse) => ['case', [[['>', w.f('ORDERS', 'QUANTITY'), 2], 1]], { default: 2.5 }], (r: unknown[]) => ((r[O.QUANTITY] as number) > 2 ? 1 : 2.5)],
      ['case with text and number branches is text', (w: Warehouse) => ['case', [[['>', w.f('ORDERS', 'QUANTITY'), 2], 'many']], { default: w.f('ORDERS', 'QUANTITY') }], (r: unknown[]) => ((r[O.QUANTITY] as number) > 2 ? 'many' : String(r[O.QUANTITY]))],
      ['coalesce of text and a float is text', (w: Warehouse) => ['coalesce', ['case', [[['>', w.f('ORDERS', 'QUANTITY'), 2], 'many']]], w.f('ORDERS', 'TOTAL')], (r: unknown[]) => ((r[O.QUANTITY] as number) > 2 ? 'many' : String(r[O.TOTAL]))],
      ['coalesce of an integer and a float', (w: Warehouse) => ['coalesce', w.f('ORDERS', 'DISCOUNT'), 0], (r: unknown[]) => r[O.DISCOUNT] ?? 0],
      ['upper beyond ASCII', () => ['upper', 'straße éclair ǆ'], () => 'STRAßE ÉCLAIR Ǆ'],
      ['lower beyond ASCII', () => ['lower', 'ÉCLAIR Ǆ ΣΑΣ'], () => 'éclair ǆ σασ'],
      ['datetime of unix seconds', () => ['datetime', 1700000000, { mode: 'unix-seconds' }], () => '2023-11-14T22:13:20Z'],
      ['datetime of unix milliseconds', () => ['datetime', 1700000000123, { mode: 'unix-milliseconds' }], () => '2023-11-14T22:13:20.123Z'],
      ['datetime of unix microseconds', () => ['datetime', 1700000000123000, { mode: 'unix-microseconds' }], () => '2023-11-14T22:13:20.123Z'],
      ['datetime of a column of unix seconds', (w: Warehouse) => ['datetime', ['+', 1700000000, w.f('ORDERS', 'QUANTITY')], { mode: 'unix-seconds' }], (r: unknown[]) => new Date((1700000000 + (r[O.QUANTITY] as number)) * 1000).toISOString().replace('.000Z', 'Z')],
      ['datetime of simple text', () => ['datetime', '20240102030405', { mode: 'simple' }], () => '2024-01-02T03:04:05Z'],
    ] as Array<[string, (w: Warehouse) => unknown, (r: unknown[]) => unknown]>
  ).map(([name, expr, value]): Case => ({
    name: `expression ${name} (exact)`,
    build: (w) => orders(w, { expressions: { e: expr(w) }, fields: [w.f('ORDERS', 'ID'), ['expression', 'e']], 'order-by': [['asc', w.f('ORDERS', 'ID')]], limit: 30 }),
    expect: (_r, s) => s.ORDERS.slice(0, 30).map((r) => [r[O.ID], value(r)]),
  })),
  { name: 'expression referring to another expression', build: (w) => orders(w, { expressions: { net: ['-', w.f('ORDERS', 'TOTAL'), w.f('ORDERS', 'TAX')], half: ['/', ['expression', 'net'], 2] }, fields: [w.f('ORDERS', 'ID'), ['expression', 'half']], 'order-by': [['asc', w.f('ORDERS', 'ID')]], limit: 10 }) },
  { name: 'filter on an expression', build: (w) => orders(w, { expressions: { net: ['-', w.f('ORDERS', 'TOTAL'), w.f('ORDERS', 'TAX')] }, aggregation: count, filter: ['>', ['expression', 'net'], 50] }) },
  { name: 'order by an expression', build: (w) => orders(w, { expressions: { net: ['-', w.f('ORDERS', 'TOTAL'), w.f('ORDERS', 'TAX')] }, fields: [w.f('ORDERS', 'ID')], 'order-by': [['desc', ['expression', 'net']], ['asc', w.f('ORDERS', 'ID')]], limit: 10 }) },
  { name: 'default fields include expressions', build: (w) => products(w, { expressions: { double_price: ['*', w.f('PRODUCTS', 'PRICE'), 2] }, 'order-by': [['asc', w.f('PRODUCTS', 'ID')]], limit: 5 }) },

  // ----- explicit joins -----------------------------------------------------------------------------------------
  ...(['left-join', 'inner-join', 'right-join', 'full-join'] as const).map((strategy): Case => ({
    name: `join ${strategy}`,
    build: (w) => orders(w, {
      joins: [{ 'source-table': w.t('PRODUCTS'), alias: 'P', strategy, fields: 'none', condition: ['=', w.f('ORDERS', 'PRODUCT_ID'), w.f('PRODUCTS', 'ID', { 'join-alias': 'P' })] }],
      aggregation: [['count'], ['sum', w.f('PRODUCTS', 'PRICE', { 'join-alias': 'P' })]],
      breakout: [w.f('PRODUCTS', 'CATEGORY', { 'join-alias': 'P' })],
    }),
    unsupported: strategy === 'full-join' ? ['mysql'] : undefined,
  })),
  { name: 'join with fields all', build: (w) => orders(w, { joins: [{ 'source-table': w.t('PEOPLE'), alias: 'U', fields: 'all', condition: ['=', w.f('ORDERS', 'USER_ID'), w.f('PEOPLE', 'ID', { 'join-alias': 'U' })] }], 'order-by': [['asc', w.f('ORDERS', 'ID')]], limit: 5 }) },
  { name: 'join with a list of fields', build: (w) => orders(w, { fields: [w.f('ORDERS', 'ID'), w.f('ORDERS', 'TOTAL')], joins: [{ 'source-table': w.t('PRODUCTS'), alias: 'P', fields: [w.f('PRODUCTS', 'TITLE', { 'join-alias': 'P' }), w.f('PRODUCTS', 'ID', { 'join-alias': 'P' })], condition: ['=', w.f('ORDERS', 'PRODUCT_ID'), w.f('PRODUCTS', 'ID', { 'join-alias': 'P' })] }], 'order-by': [['asc', w.f('ORDERS', 'ID')]], limit: 5 }) },
  { name: 'join on a source query', build: (w) => orders(w, {
    joins: [{ 'source-query': { 'source-table': w.t('REVIEWS'), aggregation: [['avg', w.f('REVIEWS', 'RATING')]], breakout: [w.f('REVIEWS', 'PRODUCT_ID')] }, alias: 'R', fields: 'none', condition: ['=', w.f('ORDERS', 'PRODUCT_ID'), ['field', 'PRODUCT_ID', { 'base-type': 'type/Integer', 'join-alias': 'R' }]] }],
    aggregation: [['avg', ['field', 'avg', { 'base-type': 'type/Float', 'join-alias': 'R' }]]],
  }) },
  { name: 'self join', build: (w) => people(w, { joins: [{ 'source-table': w.t('PEOPLE'), alias: 'Same state', fields: 'none', strategy: 'inner-join', condition: ['and', ['=', w.f('PEOPLE', 'STATE'), w.f('PEOPLE', 'STATE', { 'join-alias': 'Same state' })], ['<', w.f('PEOPLE', 'ID'), w.f('PEOPLE', 'ID', { 'join-alias': 'Same state' })]] }], aggregation: count, filter: ['=', w.f('PEOPLE', 'STATE'), 'RI', 'DE', 'CT'] }) },
  { name: 'two joins and a filter on the second', build: (w) => orders(w, {
    joins: [
      { 'source-table': w.t('PRODUCTS'), alias: 'P', fields: 'none', condition: ['=', w.f('ORDERS', 'PRODUCT_ID'), w.f('PRODUCTS', 'ID', { 'join-alias': 'P' })] },
      { 'source-table': w.t('PEOPLE'), alias: 'U', fields: 'none', condition: ['=', w.f('ORDERS', 'USER_ID'), w.f('PEOPLE', 'ID', { 'join-alias': 'U' })] },
    ],
    aggregation: count, breakout: [w.f('PRODUCTS', 'CATEGORY', { 'join-alias': 'P' })], filter: ['=', w.f('PEOPLE', 'SOURCE', { 'join-alias': 'U' }), 'Google'],
  }) },

  // ----- fields, order, limit, page ---------------------------------------------------------------------------------
  { name: 'default fields, ordered, limited', build: (w) => products(w, { 'order-by': [['asc', w.f('PRODUCTS', 'ID')]], limit: 10 }) },
  { name: 'fields', build: (w) => people(w, { fields: [w.f('PEOPLE', 'ID'), w.f('PEOPLE', 'STATE'), w.f('PEOPLE', 'BIRTH_DATE'), w.f('PEOPLE', 'CREATED_AT')], 'order-by': [['asc', w.f('PEOPLE', 'ID')]], limit: 25 }) },
  { name: 'fields with a temporal unit', build: (w) => orders(w, { fields: [w.f('ORDERS', 'ID'), w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month' })], 'order-by': [['asc', w.f('ORDERS', 'ID')]], limit: 25 }) },
  { name: 'order by two fields', build: (w) => orders(w, { fields: [w.f('ORDERS', 'ID'), w.f('ORDERS', 'QUANTITY')], 'order-by': [['desc', w.f('ORDERS', 'QUANTITY')], ['asc', w.f('ORDERS', 'ID')]], limit: 15 }) },
  { name: 'order by a nullable column (nulls first)', build: (w) => orders(w, { fields: [w.f('ORDERS', 'ID'), w.f('ORDERS', 'DISCOUNT')], 'order-by': [['asc', w.f('ORDERS', 'DISCOUNT')], ['asc', w.f('ORDERS', 'ID')]], limit: 5 }), expect: (_r, s) => s.ORDERS.filter((r) => r[O.DISCOUNT] === null).slice(0, 5).map((r) => [r[O.ID], null]) },
  { name: 'order descending puts nulls last', build: (w) => accounts(w, { fields: [w.f('ACCOUNTS', 'ID'), w.f('ACCOUNTS', 'SOURCE')], 'order-by': [['desc', w.f('ACCOUNTS', 'SOURCE')], ['asc', w.f('ACCOUNTS', 'ID')]], limit: 3 }) },
  { name: 'limit', build: (w) => orders(w, { fields: [w.f('ORDERS', 'ID')], 'order-by': [['asc', w.f('ORDERS', 'ID')]], limit: 3 }), expect: () => [[1], [2], [3]] },
  { name: 'page 3 of 7', build: (w) => products(w, { fields: [w.f('PRODUCTS', 'ID')], 'order-by': [['asc', w.f('PRODUCTS', 'ID')]], page: { page: 3, items: 7 } }), expect: () => [15, 16, 17, 18, 19, 20, 21].map((x) => [x]) },
  { name: 'limit 0', build: (w) => orders(w, { fields: [w.f('ORDERS', 'ID')], limit: 0 }), expect: () => [] },

  // ----- nested queries -----------------------------------------------------------------------------------------
  { name: 'nested: aggregate an aggregated source', build: (w) => w.mbql({ 'source-query': { 'source-table': w.t('PRODUCTS'), aggregation: count, breakout: [w.f('PRODUCTS', 'CATEGORY')] }, aggregation: [['count'], ['sum', ['field', 'count', { 'base-type': 'type/Integer' }]]] }), expect: () => [[4, 200]] },
  { name: 'nested: filter on an aggregated column', build: (w) => w.mbql({ 'source-query': { 'source-table': w.t('ORDERS'), aggregation: count, breakout: [w.f('ORDERS', 'USER_ID')] }, filter: ['>', ['field', 'count', { 'base-type': 'type/Integer' }], 30], aggregation: count }) },
  { name: 'nested: field ids resolve to source columns', build: (w) => w.mbql({ 'source-query': { 'source-table': w.t('ORDERS'), fields: [w.f('ORDERS', 'ID'), w.f('ORDERS', 'TOTAL'), w.f('ORDERS', 'CREATED_AT')] }, aggregation: [['sum', w.f('ORDERS', 'TOTAL')]], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })] }) },
  { name: 'nested: bucketed column re-bucketed', build: (w) => w.mbql({ 'source-query': { 'source-table': w.t('ORDERS'), aggregation: count, breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'month' })] }, aggregation: [['sum', ['field', 'count', { 'base-type': 'type/Integer' }]]], breakout: [['field', 'CREATED_AT', { 'base-type': 'type/DateTime', 'temporal-unit': 'year' }]] }) },
  { name: 'nested three levels deep', build: (w) => w.mbql({ 'source-query': { 'source-query': { 'source-table': w.t('ORDERS'), filter: ['>', w.f('ORDERS', 'QUANTITY'), 3] }, aggregation: count, breakout: [w.f('ORDERS', 'PRODUCT_ID')] }, aggregation: [['max', ['field', 'count', { 'base-type': 'type/Integer' }]]] }) },
  { name: 'nested: default fields of a source query', build: (w) => w.mbql({ 'source-query': { 'source-table': w.t('PRODUCTS'), fields: [w.f('PRODUCTS', 'ID'), w.f('PRODUCTS', 'CATEGORY')], filter: ['<', w.f('PRODUCTS', 'ID'), 6] }, 'order-by': [['asc', w.f('PRODUCTS', 'ID')]] }) },
  { name: 'nested: expression in the outer stage', build: (w) => w.mbql({ 'source-query': { 'source-table': w.t('ORDERS'), aggregation: [['sum', w.f('ORDERS', 'TOTAL')], ['count']], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })] }, expressions: { per_order: ['/', ['field', 'sum', { 'base-type': 'type/Float' }], ['field', 'count', { 'base-type': 'type/Integer' }]] }, fields: [['field', 'CREATED_AT', { 'base-type': 'type/DateTime' }], ['expression', 'per_order']] }) },

  ...['hour', 'minute', 'hour-of-day', 'minute-of-hour'].map((unit): Case => ({
    name: `time-of-day column by ${unit}`,
    build: (w) => {
      const t = (v: string) => (w.engine === 'sqlite' ? `'${v}'` : `CAST('${v}' AS TIME)`);
      const q = (id: string) => (w.engine === 'mysql' ? `\`${id}\`` : `"${id}"`);
      const native = ['10:35:12', '10:59:59', '23:01:00', '23:01:30'].map((v) => `SELECT ${t(v)} AS ${q('T')}`).join(' UNION ALL ');
      return w.mbql({ 'source-query': { native }, aggregation: [['count']], breakout: [['field', 'T', { 'base-type': 'type/Time', 'temporal-unit': unit }]] });
    },
    expect: () =>
      ({
        hour: [['10:00:00Z', 2], ['23:00:00Z', 2]],
        minute: [['10:35:00Z', 1], ['10:59:00Z', 1], ['23:01:00Z', 2]],
        'hour-of-day': [[10, 2], [23, 2]],
        'minute-of-hour': [[1, 2], [35, 1], [59, 1]],
      })[unit],
  })),

  ...['millisecond', 'second'].map((unit): Case => ({
    name: `date-time column with fractional seconds by ${unit} (exact)`,
    build: (w) => {
      const ts = (v: string) => (w.engine === 'sqlite' ? `'${v}'` : w.engine === 'mysql' ? `CAST('${v}' AS DATETIME(6))` : `CAST('${v}' AS TIMESTAMP)`);
      const q = (id: string) => (w.engine === 'mysql' ? `\`${id}\`` : `"${id}"`);
      // (SQLite reads times to the millisecond, rounding finer digits: the values keep that from mattering.)
      const native = ['2024-01-01 10:00:00.123456', '2024-01-01 10:00:00.1234', '2024-01-01 10:00:00.124', '2024-01-01 10:00:01.5'].map((v) => `SELECT ${ts(v)} AS ${q('T')}`).join(' UNION ALL ');
      return w.mbql({ 'source-query': { native }, aggregation: [['count']], breakout: [['field', 'T', { 'base-type': 'type/DateTime', 'temporal-unit': unit }]] });
    },
    expect: () =>
      ({
        millisecond: [['2024-01-01T10:00:00.123Z', 2], ['2024-01-01T10:00:00.124Z', 1], ['2024-01-01T10:00:01.500Z', 1]],
        second: [['2024-01-01T10:00:00Z', 3], ['2024-01-01T10:00:01Z', 1]],
      })[unit],
  })),

  // ----- legacy spellings and MBQL 5 ------------------------------------------------------------------------------------
  { name: 'legacy field-id, datetime-field, fk-> and upper-case clauses', build: (w) => orders(w, { aggregation: ['COUNT'], breakout: [['datetime-field', ['field-id', w.fid('ORDERS', 'CREATED_AT')], 'YEAR'], ['fk->', ['field-id', w.fid('ORDERS', 'PRODUCT_ID')], ['field-id', w.fid('PRODUCTS', 'CATEGORY')]]], filter: ['AND', ['>', w.fid('ORDERS', 'QUANTITY'), 1], ['NOT_NULL', ['field-id', w.fid('ORDERS', 'TAX')]]] }) },
  { name: 'legacy binning-strategy, named and ascending', build: (w) => products(w, { aggregation: [['named', ['count'], 'How many']], breakout: [['binning-strategy', ['field-id', w.fid('PRODUCTS', 'PRICE')], 'bin-width', 25]], 'order-by': [[['aggregate-field', 0], 'descending']] }) },
  { name: 'legacy field-literal in a nested query', build: (w) => w.mbql({ 'source-query': { 'source-table': w.t('PRODUCTS'), aggregation: count, breakout: [w.f('PRODUCTS', 'CATEGORY')] }, filter: ['>', ['field-literal', 'count', 'type/Integer'], 50], fields: [['field-literal', 'CATEGORY', 'type/Text']] }) },
  { name: 'snake_case keys', build: (w) => ({ database: w.id, type: 'query', query: { source_table: w.t('ORDERS'), aggregation: [['count']], order_by: [], breakout: [w.f('ORDERS', 'QUANTITY')], limit: 5 } }) },
  { name: 'MBQL 5 input', build: (w) => ({
    'lib/type': 'mbql/query', database: w.id,
    stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-table': w.t('ORDERS'), aggregation: [['count', { 'lib/uuid': 'a1' }], ['sum', { 'lib/uuid': 'a2', name: 'revenue' }, ['field', { 'lib/uuid': 'f1', 'base-type': 'type/Float' }, w.fid('ORDERS', 'TOTAL')]]], breakout: [['field', { 'lib/uuid': 'f2', 'temporal-unit': 'year' }, w.fid('ORDERS', 'CREATED_AT')]], filters: [['>', { 'lib/uuid': 'x' }, ['field', { 'lib/uuid': 'f3' }, w.fid('ORDERS', 'QUANTITY')], 2]], 'order-by': [['desc', { 'lib/uuid': 'o' }, ['aggregation', { 'lib/uuid': 'r' }, 'a1']]] }],
  }) },
  { name: 'MBQL 5 with two stages and an expression', build: (w) => ({
    'lib/type': 'mbql/query', database: w.id,
    stages: [
      { 'lib/type': 'mbql.stage/mbql', 'source-table': w.t('PRODUCTS'), expressions: [['*', { 'lib/uuid': 'e', 'lib/expression-name': 'Double' }, ['field', { 'lib/uuid': 'p' }, w.fid('PRODUCTS', 'PRICE')], 2]], aggregation: [['avg', { 'lib/uuid': 'a' }, ['expression', { 'lib/uuid': 'x' }, 'Double']]], breakout: [['field', { 'lib/uuid': 'c' }, w.fid('PRODUCTS', 'CATEGORY')]] },
      { 'lib/type': 'mbql.stage/mbql', filters: [['>', { 'lib/uuid': 'f' }, ['field', { 'lib/uuid': 'g', 'base-type': 'type/Float' }, 'avg'], 100]] },
    ],
  }) },
];
