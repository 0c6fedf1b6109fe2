// Sync of databases whose names and types don't fit the app DB's varchar columns, and isolation of one table's
// failure: a DuckDB STRUCT column (a 500-character type), a SQLite column declared with a 300-character type, table
// and column names longer than 254 characters, JSON keys that make nested field names that long, and a table whose
// fields the app DB refuses. PostgreSQL and MySQL/MariaDB refuse values longer than a varchar, SQLite stores them:
// before, the first such value aborted the whole database's sync.

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from '../../src/util/better-sqlite3.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { DuckDBInstance } from '@duckdb/node-api';
import { appDbKinds, forEachAppDb, setupAdmin, type AppDbKind, type TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { createPgDatabase, PG } from '../helpers/databases.js';
import { fieldOf, tableOf, waitForSync } from '../databases/helpers.js';
import { runSync } from '../../src/sync/runner.js';

const STRUCT_TYPE = `STRUCT(${Array.from({ length: 20 }, (_, i) => `field_number_${String(i).padStart(2, '0')} VARCHAR`).join(', ')})`;
const LONG_SQLITE_TYPE = Array.from({ length: 30 }, (_, i) => `custom_type_word_${i}`).join(' ');
const LONG_NAME = 'a_very_long_name_'.repeat(18); // 306 characters

// The MariaDB app DB runs too unless the run is limited (QUARRY_TEST_APPDBS).
const kinds: AppDbKind[] = process.env.QUARRY_TEST_APPDBS ? appDbKinds() : [...appDbKinds(), 'mysql'];

async function refuseFieldsNamed(t: TestServer, name: string): Promise<() => Promise<void>> {
  const db = t.ctx.db;
  if (t.kind === 'sqlite') {
    await sql.raw(`create trigger refuse_field before insert on metabase_field when new.name = '${name}' begin select raise(abort, 'refused by the test'); end`).execute(db);
    return async () => void (await sql.raw('drop trigger refuse_field').execute(db));
  }
  if (t.kind === 'postgres') {
    await sql.raw(`create function refuse_field() returns trigger language plpgsql as $$ begin if new.name = '${name}' then raise exception 'refused by the test'; end if; return new; end $$`).execute(db);
    await sql.raw('create trigger refuse_field before insert on metabase_field for each row execute function refuse_field()').execute(db);
    return async () => {
      await sql.raw('drop trigger refuse_field on metabase_field').execute(db);
      await sql.raw('drop function refuse_field()').execute(db);
    };
  }
  await sql.raw(`create trigger refuse_field before insert on metabase_field for each row begin if new.name = '${name}' then signal sqlstate '45000' set message_text = 'refused by the test'; end if; end`).execute(db);
  return async () => void (await sql.raw('drop trigger refuse_field').execute(db));
}

forEachAppDb('sync of names and types longer than the app DB columns', (server) => {
  let admin: Client;
  let dir: string;

  before(async () => {
    admin = await setupAdmin(server());
    dir = mkdtempSync(join(tmpdir(), 'quarry-oversized-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const metadataOf = async (id: number) => (await admin.get(`/api/database/${id}/metadata`)).body;

  test('DuckDB: a STRUCT of 20 VARCHAR fields is stored whole; tables and columns named past 254 characters are skipped', async () => {
    const file = join(dir, `wide-${Math.random().toString(36).slice(2)}.duckdb`);
    const instance = await DuckDBInstance.create(file);
    const c = await instance.connect();
    await c.run('create table customers (id integer primary key, name varchar, kind varchar)');
    await c.run(`insert into customers select i, 'customer ' || i, ['small', 'large'][i % 2 + 1] from range(1, 31) t(i)`);
    await c.run(`create table wide (id integer primary key, customer_id integer references customers(id), profile ${STRUCT_TYPE}, label varchar)`);
    await c.run(`insert into wide (id, customer_id, label) select i, i % 30 + 1, ['red', 'green', 'blue'][i % 3 + 1] from range(1, 51) t(i)`);
    await c.run(`create table "${LONG_NAME}" (id integer)`);
    await c.run(`create table notes (id integer primary key, "${LONG_NAME}" integer, body varchar)`);
    await c.run(`insert into notes values (1, 1, 'hello'), (2, 2, 'world')`);
    c.closeSync();
    instance.closeSync();
    assert.ok(STRUCT_TYPE.length > 254);

    const created = await admin.post('/api/database', { engine: 'duckdb', name: 'Wide DuckDB', details: { db: file } });
    assert.equal(created.status, 200, created.text);
    const db = await waitForSync(admin, created.body.id);
    assert.equal(db.initial_sync_status, 'complete');
    const md = await metadataOf(created.body.id);
    assert.deepEqual(md.tables.map((t: any) => t.name).sort(), ['customers', 'notes', 'wide'], 'the long-named table is skipped');
    for (const table of md.tables) assert.equal(table.initial_sync_status, 'complete');
    const profile = fieldOf(md, 'WIDE', 'PROFILE');
    assert.equal(profile.database_type, STRUCT_TYPE, 'database_type is text, as in Metabase: the whole type');
    assert.equal(profile.base_type, 'type/Dictionary');
    assert.equal(fieldOf(md, 'WIDE', 'CUSTOMER_ID').fk_target_field_id, fieldOf(md, 'CUSTOMERS', 'ID').id);
    assert.equal(fieldOf(md, 'WIDE', 'CUSTOMER_ID').semantic_type, 'type/FK');
    assert.deepEqual(fieldOf(md, 'WIDE', 'LABEL').values, [['blue'], ['green'], ['red']]);
    assert.equal(fieldOf(md, 'CUSTOMERS', 'KIND').semantic_type, 'type/Category');
    assert.deepEqual(tableOf(md, 'NOTES').fields.map((f: any) => f.name), ['id', 'body'], 'the long-named column is skipped');
    // A re-sync changes nothing and still completes.
    assert.equal(await runSync(server().ctx, created.body.id, 'schema'), 'done');
    assert.equal(fieldOf(await metadataOf(created.body.id), 'WIDE', 'PROFILE').database_type, STRUCT_TYPE);
  });

  test('SQLite: a column declared with a 300-character type; the ordinary tables get their keys and analysis', async () => {
    const file = join(dir, `long-type-${Math.random().toString(36).slice(2)}.sqlite`);
    const handle = new Database(file);
    handle.exec(`
      create table owners (id integer primary key, name text, city text);
      create table pets (id integer primary key, owner_id integer references owners(id), kind text, odd ${LONG_SQLITE_TYPE});
    `);
    for (let i = 1; i <= 20; i++) handle.prepare('insert into owners (name, city) values (?, ?)').run(`owner ${i}`, ['Paris', 'Lyon'][i % 2]);
    for (let i = 1; i <= 40; i++) handle.prepare('insert into pets (owner_id, kind, odd) values (?, ?, ?)').run((i % 20) + 1, ['cat', 'dog'][i % 2], `x${i}`);
    handle.close();
    assert.ok(LONG_SQLITE_TYPE.length > 254);

    const created = await admin.post('/api/database', { engine: 'sqlite', name: 'Long types', details: { db: file } });
    assert.equal(created.status, 200, created.text);
    await waitForSync(admin, created.body.id);
    const md = await metadataOf(created.body.id);
    assert.deepEqual(md.tables.map((t: any) => t.name).sort(), ['owners', 'pets']);
    for (const table of md.tables) assert.equal(table.initial_sync_status, 'complete');
    assert.equal(fieldOf(md, 'PETS', 'ODD').database_type, LONG_SQLITE_TYPE);
    assert.equal(fieldOf(md, 'PETS', 'OWNER_ID').fk_target_field_id, fieldOf(md, 'OWNERS', 'ID').id);
    assert.ok(fieldOf(md, 'OWNERS', 'CITY').fingerprint, 'analysed');
    assert.equal(fieldOf(md, 'OWNERS', 'CITY').semantic_type, 'type/City');
    assert.deepEqual(fieldOf(md, 'PETS', 'KIND').values, [['cat'], ['dog']]);
  });

  test('a table the app DB refuses is skipped (logged); the rest of the database syncs and completes', async () => {
    const file = join(dir, `refused-${Math.random().toString(36).slice(2)}.sqlite`);
    const handle = new Database(file);
    handle.exec(`
      create table authors (id integer primary key, name text);
      create table books (id integer primary key, author_id integer references authors(id), title text);
      create table broken (id integer primary key, explode text);
      create table zebras (id integer primary key, stripes integer);
      insert into authors (name) values ('Ann'), ('Bob');
      insert into books (author_id, title) values (1, 'One'), (2, 'Two');
    `);
    handle.close();
    const restore = await refuseFieldsNamed(server(), 'explode');
    let id = 0;
    try {
      const created = await admin.post('/api/database', { engine: 'sqlite', name: 'Partly refused', details: { db: file } });
      assert.equal(created.status, 200, created.text);
      id = created.body.id;
      await waitForSync(admin, id);
      const md = await metadataOf(id);
      assert.deepEqual(md.tables.map((t: any) => t.name).sort(), ['authors', 'books', 'zebras'], 'the refused table is left out whole, not half made');
      assert.equal(fieldOf(md, 'BOOKS', 'AUTHOR_ID').fk_target_field_id, fieldOf(md, 'AUTHORS', 'ID').id);
      assert.ok(fieldOf(md, 'ZEBRAS', 'STRIPES').fingerprint, 'tables after the refused one are analysed');
    } finally {
      await restore();
    }
    assert.equal(await runSync(server().ctx, id, 'schema'), 'done');
    const again = await metadataOf(id);
    assert.deepEqual(tableOf(again, 'BROKEN').fields.map((f: any) => f.name), ['id', 'explode'], 'the next sync adds it');
  });

  test('PostgreSQL JSON keys that make nested names past 254 characters are skipped, not the other nested fields', async () => {
    const database = await createPgDatabase('quarry_longjson');
    const client = new pg.Client({ ...PG, database: database.name });
    await client.connect();
    try {
      await client.query('create table docs (id serial primary key, first jsonb, second jsonb)');
      for (let i = 0; i < 5; i++) {
        await client.query('insert into docs (first, second) values ($1, $2)', [JSON.stringify({ a: i, [LONG_NAME]: i }), JSON.stringify({ b: `v${i}` })]);
      }
      const created = await admin.post('/api/database', { engine: 'postgres', name: 'Long JSON keys', details: { host: PG.host, port: PG.port, dbname: database.name, user: PG.user, ...(PG.password ? { password: PG.password } : {}) } });
      assert.equal(created.status, 200, created.text);
      await waitForSync(admin, created.body.id);
      const docs = tableOf(await metadataOf(created.body.id), 'DOCS');
      const nested = docs.fields.filter((f: any) => f.nfc_path).map((f: any) => f.nfc_path.join('.')).sort();
      assert.deepEqual(nested, ['first.a', 'second.b']);
      await admin.delete(`/api/database/${created.body.id}`);
    } finally {
      await client.end();
      await database.drop();
    }
  });
}, kinds);
