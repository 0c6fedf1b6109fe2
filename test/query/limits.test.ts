// What every engine can run, on all four: clauses nested up to 100 levels (expression references expanded) and
// stages up to 50 run everywhere, one more fails with a message naming the clause — never the engine's "Expression
// tree is too large", "Thread stack overrun", "Too high level of nesting for select" or a stack overflow. A NUL
// character never reaches SQL text: names that become identifiers and native SQL are refused naming the clause, and
// NUL in values is bound — read and compared exactly on SQLite, MySQL and DuckDB, refused clearly on PostgreSQL,
// whose text can't hold it.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleWarehouseServer, ENGINES, type Engine, type Warehouse } from './helpers/warehouses.js';
import type { ApiResponse } from '../helpers/client.js';

const NUL_NAME = 'a\u0000b';
const NUL_MESSAGE = (what: string) => `Invalid ${what} "a\\u0000b": names used in SQL can't contain NUL characters (\\u0000).`;
const PG_NUL = /^PostgreSQL text can't contain NUL characters \(\\u0000\), so the value "a\\u0000b" can't be used in a query on it\.$/;

/** `clause` applied `depth` times around `leaf`, as `wrap` builds one level. */
function nest(depth: number, leaf: unknown, wrap: (inner: unknown, i: number) => unknown): unknown {
  let x = leaf;
  for (let i = 0; i < depth; i++) x = wrap(x, i);
  return x;
}

function assertFailed(r: ApiResponse, message: string | RegExp, label: string): void {
  assert.equal(r.status, 202, `${label}: ${r.text.slice(0, 200)}`);
  assert.equal(r.body.status, 'failed', `${label} ran`);
  assert.equal(r.body.error_type, 'invalid-query', `${label}: ${r.body.error}`);
  if (typeof message === 'string') assert.equal(r.body.error, message, label);
  else assert.match(r.body.error, message, label);
}

function assertCompleted(r: ApiResponse, label: string): void {
  assert.equal(r.status, 202, `${label}: ${r.text.slice(0, 200)}`);
  assert.equal(r.body.status, 'completed', `${label}: ${r.body.error}`);
}

