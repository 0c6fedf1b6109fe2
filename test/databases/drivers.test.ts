// The four drivers behind the one contract: identical rows for the same data, streamed results that release
// their connection, cancellation by signal and by timeout, bound parameters, and the value conventions.

import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { driverFor } from '../../src/drivers/registry.js';
import type { Driver, DriverConnection } from '../../src/drivers/driver.js';
import { collectRows, QueryCancelledError } from '../../src/drivers/shared/row-stream.js';
import { ENGINES, loadSamplesEverywhere, type Engine, type LoadedSamples } from './helpers.js';
import { POSTGRES_BATCH_ROWS } from '../../src/drivers/postgres/connection.js';

let samples: LoadedSamples;
const open = {} as Record<Engine, { driver: Driver; connection: DriverConnection }>;

before(async () => {
  samples = await loadSamplesEverywhere();
  for (const engine of ENGINES) {
    const driver = driverFor(engine);
    open[engine] = { driver, connection: driver.open(driver.normalizeDetails(samples.details[engine]), { maxConnections: 2, dataDir: tmpdir() }) };
  }
});
after(async () => {
  for (const engine of ENGINES) await open[engine]?.connection.close();
  await samples?.cleanup();
});

const q = (engine: Engine, name: string) => open[engine].driver.quoteIdentifier(name);

/** A statement that keeps the database busy for many seconds. */
function slowSql(engine: Engine): string {
  switch (engine) {
    case 'postgres':
      return 'select pg_sleep(30)';
    case 'mysql':
      return 'select sleep(30)';
    case 'duckdb':
      return 'select count(*) from range(100000000000) a';
    case 'sqlite':
      return 'with recursive n(i) as (select 1 union all select i + 1 from n where i < 100000000) select i from n';
  }
}

