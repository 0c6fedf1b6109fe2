// Sync over time: schema changes (new, changed, removed and returning tables and fields), admin edits that
// survive later syncs, the lease that keeps two instances from syncing one database, initial_sync_status,
// field-values limits, scheduled syncs, and syncing while queries run.

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from '../../src/util/better-sqlite3.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { runExclusive, runSync } from '../../src/sync/runner.js';
import { SYNC_BUSY_MESSAGE, syncLeaseKey } from '../../src/sync/sync-database.js';
import { INSTANCE_ID } from '../../src/tasks/lease.js';
import { reloadSchedules } from '../../src/sync/scheduler.js';
import { connectionFor } from '../../src/databases/connections.js';
import { collectRows } from '../../src/drivers/shared/row-stream.js';
import { writeDetails } from '../../src/databases/details.js';
import pg from 'pg';
import { createPgDatabase, PG } from '../helpers/databases.js';
import { fieldOf, loadSamplesEverywhere, tableOf, waitFor, waitForSync, type LoadedSamples } from '../databases/helpers.js';

let samples: LoadedSamples;
before(async () => {
  samples = await loadSamplesEverywhere(['postgres']);
});
after(async () => {
  await samples?.cleanup();
});

function scratchDatabase(dir: string): { file: string; exec(sql: string): void } {
  const file = join(dir, `scratch-${Math.random().toString(36).slice(2)}.sqlite`);
  const db = new Database(file);
  db.exec(`
    create table things (id integer primary key, name text, kind text, size integer);
    create table parts (id integer primary key, thing_id integer references things(id), label text);
  `);
  const insert = db.prepare('insert into things (name, kind, size) values (?, ?, ?)');
  for (let i = 0; i < 50; i++) insert.run(`thing ${i}`, ['small', 'medium', 'large'][i % 3], i);
  db.close();
  return {
    file,
    exec(sql: string) {
      const handle = new Database(file);
      handle.exec(sql);
      handle.close();
    },
  };
}