describe('query limits and NUL characters', () => {
  const env = sampleWarehouseServer();
  const run = (query: unknown) => env.admin.post('/api/dataset', query);

  /** One expression column of ORDERS, limited to a row. */
  const expression = (w: Warehouse, x: unknown, extra: Record<string, unknown> = {}) =>
    w.mbql({ 'source-table': w.t('ORDERS'), expressions: { x, ...extra }, fields: [['expression', 'x']], limit: 1 });

  test('clauses nested 100 levels deep run on every engine; 101 fail naming the clause', async () => {
    for (const e of ENGINES) {
      const w = env.wh[e];
      const total = w.f('ORDERS', 'TOTAL');
      const shapes: Record<string, (depth: number) => unknown> = {
        '+': (d) => nest(d - 1, total, (x) => ['+', x, 1]),
        '/': (d) => nest(d - 1, total, (x) => ['/', x, 2]),
        concat: (d) => nest(d - 1, w.f('ORDERS', 'ID'), (x) => ['concat', x, 'a']),
        coalesce: (d) => nest(d - 1, total, (x) => ['coalesce', x, 0]),
      };
      for (const [name, build] of Object.entries(shapes)) {
        assertCompleted(await run(expression(w, build(100))), `${e} ${name} at 100`);
        assertFailed(await run(expression(w, build(101))), 'Invalid expression "x": clauses are nested more than 100 levels deep.', `${e} ${name} at 101`);
      }
      // case: each level is the case clause plus its condition's comparison.
      const cases = nest(49, 1, (x, i) => ['case', [[['=', w.f('ORDERS', 'ID'), i], x]], { default: 0 }]);
      assertCompleted(await run(expression(w, cases)), `${e} case`);
      // and/or levels, the comparison and its field ref.
      const filter = nest(98, ['>', total, 0], (x, i) => [i % 2 ? 'and' : 'or', x, ['<', total, 1e6]]);
      assertCompleted(await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], filter })), `${e} filter at 100`);
      const deeper = nest(99, ['>', total, 0], (x, i) => [i % 2 ? 'and' : 'or', x, ['<', total, 1e6]]);
      assertFailed(await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], filter: deeper })), 'Invalid filter: clauses are nested more than 100 levels deep.', `${e} filter at 101`);
      const aggregation = nest(100, ['count'], (x) => ['+', x, 1]);
      assertFailed(await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [aggregation] })), 'Invalid aggregation: clauses are nested more than 100 levels deep.', `${e} aggregation`);
    }
  });

  test('expressions using expressions count as written out: a chain past 100 levels, a doubling, a cycle', async () => {
    for (const e of ENGINES) {
      const w = env.wh[e];
      const chain: Record<string, unknown> = { e0: w.f('ORDERS', 'TOTAL') };
      for (let i = 1; i < 150; i++) chain[`e${i}`] = ['+', ['expression', `e${i - 1}`], 1];
      const long = w.mbql({ 'source-table': w.t('ORDERS'), expressions: chain, fields: [['expression', 'e149']], limit: 1 });
      assertFailed(await run(long), 'Invalid expression "e100": clauses are nested more than 100 levels deep.', `${e} chain`);
      // Each expression uses the previous one twice: 40 of them would be a trillion clauses of SQL.
      const doubling: Record<string, unknown> = { d0: w.f('ORDERS', 'TOTAL') };
      for (let i = 1; i < 40; i++) doubling[`d${i}`] = ['+', ['expression', `d${i - 1}`], ['expression', `d${i - 1}`]];
      const wide = w.mbql({ 'source-table': w.t('ORDERS'), expressions: doubling, fields: [['expression', 'd39']], limit: 1 });
      assertFailed(await run(wide), 'Invalid query: it has more than 100,000 clauses once the expressions and segments it uses are written out.', `${e} doubling`);
      const small: Record<string, unknown> = { d0: w.f('ORDERS', 'TOTAL') };
      for (let i = 1; i < 8; i++) small[`d${i}`] = ['+', ['expression', `d${i - 1}`], ['expression', `d${i - 1}`]];
      const firstOrder = { 'source-table': w.t('ORDERS'), 'order-by': [['asc', w.f('ORDERS', 'ID')]], limit: 1 };
      const fine = await run(w.mbql({ ...firstOrder, expressions: small, fields: [['expression', 'd7']] }));
      assertCompleted(fine, `${e} 128 copies`);
      const times = await run(w.mbql({ ...firstOrder, expressions: { t: ['*', w.f('ORDERS', 'TOTAL'), 128] }, fields: [['expression', 't']] }));
      assert.ok(Math.abs(fine.body.data.rows[0][0] - times.body.data.rows[0][0]) < 1e-6, `${e}: ${fine.body.data.rows[0][0]}`);
      const cycle = w.mbql({ 'source-table': w.t('ORDERS'), expressions: { a: ['+', ['expression', 'b'], 1], b: ['+', ['expression', 'a'], 1] }, fields: [['expression', 'a']], limit: 1 });
      assertFailed(await run(cycle), /^Expression "[ab]" refers to itself\.$/, `${e} cycle`);
    }
  });

  test('50 nested stages run on every engine; 51 fail before reaching one (MySQL stops at 63 nested SELECTs)', async () => {
    for (const e of ENGINES) {
      const w = env.wh[e];
      const stages = (n: number) => nest(n - 1, { 'source-table': w.t('ORDERS') }, (inner) => ({ 'source-query': inner }));
      assertCompleted(await run(w.mbql({ ...(stages(50) as object), limit: 1 })), `${e} 50 stages`);
      assertFailed(await run(w.mbql({ ...(stages(51) as object), limit: 1 })), 'Invalid query: its stages (source queries and joined queries) are nested more than 50 deep.', `${e} 51 stages`);
      // A joined query's stages count from the stage that joins it.
      const joinAt = (n: number) => w.mbql({ 'source-table': w.t('ORDERS'), joins: [{ 'source-query': stages(n), alias: 'J', condition: ['=', w.f('ORDERS', 'ID'), ['field', 'ID', { 'base-type': 'type/BigInteger', 'join-alias': 'J' }]] }], limit: 1 });
      assertCompleted(await run(joinAt(49)), `${e} join at 50`);
      assertFailed(await run(joinAt(50)), /nested more than 50 deep/, `${e} join at 51`);
    }
  });

  test('saved questions nesting past 50 stages fail the same way once they are resolved', async () => {
    const w = env.wh.sqlite;
    const stages = (n: number) => nest(n - 1, { 'source-table': w.t('ORDERS') }, (inner) => ({ 'source-query': inner }));
    const base = await env.admin.post('/api/card', { name: 'forty stages', display: 'table', visualization_settings: {}, dataset_query: w.mbql(stages(40) as Record<string, unknown>) });
    assert.equal(base.status, 200, base.text.slice(0, 200));
    const over = w.mbql(nest(11, { 'source-table': `card__${base.body.id}` }, (inner) => ({ 'source-query': inner })) as Record<string, unknown>);
    assertFailed(await run(over), /nested more than 50 deep/, 'card source');
    const under = w.mbql({ ...(nest(8, { 'source-table': `card__${base.body.id}` }, (inner) => ({ 'source-query': inner })) as object), limit: 1 });
    assertCompleted(await run(under), 'card source within the bound');
  });

  test('thousands of OR-ed conditions run on SQLite and DuckDB, whose parsers stop at 1,000 levels', async () => {
    for (const e of ['sqlite', 'duckdb'] as Engine[]) {
      const w = env.wh[e];
      const ids = Array.from({ length: 5000 }, (_, i) => i + 1);
      const filter = ['or', ...ids.map((id) => ['=', w.f('ORDERS', 'ID'), id])];
      const r = await run(w.mbql({ 'source-table': w.t('ORDERS'), aggregation: [['count']], filter }));
      assertCompleted(r, e);
      assert.deepEqual(r.body.data.rows, [[5000]], e);
    }
  });

  test('a NUL in a name that becomes an identifier is refused naming the clause, on every engine', async () => {
    for (const e of ENGINES) {
      const w = env.wh[e];
      const orders = { 'source-table': w.t('ORDERS') };
      const joinCondition = ['=', w.f('ORDERS', 'PRODUCT_ID'), ['field', w.fid('PRODUCTS', 'ID'), { 'join-alias': NUL_NAME }]];
      const cases: Array<[string, unknown, string]> = [
        ['expression name', w.mbql({ ...orders, expressions: { [NUL_NAME]: ['+', 1, 1] }, fields: [['expression', NUL_NAME]], limit: 1 }), 'expression name'],
        ['aggregation name', w.mbql({ ...orders, aggregation: [['aggregation-options', ['count'], { name: NUL_NAME, 'display-name': 'Count' }]] }), 'aggregation name'],
        ['breakout on it', w.mbql({ ...orders, expressions: { [NUL_NAME]: ['+', w.f('ORDERS', 'QUANTITY'), 1] }, breakout: [['expression', NUL_NAME]], aggregation: [['count']] }), 'expression name'],
        ['join alias', w.mbql({ ...orders, joins: [{ 'source-table': w.t('PRODUCTS'), alias: NUL_NAME, condition: joinCondition, fields: 'all' }], limit: 1 }), 'join alias'],
        ['column name', w.mbql({ 'source-query': orders, fields: [['field', NUL_NAME, { 'base-type': 'type/Integer' }]], limit: 1 }), 'column name'],
      ];
      for (const [label, query, what] of cases) {
        assertFailed(await run(query), NUL_MESSAGE(what), `${e} ${label}`);
        // /api/dataset/native answers an invalid query with a 400.
        const sql = await env.admin.post('/api/dataset/native', query);
        assert.equal(sql.status, 400, `${e} ${label} native`);
        assert.equal(sql.body.message, NUL_MESSAGE(what), `${e} ${label} native`);
      }
      // SQL text can't hold one either: the engine would run the text before it (DuckDB did, SQLite cut it).
      for (const text of ['SELECT 1 AS one\u0000; SELECT 2', 'SELECT 1 AS one /* a\u0000b */']) {
        assertFailed(await run(w.native(text)), "Invalid native query: SQL text can't contain NUL characters (\\u0000).", `${e} native SQL`);
      }
      // Saving such a query is the usual 400 of an invalid dataset_query.
      const saved = await env.admin.post('/api/card', { name: 'nul', display: 'table', visualization_settings: {}, dataset_query: cases[0][1] });
      assert.equal(saved.status, 400, e);
      assert.equal(saved.text, `Invalid dataset_query: ${NUL_MESSAGE('expression name')}`, e);
    }
  });

  test('NUL in values is bound: read and compared exactly where text holds it, refused clearly on PostgreSQL', async () => {
    const nulSql: Record<Engine, string> = {
      sqlite: "SELECT 'a' || char(0) || 'b' AS v UNION ALL SELECT 'plain'",
      duckdb: "SELECT 'a' || chr(0) || 'b' AS v UNION ALL SELECT 'plain'",
      mysql: "SELECT CONCAT('a', CHAR(0 USING utf8mb4), 'b') AS v UNION ALL SELECT 'plain'",
      postgres: "SELECT 'ab' AS v UNION ALL SELECT 'plain'",
    };
    for (const e of ENGINES) {
      const w = env.wh[e];
      const v = ['field', 'v', { 'base-type': 'type/Text' }];
      const count = (filter: unknown) => w.mbql({ 'source-query': { native: nulSql[e] }, aggregation: [['count']], filter });
      const tag = w.native('SELECT {{x}} AS v', { x: { name: 'x', 'display-name': 'X', type: 'text' } }, { parameters: [{ type: 'category', target: ['variable', ['template-tag', 'x']], value: NUL_NAME }] });
      const equal = count(['=', v, NUL_NAME]);
      if (e === 'postgres') {
        for (const query of [equal, count(['contains', v, NUL_NAME]), tag]) assertFailed(await run(query), PG_NUL, e);
        const sql = await env.admin.post('/api/dataset/native', equal);
        assert.equal(sql.status, 400);
        assert.match(sql.body.message, PG_NUL);
        continue;
      }
      const rows = await run(w.mbql({ 'source-query': { native: nulSql[e] }, fields: [v], filter: ['=', v, NUL_NAME] }));
      assertCompleted(rows, e);
      assert.deepEqual(rows.body.data.rows, [[NUL_NAME]], `${e}: the value reads back whole`);
      const cases = [[['!=', v, NUL_NAME], 1], [['contains', v, 'a\u0000'], 1], [['starts-with', v, 'a\u0000'], 1], [['ends-with', v, '\u0000b'], 1], [['=', v, 'a'], 0], [['ends-with', v, 'b'], 1]] as const;
      for (const [filter, n] of cases) {
        const r = await run(count(filter));
        assertCompleted(r, `${e} ${JSON.stringify(filter)}`);
        assert.deepEqual(r.body.data.rows, [[n]], `${e} ${JSON.stringify(filter)}`);
      }
      const echoed = await run(tag);
      assertCompleted(echoed, `${e} tag`);
      assert.deepEqual(echoed.body.data.rows, [[NUL_NAME]], `${e} tag`);
      // The SQL shown for the query writes the NUL as the engine spells it (no raw NUL), and runs as written.
      const shown = await env.admin.post('/api/dataset/native', equal);
      assert.equal(shown.status, 200, shown.text);
      assert.ok(!shown.body.query.includes('\u0000'), `${e}: ${shown.body.query}`);
      const again = await run(w.native(shown.body.query));
      assertCompleted(again, `${e} shown SQL`);
      assert.deepEqual(again.body.data.rows, [[1]], `${e} shown SQL`);
    }
  });

  test('no identifier with a NUL is ever quoted, on any engine (the guarantee behind the messages above)', async () => {
    const { dialectFor } = await import('../../src/query/dialects.js');
    const { findDriver } = await import('../../src/drivers/registry.js');
    for (const e of ENGINES) {
      assert.throws(() => dialectFor(e).quoteIdentifier(NUL_NAME), { message: NUL_MESSAGE('identifier') }, e);
      assert.throws(() => findDriver(e)!.quoteIdentifier(NUL_NAME), { message: NUL_MESSAGE('identifier') }, e);
      assert.equal(dialectFor(e).quoteIdentifier('a"b`c'), e === 'mysql' ? '`a"b``c`' : '"a""b`c"', e);
    }
  });
});
