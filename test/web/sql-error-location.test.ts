// The SQL editor highlights the line a database error points at (web/src/components/native/error-location.ts). The
// messages here are the real ones each engine's failed query answers with through the API, so a driver that words
// its errors differently shows up here.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, sampleWarehouseServer } from '../query/helpers/warehouses.js';
import { errorLine } from '../../web/src/components/native/error-location.js';

describe('the line of a SQL error, on every engine', () => {
  const env = sampleWarehouseServer();
  const cases = [
    { what: 'a misspelt keyword on line 2', sql: 'SELECT *\nFORM ORDERS\nLIMIT 5', line: 2 },
    { what: 'a stray word on line 3', sql: 'SELECT ID\nFROM ORDERS\nWHERE TOTAL > 10 banana pie\nLIMIT 5', line: 3 },
  ];
  for (const engine of ENGINES) {
    for (const c of cases) {
      test(`${engine}: ${c.what}`, async () => {
        const r = await env.admin.post('/api/dataset', env.wh[engine].native(c.sql));
        assert.equal(r.body.status, 'failed', r.text);
        assert.equal(errorLine(r.body.error, c.sql), c.line, `${engine} said: ${r.body.error}`);
      });
    }
  }

  test('a message that names no place highlights nothing', () => {
    assert.equal(errorLine('no such table: ORDRES', 'SELECT *\nFROM ORDRES'), null);
    assert.equal(errorLine('Query cancelled', 'SELECT 1'), null);
  });
});