forEachAppDb('sync over time', (server) => {
  let admin: Client;
  let dir: string;

  before(async () => {
    admin = await setupAdmin(server());
    dir = mkdtempSync(join(tmpdir(), 'quarry-sync-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function addScratch(name: string) {
    const scratch = scratchDatabase(dir);
    const created = await admin.post('/api/database', { engine: 'sqlite', name, details: { db: scratch.file } });
    assert.equal(created.status, 200, created.text);
    await waitForSync(admin, created.body.id);
    return { ...scratch, id: created.body.id as number };
  }

  const metadataOf = async (id: number) => (await admin.get(`/api/database/${id}/metadata`)).body;

  test('new, changed, removed and returning tables and fields', async () => {
    const db = await addScratch('Changing');
    const before = await metadataOf(db.id);
    assert.deepEqual(before.tables.map((t: any) => t.name), ['parts', 'things']);
    const partsId = tableOf(before, 'PARTS').id;
    const sizeId = fieldOf(before, 'THINGS', 'SIZE').id;
    assert.equal(fieldOf(before, 'PARTS', 'THING_ID').fk_target_field_id, fieldOf(before, 'THINGS', 'ID').id);

    db.exec('drop table parts; create table extras (id integer primary key, note text); alter table things drop column size; alter table things add column color text');
    assert.deepEqual(await runSync(server().ctx, db.id, 'schema'), 'done');
    const after = await metadataOf(db.id);
    assert.deepEqual(after.tables.map((t: any) => t.name), ['extras', 'things']);
    assert.deepEqual(tableOf(after, 'THINGS').fields.map((f: any) => f.name), ['id', 'name', 'kind', 'color']);
    const parts = await admin.get(`/api/table/${partsId}`);
    assert.equal(parts.status, 200);
    assert.equal(parts.body.active, false, 'removed tables are kept, inactive');
    assert.equal((await admin.get(`/api/field/${sizeId}`)).body.active, false);

    db.exec('create table parts (id integer primary key, thing_id integer references things(id), label text)');
    await runSync(server().ctx, db.id, 'schema');
    const back = await metadataOf(db.id);
    assert.equal(tableOf(back, 'PARTS').id, partsId, 'a returning table keeps its id');
    assert.equal((await admin.get(`/api/table/${partsId}`)).body.active, true);
  });

  test('admin edits are never overwritten by a later sync', async () => {
    const db = await addScratch('Edited');
    const md = await metadataOf(db.id);
    const kind = fieldOf(md, 'THINGS', 'KIND');
    assert.equal(kind.semantic_type, 'type/Category');
    const name = fieldOf(md, 'THINGS', 'NAME');
    assert.equal(name.semantic_type, 'type/Name');
    assert.equal((await admin.put(`/api/field/${kind.id}`, { semantic_type: 'type/Company', display_name: 'Sort of thing', has_field_values: 'search' })).status, 200);
    assert.equal((await admin.put(`/api/field/${name.id}`, { semantic_type: null })).status, 200);
    await runSync(server().ctx, db.id, 'full');
    await runSync(server().ctx, db.id, 'schema');
    const again = await metadataOf(db.id);
    assert.equal(fieldOf(again, 'THINGS', 'KIND').semantic_type, 'type/Company');
    assert.equal(fieldOf(again, 'THINGS', 'KIND').display_name, 'Sort of thing');
    assert.equal(fieldOf(again, 'THINGS', 'KIND').has_field_values, 'search');
    assert.equal(fieldOf(again, 'THINGS', 'NAME').semantic_type, null);
  });

  test('the hourly metadata sync only analyses new fields (unless asked to refingerprint)', async () => {
    const db = await addScratch('Hourly');
    const before = await metadataOf(db.id);
    const analyzedAt = fieldOf(before, 'PARTS', 'LABEL').last_analyzed;
    db.exec("alter table things add column weight real; update things set weight = id * 1.5");
    assert.equal(await runSync(server().ctx, db.id, 'metadata'), 'done');
    const after = await metadataOf(db.id);
    assert.equal(fieldOf(after, 'PARTS', 'LABEL').last_analyzed, analyzedAt, 'a table without new fields is not sampled again');
    assert.equal(fieldOf(after, 'THINGS', 'WEIGHT').fingerprint.type['type/Number'].max, 75);
    await admin.put(`/api/database/${db.id}`, { refingerprint: true });
    await runSync(server().ctx, db.id, 'metadata');
    assert.notEqual(fieldOf(await metadataOf(db.id), 'PARTS', 'LABEL').last_analyzed, analyzedAt);
  });

  test('a database whose sync lease is held elsewhere is not synced here', async () => {
    const db = await addScratch('Leased');
    db.exec('create table later (id integer primary key)');
    const ctx = server().ctx;
    await ctx.db.insertInto('task_lease').values({ lease_key: syncLeaseKey(db.id), owner: 'another-instance', expires_at: Date.now() + 60_000 }).execute();
    assert.equal(await runSync(ctx, db.id, 'schema'), 'busy');
    assert.ok(!(await metadataOf(db.id)).tables.some((t: any) => t.name === 'later'));
    await ctx.db.deleteFrom('task_lease').where('lease_key', '=', syncLeaseKey(db.id)).execute();
    assert.equal(await runSync(ctx, db.id, 'schema'), 'done');
    assert.ok((await metadataOf(db.id)).tables.some((t: any) => t.name === 'later'));
    // An expired lease is taken over.
    await ctx.db.insertInto('task_lease').values({ lease_key: syncLeaseKey(db.id), owner: 'crashed-instance', expires_at: Date.now() - 1 }).execute();
    assert.equal(await runSync(ctx, db.id, 'schema'), 'done');
  });

  test('runExclusive (single-field and table rescans) waits for a sync lease held elsewhere, else answers 409', async () => {
    const db = await addScratch('Exclusive');
    const ctx = server().ctx;
    const key = syncLeaseKey(db.id);
    await ctx.db.insertInto('task_lease').values({ lease_key: key, owner: 'another-instance', expires_at: Date.now() + 60_000 }).execute();
    let ran = 0;
    const work = async () => ++ran;
    await assert.rejects(runExclusive(ctx, db.id, work, { waitMs: 0 }), (e: any) => e.status === 409 && e.message === SYNC_BUSY_MESSAGE);
    assert.equal(ran, 0);
    // Released while it waits: it runs, under the lease, which it gives back afterwards.
    const waiting = runExclusive(ctx, db.id, async () => {
      const lease = await ctx.db.selectFrom('task_lease').select('owner').where('lease_key', '=', key).executeTakeFirst();
      assert.ok(lease?.owner.startsWith(`${INSTANCE_ID}/`), lease?.owner);
      return work();
    }, { waitMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(ran, 0, 'still waiting for the other instance');
    await ctx.db.deleteFrom('task_lease').where('lease_key', '=', key).execute();
    assert.equal(await waiting, 1);
    assert.equal(await ctx.db.selectFrom('task_lease').select('owner').where('lease_key', '=', key).executeTakeFirst(), undefined);
  });

  test('initial_sync_status goes incomplete → complete, or aborted when the first sync fails', async () => {
    const ctx = server().ctx;
    const now = new Date().toISOString();
    const inserted = await ctx.db
      .insertInto('metabase_database')
      .values({
        entity_id: 'abcdefghijklmnopqrstu', name: 'Broken', description: null, engine: 'sqlite', details: writeDetails(ctx, { db: join(dir, 'gone.sqlite') }),
        is_sample: false, is_full_sync: true, is_on_demand: false, is_audit: false, auto_run_queries: true, refingerprint: null, cache_ttl: null,
        metadata_sync_schedule: '0 0 * * * ? *', cache_field_values_schedule: '0 0 0 * * ? *', timezone: null, dbms_version: null,
        initial_sync_status: 'incomplete', settings: null, caveats: null, points_of_interest: null, creator_id: null, uploads_enabled: false,
        uploads_schema_name: null, uploads_table_prefix: null, created_at: now, updated_at: now,
      })
      .executeTakeFirst();
    const row = await ctx.db.selectFrom('metabase_database').select('id').where('name', '=', 'Broken').executeTakeFirstOrThrow();
    void inserted;
    assert.equal(await runSync(ctx, row.id, 'full'), 'failed');
    assert.equal((await admin.get(`/api/database/${row.id}`)).body.initial_sync_status, 'aborted');
    assert.equal((await admin.delete(`/api/database/${row.id}`)).status, 204);
  });

  test('field values: at most 1,000 values and 100,000 characters in all; more get a search box, long values alone do not', async () => {
    const file = join(dir, 'values.sqlite');
    const db = new Database(file);
    db.exec('create table v (id integer primary key, many text, few_long text, bulky text, some text, flag boolean)');
    const insert = db.prepare('insert into v (many, few_long, bulky, some, flag) values (?, ?, ?, ?, ?)');
    // bulky: 500 distinct values of 250 characters, 125,000 in all.
    for (let i = 0; i < 1500; i++) insert.run(`value ${i}`, `${'long text '.repeat(12)}${i % 5}`, `${String(i % 500).padStart(3, '0')}${'x'.repeat(247)}`, `s${String(i % 800).padStart(3, '0')}`, i % 2);
    db.close();
    const created = await admin.post('/api/database', { engine: 'sqlite', name: 'Values', details: { db: file } });
    await waitForSync(admin, created.body.id);
    const md = await metadataOf(created.body.id);
    const many = fieldOf(md, 'V', 'MANY');
    assert.equal(many.has_field_values, 'search');
    assert.deepEqual((await admin.get(`/api/field/${many.id}/values`)).body.values, []);
    // Metabase caps the total, not each value: five values of 121 characters keep their list (they used to be demoted).
    const long = fieldOf(md, 'V', 'FEW_LONG');
    assert.equal(long.has_field_values, 'list');
    assert.equal(long.values.length, 5);
    assert.equal(long.values[0][0].length, 121);
    // 500 values are few enough, but 125,000 characters are too much text for an auto-list.
    const bulky = fieldOf(md, 'V', 'BULKY');
    assert.equal(bulky.has_field_values, 'search');
    assert.deepEqual((await admin.get(`/api/field/${bulky.id}/values`)).body.values, []);
    const some = fieldOf(md, 'V', 'SOME');
    assert.equal(some.has_field_values, 'list');
    assert.equal(some.values.length, 800);
    assert.deepEqual(some.values[0], ['s000']);
    assert.deepEqual(fieldOf(md, 'V', 'FLAG').values, [[false], [true]]);
    assert.equal(fieldOf(md, 'V', 'FLAG').semantic_type, 'type/Category');
    // An admin's list field keeps what fits of the same values, and says there are more.
    assert.equal((await admin.put(`/api/field/${bulky.id}`, { has_field_values: 'list' })).status, 200);
    assert.equal((await admin.post(`/api/field/${bulky.id}/rescan_values`)).status, 200);
    const kept = (await admin.get(`/api/field/${bulky.id}/values`)).body;
    assert.equal(kept.values.length, 400, '400 values of 250 characters make 100,000');
    assert.equal(kept.has_more_values, true);
  });

  test('scheduled syncs run on the database\'s own cron schedule', async () => {
    const db = await addScratch('Scheduled');
    db.exec('create table scheduled_later (id integer primary key)');
    const ctx = server().ctx;
    await ctx.db.updateTable('metabase_database').set({ metadata_sync_schedule: '* * * * * ? *' }).where('id', '=', db.id).execute();
    await reloadSchedules(ctx);
    await waitFor('the scheduled sync', async () => (await metadataOf(db.id)).tables.some((t: any) => t.name === 'scheduled_later'), 15_000);
    await ctx.db.updateTable('metabase_database').set({ metadata_sync_schedule: '0 0 * * * ? *' }).where('id', '=', db.id).execute();
    await reloadSchedules(ctx);
  });

  test('syncing while queries run: neither blocks the other', async () => {
    const created = await admin.post('/api/database', { engine: 'postgres', name: 'Busy warehouse', details: samples.details.postgres });
    assert.equal(created.status, 200, created.text);
    const id = created.body.id;
    const ctx = server().ctx;
    const queries = Array.from({ length: 6 }, async (_, i) => {
      const { connection } = await connectionFor(ctx, id);
      const rows = await collectRows(await connection.execute(`select count(*), pg_sleep(0.2) from "ORDERS" where "ID" > $1`, [i]));
      return Number(rows[0][0]);
    });
    const resync = runSync(ctx, id, 'full');
    const requests = Array.from({ length: 5 }, () => admin.get(`/api/database/${id}`).then((r) => r.status));
    const counts = await Promise.all(queries);
    assert.deepEqual(counts, [18760, 18759, 18758, 18757, 18756, 18755]);
    assert.deepEqual(await Promise.all(requests), [200, 200, 200, 200, 200]);
    assert.ok(['done', 'busy'].includes(await resync));
    await waitForSync(admin, id);
    const md = await metadataOf(id);
    assert.equal(md.tables.length, 8);
    assert.equal(fieldOf(md, 'PRODUCTS', 'CATEGORY').values.length, 4);
  });

  test('JSON columns are unfolded into nested fields with nfc_path (PostgreSQL)', async () => {
    const database = await createPgDatabase('quarry_json');
    const client = new pg.Client({ ...PG, database: database.name });
    await client.connect();
    try {
      await client.query('create table docs (id serial primary key, data jsonb, note text)');
      for (let i = 0; i < 20; i++) {
        await client.query('insert into docs (data, note) values ($1, $2)', [JSON.stringify({ name: `doc ${i}`, size: i, ratio: i / 3, ok: i % 2 === 0, seen: '2024-01-02T03:04:05Z', owner: { city: 'Paris', age: 30 + i } }), 'x']);
      }
      const created = await admin.post('/api/database', { engine: 'postgres', name: 'Docs', details: { host: PG.host, port: PG.port, dbname: database.name, user: PG.user } });
      assert.equal(created.status, 200, created.text);
      await waitForSync(admin, created.body.id);
      const docs = tableOf(await metadataOf(created.body.id), 'DOCS');
      const nested = docs.fields.filter((f: any) => f.nfc_path);
      const byPath = Object.fromEntries(nested.map((f: any) => [f.nfc_path.join('.'), f]));
      assert.deepEqual(Object.keys(byPath).sort(), ['data.name', 'data.ok', 'data.owner.age', 'data.owner.city', 'data.ratio', 'data.seen', 'data.size']);
      assert.equal(byPath['data.size'].base_type, 'type/BigInteger');
      assert.equal(byPath['data.ratio'].base_type, 'type/Float');
      assert.equal(byPath['data.ok'].base_type, 'type/Boolean');
      assert.equal(byPath['data.seen'].base_type, 'type/DateTime');
      assert.equal(byPath['data.owner.city'].name, 'data → owner → city');
      const data = docs.fields.find((f: any) => f.name === 'data');
      assert.equal(data.base_type, 'type/JSON');
      assert.equal(data.json_unfolding, true);
      // Switching unfolding off retires the nested fields at the next sync.
      assert.equal((await admin.put(`/api/field/${data.id}`, { json_unfolding: false })).status, 200);
      await runSync(server().ctx, created.body.id, 'schema');
      assert.equal(tableOf(await metadataOf(created.body.id), 'DOCS').fields.filter((f: any) => f.nfc_path).length, 0);
      await admin.delete(`/api/database/${created.body.id}`);
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
