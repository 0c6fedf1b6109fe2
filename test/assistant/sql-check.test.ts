// The check of SQL a model wrote: one read-only statement reading only the database's tables (and its own WITH
// names), whatever tricks the text plays; and the extraction of SQL from an answer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkGeneratedSql, SqlRefusal } from '../../src/assistant/sql-check.js';
import { extractSql } from '../../src/assistant/extract-sql.js';

const tables = [{ schema: 'PUBLIC', name: 'ORDERS' }, { schema: 'PUBLIC', name: 'PRODUCTS' }, { schema: 'sales', name: 'customers' }];
const check = (sql: string, engine = 'postgres') => checkGeneratedSql(sql, { engine, tables });
const refused = (sql: string, engine = 'postgres') => {
  try {
    check(sql, engine);
  } catch (error) {
    if (error instanceof SqlRefusal) return error.message;
    throw error;
  }
  return null;
};

test('read-only queries on known tables pass, trimmed of a final semicolon', () => {
  assert.equal(check('SELECT COUNT(*) FROM ORDERS;  '), 'SELECT COUNT(*) FROM ORDERS');
  for (const sql of [
    'select o.total from orders o join products p on o.product_id = p.id',
    'SELECT * FROM "PUBLIC"."ORDERS", PRODUCTS AS p WHERE p.id = 1',
    'WITH recent AS (SELECT * FROM ORDERS), big AS (SELECT * FROM recent) SELECT COUNT(*) FROM big',
    "SELECT EXTRACT(YEAR FROM created_at) AS y, SUBSTRING(title FROM 1 FOR 3) FROM ORDERS",
    'SELECT * FROM (SELECT * FROM ORDERS) AS x, PRODUCTS',
    'SELECT a IS DISTINCT FROM b FROM sales.customers',
    "SELECT REPLACE(title, 'a', 'b') FROM PRODUCTS",
    "SELECT 'DELETE FROM ORDERS' AS text_not_a_statement FROM ORDERS",
    'SELECT "delete" FROM ORDERS',
    'SELECT comment, security, load, status AS set_name FROM ORDERS',
  ]) assert.equal(refused(sql), null, sql);
});

test('writes, several statements, locks and server functions are refused', () => {
  const cases: Array<[string, RegExp]> = [
    ['DELETE FROM ORDERS', /DELETE statements are not allowed/],
    ['UPDATE ORDERS SET total = 0', /UPDATE statements are not allowed/],
    ['WITH x AS (DELETE FROM ORDERS RETURNING *) SELECT * FROM x', /DELETE is not allowed/],
    ['SELECT * INTO copy FROM ORDERS', /INTO is not allowed/],
    ['SELECT 1; SELECT 2', /Only one statement/],
    ['SELECT 1 /* ; */ ; DROP TABLE ORDERS', /Only one statement/],
    ['SELECT * FROM ORDERS FOR UPDATE', /not allowed/],
    ['SELECT pg_sleep(100)', /pg_sleep is not allowed/],
    ["SELECT pg_read_file('/etc/passwd')", /pg_read_file is not allowed/],
    ['EXPLAIN SELECT 1', /EXPLAIN statements are not allowed/],
    ['PRAGMA table_info(ORDERS)', /PRAGMA/],
    ['', /no SQL/],
  ];
  for (const [sql, message] of cases) assert.match(refused(sql) ?? 'passed', message, sql);
  assert.match(refused('SELECT 1 /*! INTO OUTFILE "/tmp/x" */', 'mysql') ?? 'passed', /executable comments/);
});

test('only tables of the database are read', () => {
  assert.match(refused('SELECT * FROM pg_catalog.pg_user') ?? '', /pg_catalog\.pg_user, which is not a table you can query/i);
  assert.match(refused('SELECT * FROM ORDERS JOIN secrets ON true') ?? '', /SECRETS, which is not a table/i);
  assert.match(refused('SELECT * FROM other.ORDERS') ?? '', /OTHER\.ORDERS/i);
  assert.match(refused("SELECT * FROM read_csv('/etc/passwd')") ?? '', /function|read_csv/i);
  assert.match(refused("SELECT * FROM '/etc/passwd'") ?? '', /file or string/);
  assert.match(refused('SELECT * FROM generate_series(1, 10)') ?? '', /function generate_series/i);
  assert.equal(checkGeneratedSql('SELECT * FROM MY_MODEL', { engine: 'sqlite', tables: [], extraNames: ['MY_MODEL'] }), 'SELECT * FROM MY_MODEL');
});

test('SQL is found in fenced blocks and bare answers, and prose is not SQL', () => {
  assert.equal(extractSql('Sure!\n```sql\nSELECT 1\n```\nAnything else?'), 'SELECT 1');
  assert.equal(extractSql('```postgresql\nSELECT 2\n```'), 'SELECT 2');
  assert.equal(extractSql('```\nWITH x AS (SELECT 1) SELECT * FROM x\n```'), 'WITH x AS (SELECT 1) SELECT * FROM x');
  assert.equal(extractSql('  with x as (select 1) select * from x'), 'with x as (select 1) select * from x');
  assert.equal(extractSql('DELETE FROM ORDERS'), 'DELETE FROM ORDERS');
  assert.equal(extractSql('I cannot answer that.'), null);
  assert.equal(extractSql('Select the option you like'), 'Select the option you like');
});
