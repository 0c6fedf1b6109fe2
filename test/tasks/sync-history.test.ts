// Syncs write task history as Metabase names their steps (sync, analyze, field values scanning), with the database
// id; a database that can't be reached leaves a failed row with the reason; scheduled syncs run through the
// cluster-wide scheduler.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import { waitFor, waitForSync } from '../databases/helpers.js';
import { runSync } from '../../src/sync/runner.js';
import { reloadSchedules } from '../../src/sync/scheduler.js';
import { registerDatabase } from '../cards/fixtures.js';
import type { Client } from '../helpers/client.js';

forEachAppDb('sync task history', (server) => {
  let admin: Client;
  let databaseId: number;

  before(async () => {
    admin = await setupAdmin(server());
    const created = await admin.post('/api/database/sample_database');
    assert.equal(created.status, 200, created.text);
    databaseId = created.body.id;
    await waitForSync(admin, databaseId);
  });

  test('a full sync leaves one row per step, with the database id and what it did', async () => {
    await waitFor('the sync history', async () => {
      const names = (await admin.get('/api/task', { query: { status: 'success' } })).body.data.filter((d: any) => d.db_id === databaseId).map((d: any) => d.task);
      return ['sync', 'analyze', 'field values scanning'].every((n) => names.includes(n));
    }, 30_000);
    const rows = (await admin.get('/api/task', { query: { task: 'sync' } })).body.data.filter((d: any) => d.db_id === databaseId);
    assert.ok(rows.some((r: any) => r.status === 'success' && r.task_details.kind === 'full' && typeof r.task_details['tables-added'] === 'number'));
    const scan = (await admin.get('/api/task', { query: { task: 'field values scanning' } })).body.data.find((d: any) => d.db_id === databaseId);
    assert.ok(scan.task_details['fields-scanned'] > 0);
  });

  test('a database that cannot be reached leaves a failed sync row with the reason', async () => {
    const { databaseId: unreachable } = await registerDatabase(server(), 'Unreachable');
    await server().ctx.db
      .updateTable('metabase_database')
      .set({ engine: 'postgres', details: JSON.stringify({ host: '127.0.0.1', port: 1, dbname: 'nothing', user: 'nobody' }) })
      .where('id', '=', unreachable)
      .execute();
    assert.equal(await runSync(server().ctx, unreachable, 'metadata'), 'failed');
    const failed = (await admin.get('/api/task', { query: { task: 'sync', status: 'failed' } })).body.data.find((d: any) => d.db_id === unreachable);
    assert.ok(failed, 'a failed sync row');
    assert.match(failed.task_details.message, /ECONNREFUSED|connect/i);
    assert.equal(failed.task_details.kind, 'metadata');
  });

  test('scheduled syncs are jobs of the scheduler, shown by /api/task/info, and run on their schedule', async () => {
    const info = (await admin.get('/api/task/info')).body;
    const job = info.jobs.find((j: any) => j.key === 'metabase.task.sync-and-analyze.job');
    const trigger = job.triggers.find((t: any) => t.key === `metabase.task.sync-and-analyze.trigger.${databaseId}`);
    assert.ok(trigger, 'a trigger per database');
    assert.equal(trigger.data['db-id'], databaseId);
    assert.ok(info.jobs.some((j: any) => j.key === 'metabase.task.update-field-values.job'));

    const syncsOf = async () => (await admin.get('/api/task', { query: { task: 'sync' } })).body.data.filter((d: any) => d.db_id === databaseId).length;
    const before = await syncsOf();
    const ctx = server().ctx;
    await ctx.db.updateTable('metabase_database').set({ metadata_sync_schedule: '* * * * * ? *' }).where('id', '=', databaseId).execute();
    await reloadSchedules(ctx);
    try {
      await waitFor('a scheduled sync', async () => (await syncsOf()) > before, 20_000);
    } finally {
      await ctx.db.updateTable('metabase_database').set({ metadata_sync_schedule: '0 0 * * * ? *' }).where('id', '=', databaseId).execute();
      await reloadSchedules(ctx);
    }
  });
});
