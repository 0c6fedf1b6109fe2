// How a query's response starts: a slow query commits its 202 after the keep-alive delay, but a request answered
// another way before that (a refusal thrown as a 403) must not have a response started behind its back later.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Out } from '../../src/query/write/out.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a slow result starts streaming after the keep-alive delay', async () => {
  const starts: Array<string | null> = [];
  const out = new Out((whole) => starts.push(whole), 20);
  await wait(60);
  assert.deepEqual(starts, [null]);
  assert.equal(out.hasStarted, true);
  out.stream.resume();
  await out.end();
});

test('an abandoned response never starts', async () => {
  const starts: Array<string | null> = [];
  const out = new Out((whole) => starts.push(whole), 20);
  out.abandon();
  await wait(60);
  assert.deepEqual(starts, []);
  assert.equal(out.hasStarted, false);
});
