// The offline engine's score on the committed question set (./questions.json) against real engines: the Sample
// Database in SQLite and in PostgreSQL, registered with a server on each app DB. Every answer is a card that is
// run and compared with the expected query's rows; the score must stay at or above the floor.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerWarehouses, type Engine, type Warehouse } from '../query/helpers/warehouses.js';
import { loadQuestions, scoreAll } from './score.js';

/** The score reached when the set was committed (124/124 on both engines); a change that loses answers fails here. */
const FLOOR = 122;
const ENGINES: Engine[] = ['sqlite', 'postgres'];

test('the question set is as large as the issue asks', () => {
  const questions = loadQuestions();
  assert.ok(questions.filter((q) => q.expected !== 'refuse').length >= 60);
  assert.ok(questions.some((q) => q.expected === 'refuse'));
});

forEachAppDb('offline assistant on the Sample Database', (server) => {
  let admin: Client;
  let wh: Record<Engine, Warehouse>;

  before(async () => {
    admin = await setupAdmin(server());
    wh = await registerWarehouses(server(), admin, ENGINES);
  });

  for (const engine of ENGINES) {
    test(`${engine}: at least ${FLOOR} questions answered correctly`, async () => {
      const { correct, total, results } = await scoreAll(admin, wh[engine]);
      const misses = results.filter((r) => !r.correct).map((r) => `${r.question}: ${r.why}`);
      assert.ok(correct >= FLOOR, `${correct}/${total} correct:\n${misses.join('\n')}`);
    });
  }
});
