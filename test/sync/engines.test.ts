// The same sample data in SQLite, PostgreSQL, MariaDB and DuckDB: added through the API, synced, and checked —
// tables, fields, base and semantic types, keys, fingerprints and field values — and compared across engines.

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { ENGINES, fieldOf, loadSamplesEverywhere, tableOf, waitForSync, type Engine, type LoadedSamples } from '../databases/helpers.js';

let samples: LoadedSamples;
before(async () => {
  samples = await loadSamplesEverywhere();
});
after(async () => {
  await samples?.cleanup();
});

const TABLES = ['ACCOUNTS', 'ANALYTIC_EVENTS', 'FEEDBACK', 'INVOICES', 'ORDERS', 'PEOPLE', 'PRODUCTS', 'REVIEWS'];
const ROWS: Record<string, number> = { PRODUCTS: 200, PEOPLE: 2500, ORDERS: 18760, REVIEWS: 1112, ACCOUNTS: 2495, ANALYTIC_EVENTS: 37169, FEEDBACK: 642, INVOICES: 13856 };

forEachAppDb('sync of the sample data on every engine', (server) => {
  let admin: Client;
  const metadata = {} as Record<Engine, any>;
  const databases = {} as Record<Engine, any>;

  before(async () => {
    admin = await setupAdmin(server());
    const ids = {} as Record<Engine, number>;
    for (const engine of ENGINES) {
      const created = await admin.post('/api/database', { engine, name: `Sample on ${engine}`, details: samples.details[engine] });
      assert.equal(created.status, 200, created.text);
      assert.equal(created.body.initial_sync_status, 'incomplete');
      ids[engine] = created.body.id;
    }
    for (const engine of ENGINES) {
      databases[engine] = await waitForSync(admin, ids[engine]);
      metadata[engine] = (await admin.get(`/api/database/${ids[engine]}/metadata`)).body;
    }
  });

  for (const engine of ENGINES) {
    test(`${engine}: all eight tables with their fields, in database order`, () => {
      const md = metadata[engine];
      assert.deepEqual(md.tables.map((t: any) => t.name).sort(), TABLES);
      assert.equal(tableOf(md, 'ORDERS').fields.map((f: any) => f.name).join(','), 'ID,USER_ID,PRODUCT_ID,SUBTOTAL,TAX,TOTAL,DISCOUNT,CREATED_AT,QUANTITY');
      assert.equal(tableOf(md, 'PEOPLE').fields.length, 13);
      assert.equal(tableOf(md, 'ACCOUNTS').fields.length, 16);
      for (const t of md.tables) {
        assert.equal(t.initial_sync_status, 'complete');
        assert.ok(t.fields.every((f: any, i: number) => f.database_position === i), `${t.name} positions`);
      }
      assert.equal(tableOf(md, 'ORDERS').display_name, 'Orders');
      assert.equal(fieldOf(md, 'ORDERS', 'USER_ID').display_name, 'User ID');
      assert.equal(fieldOf(md, 'ANALYTIC_EVENTS', 'PAGE_URL').display_name, 'Page URL');
      assert.equal(tableOf(md, 'ANALYTIC_EVENTS').schema, engine === 'postgres' ? 'public' : engine === 'duckdb' ? 'main' : null);
    });

    test(`${engine}: base types`, () => {
      const md = metadata[engine];
      const base = (t: string, f: string) => fieldOf(md, t, f).base_type;
      assert.equal(base('ORDERS', 'ID'), 'type/BigInteger');
      assert.equal(base('ORDERS', 'QUANTITY'), 'type/Integer');
      assert.equal(base('ORDERS', 'TOTAL'), 'type/Float');
      assert.equal(base('ORDERS', 'CREATED_AT'), 'type/DateTime');
      assert.equal(base('PEOPLE', 'BIRTH_DATE'), 'type/Date');
      assert.equal(base('PRODUCTS', 'CATEGORY'), 'type/Text');
      assert.equal(base('ACCOUNTS', 'TRIAL_CONVERTED'), 'type/Boolean');
      assert.equal(base('FEEDBACK', 'BODY'), 'type/Text');
      assert.ok(['type/Integer', 'type/BigInteger'].includes(base('ORDERS', 'USER_ID')));
    });

    test(`${engine}: primary and foreign keys`, () => {
      const md = metadata[engine];
      for (const t of TABLES) assert.equal(fieldOf(md, t, 'ID').semantic_type, 'type/PK', t);
      const fks: Array<[string, string, string]> = [
        ['ORDERS', 'USER_ID', 'PEOPLE'], ['ORDERS', 'PRODUCT_ID', 'PRODUCTS'], ['REVIEWS', 'PRODUCT_ID', 'PRODUCTS'],
        ['ANALYTIC_EVENTS', 'ACCOUNT_ID', 'ACCOUNTS'], ['FEEDBACK', 'ACCOUNT_ID', 'ACCOUNTS'], ['INVOICES', 'ACCOUNT_ID', 'ACCOUNTS'],
      ];
      for (const [table, field, target] of fks) {
        const f = fieldOf(md, table, field);
        assert.equal(f.semantic_type, 'type/FK', `${table}.${field}`);
        assert.equal(f.fk_target_field_id, fieldOf(md, target, 'ID').id);
        assert.equal(f.target.id, fieldOf(md, target, 'ID').id);
      }
      assert.equal(fieldOf(md, 'PEOPLE', 'ID').name_field.name, 'NAME');
    });

    test(`${engine}: semantic types from names and values`, () => {
      const md = metadata[engine];
      const sem = (t: string, f: string) => fieldOf(md, t, f).semantic_type;
      const expected: Array<[string, string, string | null]> = [
        ['PEOPLE', 'EMAIL', 'type/Email'], ['PEOPLE', 'NAME', 'type/Name'], ['PEOPLE', 'CITY', 'type/City'], ['PEOPLE', 'STATE', 'type/State'],
        ['PEOPLE', 'ZIP', 'type/ZipCode'], ['PEOPLE', 'LATITUDE', 'type/Latitude'], ['PEOPLE', 'LONGITUDE', 'type/Longitude'],
        ['PEOPLE', 'SOURCE', 'type/Source'], ['PEOPLE', 'CREATED_AT', 'type/CreationTimestamp'], ['PEOPLE', 'ADDRESS', null],
        ['PRODUCTS', 'CATEGORY', 'type/Category'], ['PRODUCTS', 'TITLE', 'type/Title'], ['PRODUCTS', 'VENDOR', 'type/Company'],
        ['PRODUCTS', 'RATING', 'type/Score'], ['PRODUCTS', 'PRICE', 'type/Price'], ['ORDERS', 'QUANTITY', 'type/Quantity'],
        ['ORDERS', 'DISCOUNT', 'type/Discount'], ['ORDERS', 'TOTAL', 'type/Currency'], ['ACCOUNTS', 'COUNTRY', 'type/Country'],
        ['ACCOUNTS', 'PLAN', 'type/Category'], ['ACCOUNTS', 'CANCELED_AT', 'type/CancelationTimestamp'],
        ['ACCOUNTS', 'TRIAL_CONVERTED', 'type/Category'], ['ANALYTIC_EVENTS', 'EVENT', 'type/Category'],
        ['ANALYTIC_EVENTS', 'PAGE_URL', 'type/URL'], ['FEEDBACK', 'RATING_MAPPED', 'type/Category'], ['ACCOUNTS', 'SEATS', null],
      ];
      for (const [t, f, s] of expected) assert.equal(sem(t, f), s, `${t}.${f}`);
    });

    test(`${engine}: fingerprints from the first 10,000 rows`, () => {
      const md = metadata[engine];
      const category = fieldOf(md, 'PRODUCTS', 'CATEGORY').fingerprint;
      assert.equal(category.global['distinct-count'], 4);
      assert.equal(category.global['nil%'], 0);
      assert.equal(category.type['type/Text']['average-length'], (42 * 9 + 53 * 6 + 51 * 5 + 54 * 6) / 200);
      const price = fieldOf(md, 'PRODUCTS', 'PRICE').fingerprint.type['type/Number'];
      assert.ok(price.min >= 12 && price.max <= 100 && price.q1 < price.q3 && price.sd > 0);
      const discount = fieldOf(md, 'ORDERS', 'DISCOUNT').fingerprint.global['nil%'];
      assert.ok(discount > 0.85 && discount < 0.95);
      const email = fieldOf(md, 'PEOPLE', 'EMAIL').fingerprint.type['type/Text'];
      assert.equal(email['percent-email'], 1);
      const created = fieldOf(md, 'ORDERS', 'CREATED_AT').fingerprint.type['type/DateTime'];
      assert.ok(created.earliest.startsWith('2022-') && created.latest.startsWith('2026-'));
      assert.equal(fieldOf(md, 'ORDERS', 'ID').fingerprint.global['distinct-count'], 10000);
      assert.equal(fieldOf(md, 'ORDERS', 'ID').fingerprint_version, 5);
    });

    test(`${engine}: field values for list fields, search for long text`, async () => {
      const md = metadata[engine];
      const category = fieldOf(md, 'PRODUCTS', 'CATEGORY');
      assert.equal(category.has_field_values, 'list');
      assert.deepEqual(category.values, [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']]);
      const values = await admin.get(`/api/field/${category.id}/values`);
      assert.deepEqual(values.body, { field_id: category.id, values: [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']], has_more_values: false });
      assert.equal(fieldOf(md, 'PEOPLE', 'STATE').values.length, 49);
      assert.equal(fieldOf(md, 'PEOPLE', 'EMAIL').has_field_values, 'search');
      assert.equal(fieldOf(md, 'PEOPLE', 'ADDRESS').has_field_values, 'search');
      assert.equal(fieldOf(md, 'ORDERS', 'CREATED_AT').has_field_values, 'none');
      assert.equal(fieldOf(md, 'ORDERS', 'USER_ID').has_field_values, 'none');
      assert.deepEqual(fieldOf(md, 'ACCOUNTS', 'LEGACY_PLAN').values, [[false], [true]]);
    });

    test(`${engine}: database facts`, () => {
      const db = databases[engine];
      assert.equal(db.engine, engine);
      assert.ok(db.dbms_version.version);
      assert.equal(db.dbms_version.flavor, { sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MariaDB', duckdb: 'DuckDB' }[engine]);
      assert.ok(db.features.includes('basic-aggregations'));
      const orders = tableOf(metadata[engine], 'ORDERS');
      if (engine !== 'mysql') assert.equal(orders.estimated_row_count, ROWS.ORDERS);
      else assert.ok(orders.estimated_row_count > 0);
    });
  }

  test('every engine reads the same values', () => {
    for (const [table, field] of [['PRODUCTS', 'PRICE'], ['ORDERS', 'TOTAL'], ['ORDERS', 'CREATED_AT'], ['PEOPLE', 'LATITUDE'], ['REVIEWS', 'RATING'], ['PEOPLE', 'BIRTH_DATE']]) {
      const fingerprints = ENGINES.map((e) => JSON.stringify(fieldOf(metadata[e], table, field).fingerprint));
      assert.equal(new Set(fingerprints).size, 1, `${table}.${field}: ${fingerprints.join(' | ')}`);
    }
    for (const [table, field] of [['PEOPLE', 'STATE'], ['ACCOUNTS', 'PLAN'], ['REVIEWS', 'RATING'], ['ORDERS', 'QUANTITY']]) {
      const lists = ENGINES.map((e) => JSON.stringify(fieldOf(metadata[e], table, field).values));
      assert.equal(new Set(lists).size, 1, `${table}.${field}`);
    }
  });
});