describe('every engine', () => {
  test('returns the same rows and column types for the same query', async () => {
    const results = await Promise.all(
      ENGINES.map(async (engine) => {
        const sql = `select ${['ID', 'USER_ID', 'SUBTOTAL', 'TAX', 'DISCOUNT', 'CREATED_AT', 'QUANTITY'].map((c) => q(engine, c)).join(', ')} from ${q(engine, 'ORDERS')} where ${q(engine, 'ID')} <= ${open[engine].driver.placeholder(1)} order by ${q(engine, 'ID')}`;
        const stream = await open[engine].connection.execute(sql, [50]);
        return { columns: stream.columns.map((c) => c.baseType), rows: await collectRows(stream) };
      }),
    );
    for (const r of results) assert.equal(r.rows.length, 50);
    for (const r of results.slice(1)) assert.deepEqual(r.rows, results[0].rows);
    assert.deepEqual(results[0].columns.slice(2), ['type/Float', 'type/Float', 'type/Float', 'type/DateTime', 'type/Integer']);
    assert.match(String(results[0].rows[0][5]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?$/);
  });

  test('booleans, dates and text read the same everywhere', async () => {
    const rows = await Promise.all(
      ENGINES.map(async (engine) => {
        const cols = ['TRIAL_CONVERTED', 'ACTIVE_SUBSCRIPTION', 'TRIAL_ENDS_AT', 'CANCELED_AT', 'COUNTRY', 'LATITUDE'].map((c) => q(engine, c)).join(', ');
        return collectRows(await open[engine].connection.execute(`select ${cols} from ${q(engine, 'ACCOUNTS')} order by ${q(engine, 'ID')} limit 30`, []));
      }),
    );
    for (const r of rows.slice(1)) assert.deepEqual(r, rows[0]);
    assert.ok(rows[0].every((r) => typeof r[0] === 'boolean'));
    const births = await Promise.all(ENGINES.map(async (e) => collectRows(await open[e].connection.execute(`select ${q(e, 'BIRTH_DATE')} from ${q(e, 'PEOPLE')} order by ${q(e, 'ID')} limit 5`, []))));
    for (const b of births) assert.deepEqual(b, births[0]);
    assert.match(String(births[0][0][0]), /^\d{4}-\d\d-\d\d$/);
  });

  test('streams a large result and releases the connection when the reader stops early', async () => {
    for (const engine of ENGINES) {
      const { connection } = open[engine];
      const stream = await connection.execute(`select * from ${q(engine, 'ANALYTIC_EVENTS')}`, []);
      let n = 0;
      for await (const _row of stream) n += 1;
      assert.equal(n, 37169, engine);
      // Pool of 2: three early stops in a row must not exhaust it.
      for (let i = 0; i < 3; i++) {
        const partial = await connection.execute(`select * from ${q(engine, 'ANALYTIC_EVENTS')}`, []);
        for await (const _row of partial) break;
      }
      assert.deepEqual(await collectRows(await connection.execute(`select count(*) from ${q(engine, 'PRODUCTS')}`, [])), [[200]], engine);
    }
  });

  test('nextBatch: every row once in non-empty batches, then null; a close after a few batches frees the connection', async () => {
    for (const engine of ENGINES) {
      const { connection } = open[engine];
      const sql = `select ${q(engine, 'ID')} from ${q(engine, 'ANALYTIC_EVENTS')} order by ${q(engine, 'ID')}`;
      const stream = await connection.execute(sql, []);
      const ids: number[] = [];
      let batches = 0;
      for (let batch = await stream.nextBatch(); batch; batch = await stream.nextBatch()) {
        assert.ok(batch.length > 0, `${engine}: an empty batch`);
        batches += 1;
        for (const row of batch) ids.push(Number(row[0]));
      }
      assert.equal(ids.length, 37169, engine);
      assert.ok(batches > 1, `${engine}: ${batches} batch(es)`);
      assert.ok(ids.every((id, i) => i === 0 || id > ids[i - 1]), `${engine}: rows in order, none twice`);
      assert.equal(await stream.nextBatch(), null, `${engine}: null again after the end`);
      // Pool of 2: stopping after one, two and three batches (on PostgreSQL, while the next one is being fetched)
      // must not exhaust it, and nothing is read after close().
      for (const take of [1, 2, 3]) {
        const partial = await connection.execute(sql, []);
        for (let i = 0; i < take; i++) assert.ok((await partial.nextBatch())?.length, `${engine}: batch ${i + 1}`);
        await partial.close();
        assert.equal(await partial.nextBatch(), null, `${engine}: null after close`);
      }
      assert.deepEqual(await collectRows(await connection.execute(`select count(*) from ${q(engine, 'PRODUCTS')}`, [])), [[200]], engine);
    }
  });

  test('an AbortSignal cancels a running statement on the database', async () => {
    for (const engine of ENGINES) {
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 300);
      await assert.rejects(
        (async () => collectRows(await open[engine].connection.execute(slowSql(engine), [], { signal: controller.signal })))(),
        (error: unknown) => error instanceof QueryCancelledError && error.reason === 'cancelled',
        engine,
      );
      assert.ok(Date.now() - started < 5000, `${engine} stopped in ${Date.now() - started} ms`);
      assert.deepEqual(await collectRows(await open[engine].connection.execute('select 1', [])), [[1]], `${engine} still usable`);
    }
  });

  test('a statement past its timeout is cancelled with a clear message', async () => {
    for (const engine of ENGINES) {
      const started = Date.now();
      await assert.rejects(
        (async () => collectRows(await open[engine].connection.execute(slowSql(engine), [], { timeoutMs: 400 })))(),
        (error: unknown) => error instanceof QueryCancelledError && /timed out/.test(error.message),
        engine,
      );
      assert.ok(Date.now() - started < 5000, `${engine} stopped in ${Date.now() - started} ms`);
    }
  });

  test('a bad statement rejects with the engine\'s message and leaves the pool healthy', async () => {
    for (const engine of ENGINES) {
      await assert.rejects((async () => collectRows(await open[engine].connection.execute('select * from no_such_table_here', [])))(), /no_such_table_here/i, engine);
      assert.deepEqual(await collectRows(await open[engine].connection.execute('select 1', [])), [[1]]);
    }
  });
});

