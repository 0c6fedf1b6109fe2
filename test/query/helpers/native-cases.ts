// The native half of the cross-engine matrix: portable SQL (identifiers written "LIKE_THIS" and quoted for MySQL
// with backticks), template tags of every type, optional clauses and field filters with every widget type.

import type { Case } from './mbql-cases.js';
import { O, P, PE, A } from './mbql-cases.js';
import type { Warehouse } from './warehouses.js';

/** Double-quoted identifiers → the engine's quoting. */
export function q(w: Warehouse, sql: string): string {
  return w.engine === 'mysql' ? sql.replace(/"([A-Z_]+)"/g, '`$1`') : sql;
}

const tag = (name: string, type: string, extra: Record<string, unknown> = {}) => ({ id: `id-${name}`, name, 'display-name': name.toUpperCase(), type, ...extra });
const dim = (w: Warehouse, name: string, table: string, field: string, widget: string, extra: Record<string, unknown> = {}) =>
  tag(name, 'dimension', { dimension: w.f(table, field), 'widget-type': widget, ...extra });
const variable = (name: string, value: unknown, type = 'category') => ({ type, target: ['variable', ['template-tag', name]], value });
const dimension = (name: string, value: unknown, type: string) => ({ type, target: ['dimension', ['template-tag', name]], value });
const scalar = (v: unknown) => [[v]];

/** `SELECT COUNT(*) FROM table WHERE {{f}}` with a field filter on table.field. */
function filterCount(table: string, field: string, widget: string, value: unknown, type = widget, extra: Record<string, unknown> = {}) {
  return (w: Warehouse) =>
    w.native(q(w, `SELECT COUNT(*) AS n FROM "${table}" WHERE {{f}}`), { f: dim(w, 'f', table, field, widget, extra) }, { parameters: value === undefined ? [] : [dimension('f', value, type)] });
}

