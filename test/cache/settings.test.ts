// The result cache's and model persistence's settings: Metabase's (0.50+) defaults and rules.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';

forEachAppDb('cache settings', (server) => {
  test('defaults as Metabase 0.50+ has them; the per-result cap stops at 204800 KB', async () => {
    const admin = await setupAdmin(server());
    const value = async (key: string) => (await admin.get(`/api/setting/${key}`)).body;
    assert.equal(await value('enable-query-caching'), true);
    assert.equal(await value('query-caching-max-kb'), 2000);
    assert.equal(await value('query-caching-max-ttl'), 3024000, '35 days, in seconds');
    assert.equal(await value('persisted-models-enabled'), false);
    assert.equal(await value('persisted-model-refresh-cron-schedule'), '0 0 0/6 * * ? *');
    const listed = new Map<string, any>((await admin.get('/api/setting')).body.map((s: any) => [s.key, s]));
    assert.equal(listed.get('query-caching-max-kb').default, 2000);
    assert.equal(listed.get('query-caching-max-ttl').default, 3024000);
    assert.equal((await admin.put('/api/setting/query-caching-max-kb', { value: 204800 })).status, 204);
    const tooBig = await admin.put('/api/setting/query-caching-max-kb', { value: 204801 });
    assert.equal(tooBig.status, 400);
    assert.equal(tooBig.body.message, 'Failed setting `query-caching-max-kb` to 204801. Values greater than 204800 (200.0 MB) are not allowed.');
    assert.equal((await admin.put('/api/setting/query-caching-max-kb', { value: null })).status, 204);
    assert.equal(await value('query-caching-max-kb'), 2000);
  });
});