describe('engine-specific values', () => {
  test('PostgreSQL: timestamptz as a UTC instant, big integers as strings, numerics, JSON text', async () => {
    const rows = await collectRows(
      await open.postgres.connection.execute(
        "select timestamptz '2024-01-31 10:30:00.5+02', 9007199254740993::int8, 12.5::numeric, 0.12345678901234567890::numeric, '{\"a\": 1}'::jsonb, array[1,2], date '2024-02-29', time '10:30:00', true",
        [],
      ),
    );
    assert.deepEqual(rows[0], ['2024-01-31T08:30:00.500Z', '9007199254740993', 12.5, '0.12345678901234567890', '{"a": 1}', '[1,2]', '2024-02-29', '10:30:00', true]);
  });

  test('MariaDB: TIMESTAMP as a UTC instant, DATETIME without zone, exact doubles', async () => {
    const rows = await collectRows(await open.mysql.connection.execute("select cast('2024-01-31 10:30:00.250' as datetime(3)), 9007199254740993, cast(1.5 as decimal(10,2)), ?", [0.1 + 0.2]));
    assert.deepEqual(rows[0], ['2024-01-31T10:30:00.250', '9007199254740993', 1.5, 0.30000000000000004]);
  });

  test('DuckDB and SQLite: big integers and timestamps', async () => {
    assert.deepEqual((await collectRows(await open.duckdb.connection.execute("select 9007199254740993::bigint, timestamptz '2024-01-31 10:30:00+00', 1.25::decimal(5,2)", [])))[0], ['9007199254740993', '2024-01-31T10:30:00Z', 1.25]);
    assert.deepEqual((await collectRows(await open.sqlite.connection.execute('select 9007199254740993, ?, ?', [true, 'x'])))[0], ['9007199254740993', 1, 'x']);
    assert.deepEqual(await collectRows(await open.duckdb.connection.execute("select current_setting('TimeZone')", [])), [['UTC']]);
    await assert.rejects((async () => collectRows(await open.duckdb.connection.execute("SET TimeZone = 'Asia/Tokyo'", [])))(), /locked/);
  });

  test('SQLite: a heavy statement neither blocks the event loop nor outlives its timeout', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 20);
    const started = Date.now();
    const heavy = 'with recursive n(i) as (select 1 union all select i + 1 from n where i < 2000000000) select count(*) from n';
    await assert.rejects(
      (async () => collectRows(await open.sqlite.connection.execute(heavy, [], { timeoutMs: 500 })))(),
      (error: unknown) => error instanceof QueryCancelledError && error.reason === 'timeout',
    );
    clearInterval(timer);
    // Unstopped, the statement runs for minutes; a blocked event loop would fire no timer at all. Both bounds are
    // loose so that a loaded machine can't fail them.
    assert.ok(Date.now() - started < 10_000, `stopped in ${Date.now() - started} ms`);
    assert.ok(ticks >= 2, `the event loop kept running (${ticks} ticks)`);
    const parallel = await Promise.all([1, 2, 3].map(async (n) => collectRows(await open.sqlite.connection.execute('select ?', [n]))));
    assert.deepEqual(parallel, [[[1]], [[2]], [[3]]]);
  });

  test('introspection reports schemas, keys and versions', async () => {
    assert.deepEqual(await open.postgres.connection.schemas(), ['public']);
    assert.deepEqual(await open.duckdb.connection.schemas(), ['main']);
    assert.deepEqual(await open.sqlite.connection.schemas(), []);
    for (const engine of ENGINES) {
      const { tables, foreignKeys } = await open[engine].connection.introspect();
      assert.equal(tables.length, 8, engine);
      assert.equal(foreignKeys.length, 6, engine);
      const orders = tables.find((t) => t.name === 'ORDERS')!;
      assert.deepEqual(orders.fields.filter((f) => f.primaryKey).map((f) => f.name), ['ID']);
      assert.ok((await open[engine].connection.version()).version);
    }
  });
});

