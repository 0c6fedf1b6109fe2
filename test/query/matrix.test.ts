// The cross-engine matrix: every MBQL and native case runs on SQLite, PostgreSQL, MariaDB and DuckDB holding the
// same sample rows; results must be equal (floats within rounding), and where a case says so, equal to values
// computed in JS from the generated rows. One server and one registration of the four databases for all cases.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleWarehouseServer, ENGINES, type Engine } from './helpers/warehouses.js';
import { MBQL_CASES, sample, type Case } from './helpers/mbql-cases.js';
import { NATIVE_CASES } from './helpers/native-cases.js';

function close(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a === b) return true;
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  }
  return a === b;
}

function sameRows(a: unknown[][], b: unknown[][]): string | null {
  if (a.length !== b.length) return `${a.length} rows vs ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (a[i].length !== b[i].length) return `row ${i}: ${a[i].length} columns vs ${b[i].length}`;
    for (let j = 0; j < a[i].length; j++) {
      if (!close(a[i][j], b[i][j])) return `row ${i} column ${j}: ${JSON.stringify(a[i][j])} vs ${JSON.stringify(b[i][j])}`;
    }
  }
  return null;
}

const sortRows = (rows: unknown[][]) => [...rows].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));

describe('cross-engine matrix', () => {
  const env = sampleWarehouseServer();

  async function check(c: Case) {
    const results = await Promise.all(ENGINES.map(async (e) => ({ engine: e, response: await env.admin.post('/api/dataset', c.build(env.wh[e])) })));
    const completed: Array<{ engine: Engine; rows: unknown[][]; cols: string[] }> = [];
    for (const { engine, response } of results) {
      assert.equal(response.status, 202, `${engine}: HTTP ${response.status} ${response.text.slice(0, 300)}`);
      const body = response.body;
      if (c.unsupported?.includes(engine)) {
        assert.equal(body.status, 'failed', `${engine} should refuse`);
        assert.equal(body.error_type, 'unsupported-feature', `${engine}: ${body.error}`);
        continue;
      }
      assert.equal(body.status, 'completed', `${engine}: ${body.error}\n${body.native?.query ?? ''}`);
      completed.push({ engine, rows: c.unordered ? sortRows(body.data.rows) : body.data.rows, cols: body.data.cols.map((col: any) => `${col.name}:${col.display_name}`) });
    }
    const [first, ...rest] = completed;
    for (const other of rest) {
      const diff = sameRows(first.rows, other.rows);
      assert.equal(diff, null, `${first.engine} vs ${other.engine}: ${diff}`);
      if (!c.name.startsWith('native') && !NATIVE_CASES.includes(c)) assert.deepEqual(other.cols, first.cols, `${first.engine} vs ${other.engine} cols`);
    }
    if (c.expect) {
      const expected = c.expect(first.rows, sample());
      if (expected) {
        const diff = sameRows(c.unordered ? sortRows(expected) : expected, first.rows);
        assert.equal(diff, null, `expected vs ${first.engine}: ${diff}`);
      }
    }
  }

  for (const c of MBQL_CASES) test(`mbql: ${c.name}`, () => check(c));
  for (const c of NATIVE_CASES) test(`native: ${c.name}`, () => check(c));

  test('the matrix is as large as the issue asks', () => {
    assert.ok(MBQL_CASES.length >= 150, `${MBQL_CASES.length} MBQL cases`);
    assert.ok(NATIVE_CASES.length >= 40, `${NATIVE_CASES.length} native cases`);
    assert.ok([...MBQL_CASES, ...NATIVE_CASES].filter((c) => c.expect).length >= 30);
  });
});
