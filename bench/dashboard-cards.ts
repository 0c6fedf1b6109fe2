// The 25-card sales dashboard the dashboard benchmarks build on the Sample Database (bench/dashboard.ts for the API,
// bench/web-dashboard.ts for the browser): its cards' queries, the display each is drawn as, and the Category filter.

import { Api, waitFor } from './server.js';

type Obj = Record<string, any>;

export interface Schema {
  db: number;
  t(name: string): number;
  f(table: string, name: string): number;
}

export async function schemaOf(api: Api, db: number): Promise<Schema> {
  const md = await waitFor('synced metadata', async () => {
    const m = await api.ok('GET', `/api/database/${db}/metadata`);
    const names = new Set(m.tables.filter((t: Obj) => t.fields?.length).map((t: Obj) => t.name.toUpperCase()));
    const fks = m.tables.flatMap((t: Obj) => t.fields ?? []).filter((f: Obj) => f.fk_target_field_id);
    return ['ORDERS', 'PEOPLE', 'PRODUCTS', 'REVIEWS'].every((n) => names.has(n)) && fks.length >= 3 ? m : null;
  });
  const tables = new Map<string, Obj>(md.tables.map((t: Obj) => [t.name.toUpperCase(), t]));
  return {
    db,
    t: (name) => tables.get(name)!.id,
    f: (table, name) => tables.get(table)!.fields.find((x: Obj) => x.name.toUpperCase() === name).id,
  };
}

/** The dashboard's filter: product category, wired to every card that reaches PRODUCTS. */
export const CATEGORY = { id: 'category', name: 'Category', slug: 'category', type: 'string/=', sectionId: 'string' };

/**
 * 25 cards of the kinds a sales dashboard has: scalars, time series, breakdowns with joins, tables, native SQL — each
 * with the field the Category filter is wired to on it (none for cards that can't reach PRODUCTS).
 */
export function dashboardQueries(s: Schema, quote: (n: string) => string): Array<{ name: string; query: Obj; category: unknown[] | null }> {
  const F = (t: string, n: string, opts: Obj | null = null) => ['field', s.f(t, n), opts];
  const via = (fk: [string, string], t: string, n: string) => ['field', s.f(t, n), { 'source-field': s.f(fk[0], fk[1]) }];
  const product: [string, string] = ['ORDERS', 'PRODUCT_ID'];
  const user: [string, string] = ['ORDERS', 'USER_ID'];
  const mbql = (table: string, inner: Obj) => ({ database: s.db, type: 'query', query: { 'source-table': s.t(table), ...inner } });
  const month = (t: string) => F(t, 'CREATED_AT', { 'temporal-unit': 'month' });
  const q = (n: string) => quote(n);
  const cards: Array<{ name: string; query: Obj }> = [
    { name: 'Orders', query: mbql('ORDERS', { aggregation: [['count']] }) },
    { name: 'Revenue', query: mbql('ORDERS', { aggregation: [['sum', F('ORDERS', 'TOTAL')]] }) },
    { name: 'Average order', query: mbql('ORDERS', { aggregation: [['avg', F('ORDERS', 'TOTAL')]] }) },
    { name: 'Orders by month', query: mbql('ORDERS', { aggregation: [['count']], breakout: [month('ORDERS')] }) },
    { name: 'Revenue by month', query: mbql('ORDERS', { aggregation: [['sum', F('ORDERS', 'TOTAL')]], breakout: [month('ORDERS')] }) },
    { name: 'Orders by category', query: mbql('ORDERS', { aggregation: [['count']], breakout: [via(product, 'PRODUCTS', 'CATEGORY')] }) },
    { name: 'Revenue by category and month', query: mbql('ORDERS', { aggregation: [['sum', F('ORDERS', 'TOTAL')]], breakout: [via(product, 'PRODUCTS', 'CATEGORY'), month('ORDERS')] }) },
    { name: 'Orders by source', query: mbql('ORDERS', { aggregation: [['count']], breakout: [via(user, 'PEOPLE', 'SOURCE')] }) },
    { name: 'Orders by state', query: mbql('ORDERS', { aggregation: [['count']], breakout: [via(user, 'PEOPLE', 'STATE')] }) },
    { name: 'Discount by category', query: mbql('ORDERS', { aggregation: [['avg', F('ORDERS', 'DISCOUNT')]], breakout: [via(product, 'PRODUCTS', 'CATEGORY')] }) },
    { name: 'People by source', query: mbql('PEOPLE', { aggregation: [['count']], breakout: [F('PEOPLE', 'SOURCE')] }) },
    { name: 'Signups by week', query: mbql('PEOPLE', { aggregation: [['count']], breakout: [F('PEOPLE', 'CREATED_AT', { 'temporal-unit': 'week' })] }) },
    { name: 'Price by category', query: mbql('PRODUCTS', { aggregation: [['avg', F('PRODUCTS', 'PRICE')]], breakout: [F('PRODUCTS', 'CATEGORY')] }) },
    { name: 'Rating by category', query: mbql('REVIEWS', { aggregation: [['avg', F('REVIEWS', 'RATING')]], breakout: [['field', s.f('PRODUCTS', 'CATEGORY'), { 'source-field': s.f('REVIEWS', 'PRODUCT_ID') }]] }) },
    { name: 'Reviews by month', query: mbql('REVIEWS', { aggregation: [['count']], breakout: [month('REVIEWS')] }) },
    { name: 'Buyers', query: mbql('ORDERS', { aggregation: [['distinct', F('ORDERS', 'USER_ID')]] }) },
    { name: 'Orders by quantity', query: mbql('ORDERS', { aggregation: [['count']], breakout: [F('ORDERS', 'QUANTITY')] }) },
    { name: 'Subtotal by year and category', query: mbql('ORDERS', { aggregation: [['sum', F('ORDERS', 'SUBTOTAL')]], breakout: [F('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' }), via(product, 'PRODUCTS', 'CATEGORY')] }) },
    { name: 'Top products', query: mbql('ORDERS', { aggregation: [['sum', F('ORDERS', 'TOTAL')]], breakout: [via(product, 'PRODUCTS', 'TITLE')], 'order-by': [['desc', ['aggregation', 0]]], limit: 10 }) },
    { name: 'People by state', query: mbql('PEOPLE', { aggregation: [['count']], breakout: [F('PEOPLE', 'STATE')] }) },
    { name: 'Orders by weekday', query: mbql('ORDERS', { aggregation: [['count']], breakout: [F('ORDERS', 'CREATED_AT', { 'temporal-unit': 'day-of-week' })] }) },
    { name: 'Latest orders', query: mbql('ORDERS', { 'order-by': [['desc', F('ORDERS', 'CREATED_AT')]] }) },
    { name: 'People', query: mbql('PEOPLE', {}) },
    {
      name: 'Native: orders per category',
      query: { database: s.db, type: 'native', native: { query: `SELECT p.${q('CATEGORY')}, COUNT(*) AS n FROM ${q('ORDERS')} o JOIN ${q('PRODUCTS')} p ON p.${q('ID')} = o.${q('PRODUCT_ID')} GROUP BY p.${q('CATEGORY')}` } },
    },
    {
      name: 'Native: big spenders',
      query: { database: s.db, type: 'native', native: { query: `SELECT ${q('USER_ID')}, SUM(${q('TOTAL')}) AS spent FROM ${q('ORDERS')} GROUP BY ${q('USER_ID')} ORDER BY spent DESC` } },
    },
  ];
  const categoryOf: Record<number, unknown[]> = {
    [s.t('ORDERS')]: via(product, 'PRODUCTS', 'CATEGORY'),
    [s.t('PRODUCTS')]: F('PRODUCTS', 'CATEGORY'),
    [s.t('REVIEWS')]: ['field', s.f('PRODUCTS', 'CATEGORY'), { 'source-field': s.f('REVIEWS', 'PRODUCT_ID') }],
  };
  return cards.map((c) => ({ ...c, category: c.query.type === 'query' ? categoryOf[c.query.query['source-table']] ?? null : null }));
}


