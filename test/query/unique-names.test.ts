// Column names repeated many times (a wide join of one table with itself) get unique names without a quadratic loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UniqueNames } from '../../src/query/compile/names.js';

test('a column name repeated n times is made unique in about n lookups, not n²', () => {
  const names = new UniqueNames();
  const has = Set.prototype.has;
  let lookups = 0;
  Set.prototype.has = function (this: Set<unknown>, value: unknown) {
    lookups++;
    return has.call(this, value);
  };
  const given: string[] = [];
  try {
    for (let i = 0; i < 5000; i++) given.push(names.next('TOTAL'));
  } finally {
    Set.prototype.has = has;
  }
  assert.deepEqual(given.slice(0, 3), ['TOTAL', 'TOTAL_2', 'TOTAL_3']);
  assert.equal(given[4999], 'TOTAL_5000');
  assert.ok(lookups <= 3 * 5000, `${lookups} lookups`);
});
