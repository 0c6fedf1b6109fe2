// The ids Metabase's seed gives the Sample Database's tables and fields on a fresh install (reference
// sample-database.md §4), so clients and saved content that name them by number find the same things here. The rows
// are inserted with these ids (and the seed's metadata, ./metadata.ts) before the first sync, which then fills them
// in like any other; only when every one of
// the ids is still free (a fresh app DB, or one where they were never used), otherwise sync numbers them as usual.

import type { AppContext } from '../context.js';
import { nowIso, resetSequence } from '../appdb/portable.js';
import { connectionFor } from '../databases/connections.js';
import { newFieldValues, newTableValues } from '../sync/sync-metadata.js';
import { seedFieldChanges, seedTableChanges } from './metadata.js';

export const SAMPLE_TABLE_IDS: Record<string, number> = {
  ANALYTIC_EVENTS: 1, FEEDBACK: 2, PEOPLE: 3, REVIEWS: 4, ORDERS: 5, ACCOUNTS: 6, INVOICES: 7, PRODUCTS: 8,
};

export const SAMPLE_FIELD_IDS: Record<string, Record<string, number>> = {
  ACCOUNTS: {
    SEATS: 1, TRIAL_ENDS_AT: 2, CANCELED_AT: 3, PLAN: 4, ACTIVE_SUBSCRIPTION: 5, LATITUDE: 6, ID: 7, LEGACY_PLAN: 8, FIRST_NAME: 9,
    LAST_NAME: 10, SOURCE: 11, EMAIL: 12, CREATED_AT: 13, TRIAL_CONVERTED: 14, COUNTRY: 15, LONGITUDE: 16,
  },
  ANALYTIC_EVENTS: { EVENT: 17, PAGE_URL: 18, BUTTON_LABEL: 19, ID: 20, ACCOUNT_ID: 21, TIMESTAMP: 22 },
  FEEDBACK: { RATING: 23, ID: 24, ACCOUNT_ID: 25, EMAIL: 26, BODY: 27, RATING_MAPPED: 28, DATE_RECEIVED: 29 },
  INVOICES: { PLAN: 30, ID: 31, ACCOUNT_ID: 32, DATE_RECEIVED: 33, PAYMENT: 34, EXPECTED_INVOICE: 35 },
  ORDERS: { DISCOUNT: 36, ID: 37, TAX: 38, QUANTITY: 39, PRODUCT_ID: 40, CREATED_AT: 41, TOTAL: 42, USER_ID: 43, SUBTOTAL: 44 },
  PEOPLE: {
    SOURCE: 45, ID: 46, NAME: 47, STATE: 48, BIRTH_DATE: 49, LONGITUDE: 50, EMAIL: 51, ADDRESS: 52, PASSWORD: 53, ZIP: 54, CITY: 55,
    CREATED_AT: 56, LATITUDE: 57,
  },
  PRODUCTS: { CATEGORY: 58, PRICE: 59, VENDOR: 60, RATING: 61, ID: 62, EAN: 63, CREATED_AT: 64, TITLE: 65 },
  REVIEWS: { RATING: 66, BODY: 67, ID: 68, CREATED_AT: 69, REVIEWER: 70, PRODUCT_ID: 71 },
};

/**
 * Before the sample's first sync: its tables and fields with the seed's ids, when the database has no tables yet and
 * all those ids are free. Returns whether it seeded. Any failure (another instance seeding at once) leaves nothing
 * behind, and the sync numbers the rows as usual.
 */
export async function seedSampleIds(ctx: AppContext, databaseId: number): Promise<boolean> {
  const tableIds = Object.values(SAMPLE_TABLE_IDS);
  const fieldIds = Object.values(SAMPLE_FIELD_IDS).flatMap((fields) => Object.values(fields));
  const own = await ctx.db.selectFrom('metabase_table').select('id').where('db_id', '=', databaseId).executeTakeFirst();
  if (own) return false;
  const usedTable = await ctx.db.selectFrom('metabase_table').select('id').where('id', 'in', tableIds).executeTakeFirst();
  const usedField = await ctx.db.selectFrom('metabase_field').select('id').where('id', 'in', fieldIds).executeTakeFirst();
  if (usedTable || usedField) return false;
  const { connection } = await connectionFor(ctx, databaseId);
  const introspection = await connection.introspect();
  const tables = introspection.tables.filter((t) => SAMPLE_TABLE_IDS[t.name] !== undefined);
  // Only the file we wrote: all eight tables, each column known.
  if (tables.length !== tableIds.length || tables.some((t) => t.fields.some((f) => SAMPLE_FIELD_IDS[t.name][f.name] === undefined))) return false;
  const now = nowIso();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      for (const t of tables) {
        const tableId = SAMPLE_TABLE_IDS[t.name];
        const table = newTableValues(databaseId, t, now);
        await trx.insertInto('metabase_table').values({ id: tableId, ...table, ...seedTableChanges(t.name, table) }).execute();
        const rows = t.fields.map((f) => {
          const field = newFieldValues(tableId, f, now, false);
          return { id: SAMPLE_FIELD_IDS[t.name][f.name], ...field, ...seedFieldChanges(t.name, field) };
        });
        await trx.insertInto('metabase_field').values(rows).execute();
      }
      await resetSequence(trx, ctx.dialect, 'metabase_table');
      await resetSequence(trx, ctx.dialect, 'metabase_field');
    });
    return true;
  } catch (error) {
    ctx.log.warn({ err: error }, 'giving the sample database its usual ids failed; sync numbers its tables instead');
    return false;
  }
}
