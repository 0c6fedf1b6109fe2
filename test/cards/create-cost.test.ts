// POST /api/card answers the new card without re-reading what it just wrote or asking about runs and dashboards a
// card made a moment ago can't have (Metabase's load scenario creates six cards per iteration).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import { countQueries } from '../helpers/query-count.js';
import type { Client } from '../helpers/client.js';
import { createCard, registerDatabase, type DataFixture } from './fixtures.js';

forEachAppDb('card creation cost', (server) => {
  let admin: Client;
  let data: DataFixture;
  before(async () => {
    admin = await setupAdmin(server());
    data = await registerDatabase(server());
    await createCard(admin, data); // warms the caller and metadata caches
  });

  test('a new card costs at most 5 app-DB reads besides its write and answers the full card', async () => {
    let card: any;
    const n = await countQueries(server(), async () => {
      card = await createCard(admin, data, { result_metadata: [] });
    });
    // (Statements inside the write transaction run on its own connection and aren't counted here.)
    assert.ok(n <= 5, `POST /api/card ran ${n} app-DB statements besides its transaction`);
    assert.equal(card.dashboard_count, 0);
    assert.equal(card.average_query_time, null);
    assert.equal(card.last_query_start, null);
    assert.equal(card['last-edit-info'].email, 'admin@example.com');
    const got = (await admin.get(`/api/card/${card.id}`)).body;
    for (const key of Object.keys(got)) if (key !== 'view_count' && key !== 'last_used_at') assert.deepEqual(card[key], got[key], key);
    const revisions = (await admin.get('/api/revision', { query: { entity: 'card', id: String(card.id) } })).body;
    assert.equal(revisions.length, 1);
    assert.equal(revisions[0].is_creation, true);
  });
});