export const NATIVE_CASES: Case[] = [
  { name: 'select count', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "ORDERS"')), expect: (_r, s) => scalar(s.ORDERS.length) },
  { name: 'group by', build: (w) => w.native(q(w, 'SELECT "CATEGORY" AS c, COUNT(*) AS n FROM "PRODUCTS" GROUP BY "CATEGORY" ORDER BY "CATEGORY"')) },
  { name: 'sum and avg of doubles', build: (w) => w.native(q(w, 'SELECT SUM("TOTAL") AS s, AVG("TOTAL") AS a FROM "ORDERS"')) },
  { name: 'columns of every type', build: (w) => w.native(q(w, 'SELECT "ID", "NAME", "LATITUDE", "BIRTH_DATE", "CREATED_AT" FROM "PEOPLE" ORDER BY "ID" LIMIT 20')) },
  { name: 'nulls', build: (w) => w.native(q(w, 'SELECT "ID", "DISCOUNT" FROM "ORDERS" WHERE "ID" < 30 ORDER BY "ID"')) },
  { name: 'coalesce and case', build: (w) => w.native(q(w, "SELECT \"ID\", COALESCE(\"DISCOUNT\", 0) AS d, CASE WHEN \"QUANTITY\" > 3 THEN 'many' ELSE 'few' END AS k FROM \"ORDERS\" WHERE \"ID\" < 20 ORDER BY \"ID\"")) },
  { name: 'join', build: (w) => w.native(q(w, 'SELECT p."CATEGORY" AS c, COUNT(*) AS n FROM "ORDERS" o JOIN "PRODUCTS" p ON o."PRODUCT_ID" = p."ID" GROUP BY p."CATEGORY" ORDER BY p."CATEGORY"')) },
  { name: 'subquery', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "PRODUCTS" WHERE "ID" IN (SELECT "PRODUCT_ID" FROM "REVIEWS" WHERE "RATING" = 5)')) },
  { name: 'common table expression', build: (w) => w.native(q(w, 'WITH big AS (SELECT "USER_ID" FROM "ORDERS" WHERE "TOTAL" > 100) SELECT COUNT(DISTINCT "USER_ID") AS n FROM big')) },
  { name: 'window function', build: (w) => w.native(q(w, 'SELECT "ID", ROW_NUMBER() OVER (PARTITION BY "CATEGORY" ORDER BY "ID") AS rn FROM "PRODUCTS" ORDER BY "ID" LIMIT 30')) },
  { name: 'union all', build: (w) => w.native(q(w, "SELECT 'products' AS t, COUNT(*) AS n FROM \"PRODUCTS\" UNION ALL SELECT 'people' AS t, COUNT(*) AS n FROM \"PEOPLE\"")), unordered: true },
  { name: 'duplicate column names', build: (w) => w.native(q(w, 'SELECT "ID", "ID" FROM "PRODUCTS" ORDER BY "ID" LIMIT 3')) },
  { name: 'order by and limit', build: (w) => w.native(q(w, 'SELECT "ID", "TOTAL" FROM "ORDERS" ORDER BY "TOTAL" DESC, "ID" LIMIT 10')) },
  // raw-value template tags
  { name: 'number tag', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "ORDERS" WHERE "QUANTITY" > {{min}}'), { min: tag('min', 'number') }, { parameters: [variable('min', 5, 'number/=')] }), expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.QUANTITY] as number) > 5).length) },
  { name: 'number tag from a string', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "ORDERS" WHERE "TOTAL" > {{min}}'), { min: tag('min', 'number') }, { parameters: [variable('min', '99.5', 'number')] }) },
  { name: 'number tag with a list for IN', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "ORDERS" WHERE "QUANTITY" IN ({{qs}})'), { qs: tag('qs', 'number') }, { parameters: [variable('qs', '1,2,3', 'number')] }), expect: (_r, s) => scalar(s.ORDERS.filter((r) => [1, 2, 3].includes(r[O.QUANTITY] as number)).length) },
  { name: 'text tag', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "PRODUCTS" WHERE "CATEGORY" = {{cat}}'), { cat: tag('cat', 'text') }, { parameters: [variable('cat', 'Gadget')] }), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => r[P.CATEGORY] === 'Gadget').length) },
  { name: 'text tag with several values', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "PRODUCTS" WHERE "CATEGORY" IN ({{cat}})'), { cat: tag('cat', 'text') }, { parameters: [variable('cat', ['Gadget', 'Gizmo'])] }) },
  { name: 'text tag default', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "PRODUCTS" WHERE "CATEGORY" = {{cat}}'), { cat: tag('cat', 'text', { default: 'Widget' }) }) },
  { name: 'date tag', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "ORDERS" WHERE "CREATED_AT" >= {{since}}'), { since: tag('since', 'date') }, { parameters: [variable('since', '2026-01-01', 'date/single')] }), expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.CREATED_AT] as number) >= Date.UTC(2026, 0, 1)).length) },
  { name: 'date tag on a DATE column', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "PEOPLE" WHERE "BIRTH_DATE" < {{before}}'), { before: tag('before', 'date') }, { parameters: [variable('before', '1970-01-01', 'date/single')] }), expect: (_r, s) => scalar(s.PEOPLE.filter((r) => (r[PE.BIRTH_DATE] as string) < '1970-01-01').length) },
  { name: 'boolean tag', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "ACCOUNTS" WHERE "TRIAL_CONVERTED" = {{b}}'), { b: tag('b', 'boolean') }, { parameters: [variable('b', true, 'boolean')] }) },
  { name: 'optional clause with a value', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "ORDERS" WHERE 1 = 1 [[AND "QUANTITY" = {{qty}}]]'), { qty: tag('qty', 'number') }, { parameters: [variable('qty', 2, 'number/=')] }), expect: (_r, s) => scalar(s.ORDERS.filter((r) => r[O.QUANTITY] === 2).length) },
  { name: 'optional clause without a value is dropped', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "ORDERS" WHERE 1 = 1 [[AND "QUANTITY" = {{qty}}]]'), { qty: tag('qty', 'number') }), expect: (_r, s) => scalar(s.ORDERS.length) },
  { name: 'optional clause with a default', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "ORDERS" [[WHERE "QUANTITY" = {{qty}}]]'), { qty: tag('qty', 'number', { default: 7 }) }) },
  { name: 'parameter cleared with null ignores the default', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "ORDERS" [[WHERE "QUANTITY" = {{qty}}]]'), { qty: tag('qty', 'number', { default: 7 }) }, { parameters: [variable('qty', null, 'number/=')] }), expect: (_r, s) => scalar(s.ORDERS.length) },
  { name: 'two optional clauses', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "ORDERS" WHERE 1 = 1 [[AND "QUANTITY" >= {{lo}}]] [[AND "QUANTITY" <= {{hi}}]]'), { lo: tag('lo', 'number'), hi: tag('hi', 'number') }, { parameters: [variable('hi', 4, 'number/=')] }) },
  { name: 'tag targeted by id', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "PRODUCTS" WHERE "CATEGORY" = {{cat}}'), { cat: tag('cat', 'text') }, { parameters: [{ type: 'category', target: ['variable', ['template-tag', { id: 'id-cat' }]], value: 'Doohickey' }] }) },
  // field filters
  { name: 'field filter string/= one value', build: filterCount('PRODUCTS', 'CATEGORY', 'string/=', ['Widget']), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => r[P.CATEGORY] === 'Widget').length) },
  { name: 'field filter category several values', build: filterCount('PRODUCTS', 'CATEGORY', 'category', ['Widget', 'Gizmo']) },
  { name: 'field filter string/!=', build: filterCount('PRODUCTS', 'CATEGORY', 'string/!=', ['Widget']) },
  { name: 'field filter string/contains (case-insensitive)', build: filterCount('PRODUCTS', 'TITLE', 'string/contains', ['steel']), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => (r[P.TITLE] as string).toLowerCase().includes('steel')).length) },
  { name: 'field filter string/contains case-sensitive option', build: filterCount('PRODUCTS', 'TITLE', 'string/contains', ['steel'], 'string/contains', { options: { 'case-sensitive': true } }), expect: () => scalar(0) },
  { name: 'field filter string/does-not-contain', build: filterCount('PRODUCTS', 'TITLE', 'string/does-not-contain', ['steel']) },
  { name: 'field filter string/starts-with', build: filterCount('PRODUCTS', 'TITLE', 'string/starts-with', ['small']) },
  { name: 'field filter string/ends-with', build: filterCount('PRODUCTS', 'TITLE', 'string/ends-with', ['watch']) },
  { name: 'field filter string/!= keeps NULLs (exact)', build: filterCount('ACCOUNTS', 'SOURCE', 'string/!=', ['Facebook']), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.SOURCE] !== 'Facebook').length) },
  { name: 'field filter string/does-not-contain keeps NULLs (exact)', build: filterCount('ACCOUNTS', 'SOURCE', 'string/does-not-contain', ['oo']), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => !String(r[A.SOURCE] ?? '').includes('oo')).length) },
  { name: 'field filter exclude months keeps NULLs (exact)', build: filterCount('ACCOUNTS', 'CANCELED_AT', 'date/all-options', 'exclude-months-Jan'), expect: (_r, s) => scalar(s.ACCOUNTS.filter((r) => r[A.CANCELED_AT] === null || new Date(r[A.CANCELED_AT] as number).getUTCMonth() !== 0).length) },
  { name: 'field filter string/= is case-sensitive (exact)', build: filterCount('PRODUCTS', 'CATEGORY', 'string/=', ['gizmo']), expect: () => scalar(0) },
  { name: 'field filter number/=', build: filterCount('ORDERS', 'QUANTITY', 'number/=', [4]) },
  { name: 'field filter number/!=', build: filterCount('ORDERS', 'QUANTITY', 'number/!=', [4, 5]) },
  { name: 'field filter number/between', build: filterCount('PRODUCTS', 'PRICE', 'number/between', [30, 60]), expect: (_r, s) => scalar(s.PRODUCTS.filter((r) => (r[P.PRICE] as number) >= 30 && (r[P.PRICE] as number) <= 60).length) },
  { name: 'field filter number/>=', build: filterCount('PRODUCTS', 'PRICE', 'number/>=', [75]) },
  { name: 'field filter number/<=', build: filterCount('PRODUCTS', 'PRICE', 'number/<=', [25]) },
  { name: 'field filter id', build: filterCount('ORDERS', 'USER_ID', 'id', [1, 2, 3]) },
  { name: 'field filter date/single', build: filterCount('ORDERS', 'CREATED_AT', 'date/single', '2025-03-14') },
  { name: 'field filter date/range', build: filterCount('ORDERS', 'CREATED_AT', 'date/range', '2024-01-01~2024-03-31'), expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.CREATED_AT] as number) >= Date.UTC(2024, 0, 1) && (r[O.CREATED_AT] as number) < Date.UTC(2024, 3, 1)).length) },
  { name: 'field filter date/month-year', build: filterCount('ORDERS', 'CREATED_AT', 'date/month-year', '2024-03') },
  { name: 'field filter date/quarter-year', build: filterCount('ORDERS', 'CREATED_AT', 'date/quarter-year', 'Q2-2024'), expect: (_r, s) => scalar(s.ORDERS.filter((r) => (r[O.CREATED_AT] as number) >= Date.UTC(2024, 3, 1) && (r[O.CREATED_AT] as number) < Date.UTC(2024, 6, 1)).length) },
  { name: 'field filter date/relative past2years', build: filterCount('ORDERS', 'CREATED_AT', 'date/relative', 'past2years') },
  { name: 'field filter date/relative past2years~', build: filterCount('ORDERS', 'CREATED_AT', 'date/relative', 'past2years~') },
  { name: 'field filter date/relative lastyear', build: filterCount('ORDERS', 'CREATED_AT', 'date/relative', 'lastyear') },
  { name: 'field filter date/relative thisyear', build: filterCount('ORDERS', 'CREATED_AT', 'date/relative', 'thisyear') },
  { name: 'field filter date/relative next3years', build: filterCount('ACCOUNTS', 'CREATED_AT', 'date/relative', 'next3years') },
  { name: 'field filter date/relative with -from-', build: filterCount('ORDERS', 'CREATED_AT', 'date/relative', 'past6months-from-1years') },
  { name: 'field filter date/all-options before', build: filterCount('ORDERS', 'CREATED_AT', 'date/all-options', '~2023-01-01') },
  { name: 'field filter date/all-options after', build: filterCount('ORDERS', 'CREATED_AT', 'date/all-options', '2026-01-01~') },
  { name: 'field filter exclude days', build: filterCount('ORDERS', 'CREATED_AT', 'date/all-options', 'exclude-days-Sat-Sun'), expect: (_r, s) => scalar(s.ORDERS.filter((r) => { const d = new Date(r[O.CREATED_AT] as number).getUTCDay(); return d !== 0 && d !== 6; }).length) },
  { name: 'field filter exclude months', build: filterCount('ORDERS', 'CREATED_AT', 'date/all-options', 'exclude-months-Jan-Dec') },
  { name: 'field filter exclude quarters', build: filterCount('ORDERS', 'CREATED_AT', 'date/all-options', 'exclude-quarters-1') },
  { name: 'field filter exclude hours', build: filterCount('ORDERS', 'CREATED_AT', 'date/all-options', 'exclude-hours-0-1-2-3') },
  { name: 'field filter on a DATE column', build: filterCount('PEOPLE', 'BIRTH_DATE', 'date/range', '1980-01-01~1980-12-31'), expect: (_r, s) => scalar(s.PEOPLE.filter((r) => (r[PE.BIRTH_DATE] as string).startsWith('1980')).length) },
  { name: 'field filter without a value is 1 = 1', build: filterCount('ORDERS', 'QUANTITY', 'number/=', undefined), expect: (_r, s) => scalar(s.ORDERS.length) },
  { name: 'field filter with the tag alias option', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "PRODUCTS" p WHERE {{f}}'), { f: dim(w, 'f', 'PRODUCTS', 'CATEGORY', 'string/=', { alias: 'p' }) }, { parameters: [dimension('f', ['Gizmo'], 'string/=')] }) },
  { name: 'field filter in an optional clause without a value', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "PRODUCTS" WHERE 1 = 1 [[AND {{f}}]]'), { f: dim(w, 'f', 'PRODUCTS', 'CATEGORY', 'string/=') }), expect: (_r, s) => scalar(s.PRODUCTS.length) },
  { name: 'field filter default value', build: (w) => w.native(q(w, 'SELECT COUNT(*) AS n FROM "PRODUCTS" WHERE {{f}}'), { f: dim(w, 'f', 'PRODUCTS', 'CATEGORY', 'string/=', { default: ['Gadget'] }) }) },
  // native sources in MBQL
  { name: 'MBQL over a native source', build: (w) => w.mbql({ 'source-query': { native: q(w, 'SELECT "CATEGORY", "PRICE" FROM "PRODUCTS"') }, aggregation: [['count'], ['sum', ['field', 'PRICE', { 'base-type': 'type/Float' }]]], breakout: [['field', 'CATEGORY', { 'base-type': 'type/Text' }]] }) },
  { name: 'MBQL over a native source with a tag default', build: (w) => w.mbql({ 'source-query': { native: q(w, 'SELECT "ID" FROM "ORDERS" WHERE "QUANTITY" = {{qty}}'), 'template-tags': { qty: tag('qty', 'number', { default: 3 }) } }, aggregation: count }) },
];

const count = [['count']];
