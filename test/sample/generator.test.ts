// The sample-database generator: exact row counts, the distributions of reference/sample-database.md §3.2, the
// derived columns, and determinism.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateSample } from '../../src/sample/generate.js';
import { SAMPLE_TABLES, SAMPLE_ROW_COUNTS, sampleTable } from '../../src/sample/schema.js';
import { US_STATES } from '../../src/sample/geography.js';

const rows = generateSample();
const col = (table: string, name: string) => sampleTable(table).columns.findIndex((c) => c.name === name);
const values = (table: string, name: string) => rows[table].map((r) => r[col(table, name)]);
const countBy = (list: unknown[]) => list.reduce<Map<unknown, number>>((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map());
const iso = (ms: unknown) => new Date(ms as number).toISOString();

test('every table has exactly the shipped row count and unique ids', () => {
  for (const table of SAMPLE_TABLES) {
    assert.equal(rows[table.name].length, SAMPLE_ROW_COUNTS[table.name], table.name);
    const ids = values(table.name, 'ID');
    assert.equal(new Set(ids).size, ids.length, `${table.name} ids are unique`);
    for (const row of rows[table.name]) assert.equal(row.length, table.columns.length);
  }
  assert.deepEqual(SAMPLE_ROW_COUNTS, { PRODUCTS: 200, PEOPLE: 2500, ORDERS: 18760, REVIEWS: 1112, ACCOUNTS: 2495, ANALYTIC_EVENTS: 37169, FEEDBACK: 642, INVOICES: 13856 });
});

test('e-commerce ids run 1..n, orders grouped by person and reviews by product', () => {
  for (const table of ['PRODUCTS', 'PEOPLE', 'ORDERS', 'REVIEWS']) assert.deepEqual(values(table, 'ID'), rows[table].map((_, i) => i + 1));
  const users = values('ORDERS', 'USER_ID') as number[];
  assert.ok(users.every((u, i) => i === 0 || u >= users[i - 1]));
  const products = values('REVIEWS', 'PRODUCT_ID') as number[];
  assert.ok(products.every((p, i) => i === 0 || p >= products[i - 1]));
});

test('products: categories 42/53/51/54, EAN-13 check digits, prices in [12, 100] with two humps', () => {
  assert.deepEqual(Object.fromEntries(countBy(values('PRODUCTS', 'CATEGORY'))), { Doohickey: 42, Gadget: 53, Gizmo: 51, Widget: 54 });
  for (const ean of values('PRODUCTS', 'EAN') as string[]) {
    assert.match(ean, /^\d{13}$/);
    const digits = [...ean].map(Number);
    const sum = digits.slice(0, 12).reduce((a, d, i) => a + d * (i % 2 === 0 ? 1 : 3), 0);
    assert.equal((10 - (sum % 10)) % 10, digits[12]);
  }
  const prices = values('PRODUCTS', 'PRICE') as number[];
  assert.ok(prices.every((p) => p >= 12 && p <= 100));
  const low = prices.filter((p) => p < 56).length;
  assert.ok(low > 60 && low < 140, `both humps present (${low} below the middle)`);
  assert.equal(new Set(values('PRODUCTS', 'VENDOR')).size, 200);
});

test('product RATING is the mean review rating truncated to one decimal (0 without reviews)', () => {
  const ratings = new Map<number, number[]>();
  for (const r of rows.REVIEWS) ratings.set(r[1] as number, [...(ratings.get(r[1] as number) ?? []), r[3] as number]);
  let unrated = 0;
  for (const p of rows.PRODUCTS) {
    const list = ratings.get(p[0] as number) ?? [];
    if (!list.length) unrated += 1;
    const expected = list.length ? Math.floor((list.reduce((a, b) => a + b, 0) / list.length) * 10 + 1e-9) / 10 : 0;
    assert.equal(p[col('PRODUCTS', 'RATING')], expected);
  }
  assert.ok(unrated >= 10 && unrated <= 40, `about 11% of products have no review (${unrated})`);
  const mean = (values('REVIEWS', 'RATING') as number[]).reduce((a, b) => a + b, 0) / SAMPLE_ROW_COUNTS.REVIEWS;
  assert.ok(mean > 3.7 && mean < 4.3, `review ratings lean to 4 and 5 (${mean})`);
});

test('people: ~500 per source, skewed states, own-name emails, every state but HI', () => {
  for (const [, n] of countBy(values('PEOPLE', 'SOURCE'))) assert.ok(n >= 450 && n <= 550);
  const states = countBy(values('PEOPLE', 'STATE'));
  assert.equal(states.size, 49);
  assert.ok(!states.has('HI') && !states.has('DC'));
  assert.equal(states.get('TX'), 194);
  assert.equal(US_STATES.reduce((a, s) => a + s.people, 0), 2500);
  const emails = values('PEOPLE', 'EMAIL') as string[];
  assert.equal(new Set(emails).size, 2500);
  for (const row of rows.PEOPLE.slice(0, 200)) {
    const [first, last] = String(row[col('PEOPLE', 'NAME')]).toLowerCase().split(' ');
    const local = String(row[col('PEOPLE', 'EMAIL')]).split('@')[0];
    assert.ok(local.includes(first) && local.includes(last), local);
  }
  assert.ok((values('PEOPLE', 'ZIP') as string[]).every((z) => /^\d{5}$/.test(z)));
  const created = (values('PEOPLE', 'CREATED_AT') as number[]).map(iso).sort();
  assert.ok(created[0] >= '2022-04-19' && created[created.length - 1] <= '2025-04-20');
});

test('orders: ~30% of people without orders, ~90% without discount, TOTAL = SUBTOTAL + TAX − DISCOUNT', () => {
  const buyers = new Set(values('ORDERS', 'USER_ID'));
  const share = (2500 - buyers.size) / 2500;
  assert.ok(share > 0.25 && share < 0.35, `people without orders: ${share}`);
  const discounts = values('ORDERS', 'DISCOUNT');
  const nullShare = discounts.filter((d) => d === null).length / discounts.length;
  assert.ok(nullShare > 0.87 && nullShare < 0.93, `discount null share ${nullShare}`);
  const priceOf = new Map(rows.PRODUCTS.map((p) => [p[0], p[col('PRODUCTS', 'PRICE')] as number]));
  for (const o of rows.ORDERS) {
    const [, , productId, subtotal, tax, total, discount, createdAt, quantity] = o as [number, number, number, number, number, number, number | null, number, number];
    assert.ok(Math.abs(total - (subtotal + tax - (discount ?? 0))) < 1e-9);
    const price = priceOf.get(productId)!;
    const expected = createdAt >= Date.UTC(2024, 0, 1) ? price * 1.5 : price;
    assert.ok(Math.abs(subtotal - expected) < 1e-9);
    assert.equal(Math.round(tax * 100) / 100, tax);
    assert.ok(Number.isInteger(quantity) && quantity >= 0 && quantity <= 100);
  }
  const created = (values('ORDERS', 'CREATED_AT') as number[]).map(iso).sort();
  assert.ok(created[0] >= '2022-04-19' && created[created.length - 1] <= '2026-04-19T14:08');
  const byMonth = (month: number) => {
    const list = rows.ORDERS.filter((o) => new Date(o[7] as number).getUTCMonth() === month).map((o) => o[8] as number);
    return list.reduce((a, b) => a + b, 0) / list.length;
  };
  assert.ok(byMonth(7) > 2 * byMonth(2), 'quantities are seasonal (August well above March)');
});

test('piespace tables keep their marginal distributions and references', () => {
  assert.deepEqual(Object.fromEntries(countBy(values('ACCOUNTS', 'PLAN'))), { Basic: 2378, Premium: 86, Business: 31 });
  assert.equal(values('ACCOUNTS', 'SOURCE').filter((s) => s === null).length, 835);
  assert.equal(values('ACCOUNTS', 'ACTIVE_SUBSCRIPTION').filter(Boolean).length, 464);
  const accounts = new Set(values('ACCOUNTS', 'ID'));
  for (const table of ['ANALYTIC_EVENTS', 'FEEDBACK', 'INVOICES']) assert.ok(values(table, 'ACCOUNT_ID').every((a) => accounts.has(a)), table);
  const events = countBy(values('ANALYTIC_EVENTS', 'EVENT'));
  assert.deepEqual(Object.fromEntries(events), { 'Page Viewed': 31985, 'Button Clicked': 5184 });
  for (const e of rows.ANALYTIC_EVENTS) assert.equal(e[4] === null, e[2] !== 'Page Viewed');
  assert.equal(Math.max(...(values('ANALYTIC_EVENTS', 'ID') as number[])), 37172);
  assert.equal(new Set(values('FEEDBACK', 'ACCOUNT_ID')).size, 642);
  const labels: Record<number, string> = { 1: 'Poor', 2: 'Below Average', 3: 'Average', 4: 'Good', 5: 'Great' };
  for (const f of rows.FEEDBACK) assert.equal(f[5], labels[f[4] as number]);
  assert.deepEqual(Object.fromEntries(countBy(values('INVOICES', 'PLAN'))), { Basic: 12579, Business: 1083, Premium: 194 });
  assert.equal(Math.max(...(values('INVOICES', 'ID') as number[])), 14101);
  const perAccount = countBy(values('INVOICES', 'ACCOUNT_ID'));
  assert.equal(perAccount.size, 2495);
  assert.ok([...perAccount.values()].every((n) => n >= 1 && n <= 22));
});

test('accounts: 1,687 / 473 distinct first / last names, seats with median 3, mean about 16, up to 1,325', () => {
  assert.equal(new Set(values('ACCOUNTS', 'FIRST_NAME')).size, 1687);
  assert.equal(new Set(values('ACCOUNTS', 'LAST_NAME')).size, 473);
  const seats = (values('ACCOUNTS', 'SEATS') as number[]).slice().sort((a, b) => a - b);
  const mean = seats.reduce((a, b) => a + b, 0) / seats.length;
  assert.ok(mean > 15 && mean < 17, `mean seats ${mean}`);
  assert.equal(seats[Math.floor(seats.length / 2)], 3);
  assert.equal(seats[0], 1);
  assert.equal(seats[seats.length - 1], 1325);
  const bucket = (lo: number, hi: number) => seats.filter((n) => n >= lo && n <= hi).length;
  assert.deepEqual([bucket(1, 1), bucket(2, 5), bucket(3, 3), bucket(6, 20), bucket(21, 100), bucket(101, Infinity)], [501, 1167, 954, 438, 306, 83]);
  for (const row of rows.ACCOUNTS.slice(0, 200)) {
    const local = String(row[col('ACCOUNTS', 'EMAIL')]).split('@')[0];
    assert.ok(local.includes(String(row[col('ACCOUNTS', 'FIRST_NAME')]).toLowerCase()) && local.includes(String(row[col('ACCOUNTS', 'LAST_NAME')]).toLowerCase()), local);
  }
});

test('generation is deterministic', () => {
  const again = generateSample(20240419 + 1);
  assert.notDeepEqual(again.PRODUCTS[0], rows.PRODUCTS[0]);
  assert.deepEqual(generateSample(20240419, { cache: false }), rows);
});