describe('postgres', () => {
  test('a column of a type outside the built-in list is described even with a pool of one connection', async () => {
    const driver = driverFor('postgres');
    const single = driver.open(driver.normalizeDetails(samples.details.postgres), { maxConnections: 1, dataDir: tmpdir() });
    try {
      // pg_sleep returns `void`, which the driver has to look up in pg_type while the only connection is busy.
      const stream = await Promise.race([
        single.execute('select pg_sleep(0) as slept, 1 as one', []),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('deadlocked')), 10_000)),
      ]);
      assert.deepEqual(stream.columns.map((c) => c.databaseType), ['void', 'int4']);
      assert.deepEqual((await collectRows(stream)).map((r) => r[1]), [1]);
    } finally {
      await single.close();
    }
  });

  test('batches end to end on one connection: batch boundaries, early stops, failures mid-stream, bad values, no rows', async () => {
    const driver = driverFor('postgres');
    const single = driver.open(driver.normalizeDetails(samples.details.postgres), { maxConnections: 1, dataDir: tmpdir() });
    const series = (n: number) => single.execute('select g from generate_series(1, $1::int) g', [n]);
    try {
      // exactly one batch, exactly two, and one more row: every row once, in order
      const B = POSTGRES_BATCH_ROWS;
      for (const n of [0, 1, B - 1, B, B + 1, 2 * B, 2 * B + 1, 2 * B + 345]) {
        const rows = await collectRows(await series(n));
        assert.equal(rows.length, n, `${n} rows`);
        assert.ok(rows.every((r, i) => r[0] === i + 1), `${n} rows in order`);
      }
      // stopping early, in the first batch and in a later one, leaves the one connection usable at once
      for (const stopAt of [1, B + 200]) {
        const stream = await series(3 * B);
        let seen = 0;
        for await (const _row of stream) if (++seen === stopAt) break;
        assert.deepEqual(await collectRows(await single.execute('select 1', [])), [[1]], `after a stop at ${stopAt}`);
      }
      const closedUnread = await series(3 * B);
      await closedUnread.close();
      // a failure in a later batch, after rows were read
      const failing = await single.execute('select 1 / ($1::int - g) as x from generate_series(1, $2::int) g', [B + 200, 2 * B]);
      let read = 0;
      await assert.rejects(
        (async () => {
          for await (const _row of failing) read += 1;
        })(),
        /division by zero/,
      );
      assert.equal(read, B, 'the first batch arrived before the failure');
      // a value pg can't bind is refused before anything is sent
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      await assert.rejects(single.execute('select $1::text', [circular]), /circular/i);
      // statements without rows, bound arrays, the connection still fine after all of it
      const noRows = await single.execute('select 1 where false', []);
      assert.deepEqual(noRows.columns.map((c) => c.name), ['?column?']);
      assert.deepEqual(await collectRows(noRows), []);
      const empty = await single.execute('', []);
      assert.deepEqual([empty.columns, await collectRows(empty)], [[], []]);
      assert.deepEqual(await collectRows(await single.execute('select count(*)::int from generate_series(1, 10) g where g = any($1::bigint[])', [[2, 3, 11]])), [[2]]);
      assert.deepEqual(await collectRows(await single.execute('select $1::text, $2::int', ['x', 7])), [['x', 7]]);
    } finally {
      await single.close();
    }
  });

  test('statements on the statement thread: errors keep class and SQL state, a wait for a connection can be cancelled, rows can come back as JSON', async () => {
    const driver = driverFor('postgres');
    const single = driver.open(driver.normalizeDetails(samples.details.postgres), { maxConnections: 1, dataDir: tmpdir() });
    try {
      const syntax = await single.execute('selec 1', []).then(
        () => assert.fail('a syntax error must reject'),
        (error: any) => error,
      );
      assert.equal(syntax.constructor.name, 'DatabaseError');
      assert.equal(syntax.code, '42601');
      assert.equal(syntax.position, '1');
      assert.match(syntax.message, /syntax error at or near "selec"/);

      // The only connection is busy with a sleep; a second statement waits for it and is cancelled while waiting.
      const sleeping = new AbortController();
      const busy = single.execute('select pg_sleep(30)', [], { signal: sleeping.signal });
      await new Promise((r) => setTimeout(r, 300));
      const waiting = new AbortController();
      const queued = single.execute('select 1', [], { signal: waiting.signal });
      const started = Date.now();
      await new Promise((r) => setTimeout(r, 200)); // the statement is on the thread, waiting for the connection
      waiting.abort();
      await assert.rejects(queued, QueryCancelledError);
      sleeping.abort();
      await assert.rejects(busy, QueryCancelledError);
      assert.ok(Date.now() - started < 20_000, 'neither waited for the sleep');
      assert.deepEqual(await collectRows(await single.execute('select 2', [])), [[2]], 'the connection is usable again');

      // An API result: converted, fingerprinted and written as JSON where pg read the rows.
      const stream = await single.execute('select g, g * 1.5 as half from generate_series(1, 1200) g', []);
      const cols = stream.columns.map((c) => ({ name: c.name, display_name: c.name, base_type: c.baseType }));
      const encoded = stream.encoded!({ cols, zone: 'UTC', mode: 'iso', weekStart: 1, maxRows: 1000, annotate: true });
      let json = '';
      let count = 0;
      for (let chunk = await encoded.next(); chunk; chunk = await encoded.next()) {
        if (chunk.json) json += (json ? ',' : '') + chunk.json;
        count += chunk.count;
      }
      const rows = JSON.parse(`[${json}]`);
      assert.equal(count, 1000, 'cut at the row limit');
      assert.deepEqual([rows.length, rows[0], rows[999]], [1000, [1, 1.5], [1000, 1500]]);
      const summary = encoded.summary() as any;
      assert.equal(summary.results_metadata.columns[0].fingerprint.global['distinct-count'], 1000);
      assert.deepEqual(await collectRows(await single.execute('select 3', [])), [[3]], 'the early stop let the connection go');
    } finally {
      await single.close();
    }
  });
});
