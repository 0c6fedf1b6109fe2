// Concurrent edits of the permission graphs: many admins saving the same revision at once — on every app DB,
// MySQL/MariaDB included, where there is no advisory lock — give one success and 409s for the rest, never two
// edits both built on the same revision.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { appDbKinds, forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { uniqueName } from '../cards/fixtures.js';

const RACERS = 8;

forEachAppDb(
  'permission graph races',
  (server) => {
    let admin: Client;
    let sample: Sample;
    const groups: number[] = [];

    before(async () => {
      admin = await setupAdmin(server());
      sample = await installSample(admin);
      for (let i = 0; i < RACERS; i++) groups.push((await admin.post('/api/permissions/group', { name: uniqueName('Racer') })).body.id);
    });

    test('data permissions graph: one of many saves of the same revision wins', async () => {
      const { revision } = (await admin.get('/api/permissions/graph')).body;
      const answers = await Promise.all(
        groups.map((id) => admin.put('/api/permissions/graph', { revision, groups: { [id]: { [sample.id]: { 'create-queries': 'query-builder' } } } }, { query: { 'skip-graph': 'true' } })),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, ...Array(RACERS - 1).fill(409)]);
      assert.equal((await admin.get('/api/permissions/graph')).body.revision, revision + 1);
    });

    test('collection permissions graph: one of many saves of the same revision wins', async () => {
      const collection = (await admin.post('/api/collection', { name: uniqueName('Raced') })).body;
      const { revision } = (await admin.get('/api/collection/graph')).body;
      const answers = await Promise.all(groups.map((id) => admin.put('/api/collection/graph', { revision, groups: { [id]: { [collection.id]: 'read' } } })));
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, ...Array(RACERS - 1).fill(409)]);
      assert.equal((await admin.get('/api/collection/graph')).body.revision, revision + 1);
    });
  },
  [...new Set([...appDbKinds(), 'mysql' as const])],
);
