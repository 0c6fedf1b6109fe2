// The report time zone on every engine that has zones: zoned columns (PostgreSQL timestamptz, MySQL TIMESTAMP) read,
// bucketed and filtered in the report zone — across DST changes, MySQL/MariaDB without its named-zone tables
// included — and native SQL running with the report zone as its session zone, which never leaks into the next
// statement on the same pooled connection.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createConnection } from 'mysql2/promise';
import { DateTime } from 'luxon';
import { startServer, setupAdmin, type TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { PG, MYSQL, createPgDatabase, createMysqlDatabase } from '../helpers/databases.js';
import { idleSyncs } from '../../src/sync/runner.js';

// Instants around New York's DST changes of 2024 (and ordinary ones), in UTC.
const INSTANTS = [
  '2024-01-15 04:59:00', // Jan 14, 23:59 EST
  '2024-03-10 06:30:00', // 01:30 EST, before the spring change
  '2024-03-10 07:30:00', // 03:30 EDT, after it
  '2024-07-01 03:00:00', // Jun 30, 23:00 EDT
  '2024-11-03 05:30:00', // 01:30 EDT, before the autumn change
  '2024-11-03 06:30:00', // 01:30 EST, after it
  '2024-12-31 23:30:00', // Dec 31, 18:30 EST
];
const ZONE = 'America/New_York';
const local = (utc: string) => DateTime.fromSQL(utc, { zone: 'UTC' }).setZone(ZONE);

describe('report time zone', () => {
  let server: TestServer;
  let admin: Client;
  const drops: Array<() => Promise<void>> = [];
  const ids: Record<'postgres' | 'mysql', { db: number; table: number; at: number; id: number }> = {} as never;

  async function register(engine: 'postgres' | 'mysql', details: Record<string, unknown>) {
    const r = await admin.post('/api/database', { engine, name: `TZ ${engine}`, details });
    assert.equal(r.status, 200, r.text);
    await idleSyncs(server.ctx);
    const meta = (await admin.get(`/api/database/${r.body.id}/metadata`)).body;
    const table = meta.tables.find((t: any) => t.name.toUpperCase() === 'EVENTS');
    const field = (name: string) => table.fields.find((f: any) => f.name.toUpperCase() === name).id;
    ids[engine] = { db: r.body.id, table: table.id, at: field('AT'), id: field('ID') };
  }

  before(async () => {
    server = await startServer('sqlite');
    admin = await setupAdmin(server);
    const pgdb = await createPgDatabase('quarry_tz');
    drops.push(pgdb.drop);
    const c = new pg.Client({ ...PG, database: pgdb.name });
    await c.connect();
    await c.query('CREATE TABLE "EVENTS" ("ID" integer PRIMARY KEY, "AT" timestamptz)');
    for (const [i, t] of INSTANTS.entries()) await c.query('INSERT INTO "EVENTS" VALUES ($1, $2)', [i + 1, `${t}+00`]);
    await c.end();
    const mydb = await createMysqlDatabase('quarry_tz');
    drops.push(mydb.drop);
    const m = await createConnection({ ...MYSQL, database: mydb.name });
    await m.query("SET time_zone = '+00:00'");
    await m.query('CREATE TABLE `EVENTS` (`ID` int PRIMARY KEY, `AT` TIMESTAMP NULL)');
    for (const [i, t] of INSTANTS.entries()) await m.query('INSERT INTO `EVENTS` VALUES (?, ?)', [i + 1, t]);
    await m.end();
    await register('postgres', { host: PG.host, port: PG.port, user: PG.user, dbname: pgdb.name, ...(PG.password ? { password: PG.password } : {}) });
    await register('mysql', { host: MYSQL.host, port: MYSQL.port, user: MYSQL.user, password: MYSQL.password, dbname: mydb.name });
    assert.equal((await admin.put('/api/setting/report-timezone', { value: ZONE })).status, 204);
  });

  after(async () => {
    await admin?.put('/api/setting/report-timezone', { value: null });
    await server?.close();
    for (const drop of drops) await drop().catch(() => {});
  });

  const mbql = (engine: 'postgres' | 'mysql', query: Record<string, unknown>) => ({ database: ids[engine].db, type: 'query', query: { 'source-table': ids[engine].table, ...query } });
  const run = async (q: Record<string, unknown>) => {
    const r = await admin.post('/api/dataset', q);
    assert.equal(r.body.status, 'completed', `${r.body.error}\n${r.body.native?.query ?? ''}`);
    return r.body;
  };

  for (const engine of ['postgres', 'mysql'] as const) {
    test(`${engine}: zoned values in the report zone, with each one's own offset`, async () => {
      const r = await run(mbql(engine, { fields: [['field', ids[engine].at, null]], 'order-by': [['asc', ['field', ids[engine].id, null]]] }));
      assert.equal(r.data.results_timezone, ZONE);
      assert.deepEqual(r.data.rows.map((x: string[]) => x[0]), INSTANTS.map((t) => local(t).toISO({ suppressMilliseconds: true })));
    });

    test(`${engine}: buckets and filters in the report zone, across DST changes`, async () => {
      const at = (unit?: string) => ['field', ids[engine].at, unit ? { 'temporal-unit': unit } : null];
      const hours = await run(mbql(engine, { aggregation: [['count']], breakout: [at('hour-of-day')] }));
      const expectedHours = new Map<number, number>();
      for (const t of INSTANTS) expectedHours.set(local(t).hour, (expectedHours.get(local(t).hour) ?? 0) + 1);
      assert.deepEqual(hours.data.rows, [...expectedHours.entries()].sort((a, b) => a[0] - b[0]));
      const days = await run(mbql(engine, { aggregation: [['count']], breakout: [at('day')] }));
      const expectedDays = new Map<string, number>();
      for (const t of INSTANTS) expectedDays.set(local(t).toISODate()!, (expectedDays.get(local(t).toISODate()!) ?? 0) + 1);
      assert.deepEqual(
        days.data.rows.map((x: [string, number]) => [x[0].slice(0, 10), x[1]]),
        [...expectedDays.entries()].sort(),
      );
      // "On November 3rd" in New York: the two 01:30s.
      const nov3 = await run(mbql(engine, { aggregation: [['count']], filter: ['=', at(), '2024-11-03'] }));
      assert.deepEqual(nov3.data.rows, [[2]]);
    });
  }

  test('native SQL on PostgreSQL runs in the report zone, and the zone does not leak to the next statement', async () => {
    const native = (sql: string) => ({ database: ids.postgres.db, type: 'native', native: { query: sql } });
    const r = await run(native(`SELECT current_setting('TimeZone') AS tz, CAST(TIMESTAMPTZ '2024-07-01 03:00:00+00' AS TIMESTAMP) AS wall`));
    assert.deepEqual(r.data.rows, [[ZONE, '2024-06-30T23:00:00-04:00']]);
    assert.equal((await admin.put('/api/setting/report-timezone', { value: null })).status, 204);
    try {
      // Sequential statements reuse the pool's idle connection: the one that ran in New York time.
      for (let i = 0; i < 3; i++) {
        const after = await run(native(`SELECT current_setting('TimeZone') AS tz`));
        assert.notEqual(after.data.rows[0][0], ZONE);
      }
    } finally {
      await admin.put('/api/setting/report-timezone', { value: ZONE });
    }
  });

  test('native SQL on MariaDB runs in the report zone (its offset without zone tables), reset afterwards', async () => {
    const native = (sql: string) => ({ database: ids.mysql.db, type: 'native', native: { query: sql } });
    const r = await run(native('SELECT @@session.time_zone AS tz, `AT` FROM `EVENTS` WHERE `ID` = 4'));
    const [tz, at] = r.data.rows[0];
    assert.ok(tz === ZONE || /^-0[45]:00$/.test(tz), tz);
    // TIMESTAMP values read in the session zone are still the right instants.
    assert.equal(at, local(INSTANTS[3]).toISO({ suppressMilliseconds: true }));
    assert.equal((await admin.put('/api/setting/report-timezone', { value: null })).status, 204);
    try {
      for (let i = 0; i < 3; i++) {
        const after = await run(native('SELECT @@session.time_zone AS tz'));
        assert.equal(after.data.rows[0][0], '+00:00');
      }
    } finally {
      await admin.put('/api/setting/report-timezone', { value: ZONE });
    }
  });
});