/** How a browser draws each card: a number, a line over time, bars by category, or a table of rows. */
export function displayOf(query: Obj): string {
  if (query.type !== 'query') return 'table';
  const inner = query.query as Obj;
  if (!inner.aggregation) return 'table';
  const breakout = (inner.breakout ?? []) as unknown[][];
  if (breakout.length === 0) return 'scalar';
  const unit = (ref: unknown[]) => (ref[2] as Obj | null)?.['temporal-unit'];
  return breakout.some((ref) => ['month', 'week'].includes(unit(ref))) ? 'line' : 'bar';
}

/**
 * Saves the cards and a dashboard showing them 4 to a row of the 24-column grid (6 wide, `sizeY` tall), the Category
 * filter wired to each card that reaches PRODUCTS. Returns the saved dashboard (GET's shape, with its dashcards).
 */
export async function createBenchDashboard(api: Api, queries: ReturnType<typeof dashboardQueries>, options: { name: string; display: (query: Obj) => string; sizeY: number }): Promise<Obj> {
  const cards: Obj[] = [];
  for (const { name, query } of queries) {
    cards.push(await api.ok('POST', '/api/card', { name, display: options.display(query), visualization_settings: {}, dataset_query: query, result_metadata: [] }));
  }
  const dash = await api.ok('POST', '/api/dashboard', { name: options.name, parameters: [CATEGORY] });
  return api.ok('PUT', `/api/dashboard/${dash.id}`, {
    dashcards: cards.map((c, i) => ({
      id: -(i + 1),
      card_id: c.id,
      row: Math.floor(i / 4) * options.sizeY,
      col: (i % 4) * 6,
      size_x: 6,
      size_y: options.sizeY,
      parameter_mappings: queries[i].category ? [{ parameter_id: CATEGORY.id, card_id: c.id, target: ['dimension', queries[i].category] }] : [],
    })),
  });
}
