// What Metabase's own seed says about the sample tables that sync can't infer: descriptions, the few semantic
// types where the seed differs from what the name rules suggest (money columns carry none; REVIEWS.BODY is a
// description), and auto-increment keys on the four e-commerce tables. Applied once after the sample's first sync, as admin edits, so later syncs keep them. The
// descriptions are ours, written to match the seed's intent.

import type { AppContext } from '../context.js';
import { nowIso } from '../appdb/portable.js';
import { withAdminEdits } from '../sync/admin-edits.js';

export const SAMPLE_DESCRIPTION = 'Some example data for you to play around with.';
export const SAMPLE_CAVEATS = "You probably don't want to use this for your business-critical analyses, but hey, it's your world, we're just living in it.";
export const SAMPLE_POINTS_OF_INTEREST = 'You can find all sorts of different joinable tables ranging from products to people to reviews here.';

const TABLES: Record<string, { description: string; entityType: string }> = {
  PRODUCTS: { description: 'Includes a catalog of all the products ever sold by the famed Sample Company.', entityType: 'entity/ProductTable' },
  PEOPLE: { description: 'Information on the user accounts registered with Sample Company.', entityType: 'entity/UserTable' },
  ORDERS: { description: 'Confirmed Sample Company orders for a product, from a user.', entityType: 'entity/TransactionTable' },
  REVIEWS: { description: 'Reviews that Sample Company customers have left on our products.', entityType: 'entity/GenericTable' },
  ACCOUNTS: { description: 'Information on customer accounts registered with Piespace. Each account represents a new organization signing up for on-demand pies.', entityType: 'entity/UserTable' },
  ANALYTIC_EVENTS: { description: 'Piespace does some anonymous analytics tracking on how users interact with their platform.', entityType: 'entity/EventTable' },
  FEEDBACK: { description: 'With each order of pies sent out, Piespace includes a place for customers to submit feedback and review their order.', entityType: 'entity/GenericTable' },
  INVOICES: { description: 'Confirmed payments from Piespace customers. Most accounts pay for their pie subscription on a monthly basis.', entityType: 'entity/GenericTable' },
};

const AUTO_INCREMENT_TABLES = new Set(['PRODUCTS', 'PEOPLE', 'ORDERS', 'REVIEWS']);

/** [table, field] → semantic type where the seed differs from inference. */
const SEMANTIC_OVERRIDES: Array<[string, string, string | null]> = [
  ['PRODUCTS', 'PRICE', null],
  ['ORDERS', 'SUBTOTAL', null],
  ['ORDERS', 'TOTAL', null],
  ['PEOPLE', 'BIRTH_DATE', null],
  ['INVOICES', 'PAYMENT', null],
  ['REVIEWS', 'BODY', 'type/Description'],
];

const FIELD_DESCRIPTIONS: Record<string, Record<string, string>> = {
  PRODUCTS: {
    ID: 'The numerical product number. Only used internally. All external communication should use the title or EAN.',
    EAN: 'The international article number. A 13 digit number uniquely identifying the product.',
    TITLE: 'The name of the product as it should be displayed to customers.',
    CATEGORY: 'The type of product, valid values include: Doohickey, Gadget, Gizmo and Widget',
    VENDOR: 'The source of the product.',
    PRICE: 'The list price of the product. Note that this is not always the price the product sold for due to discounts, promotions, etc.',
    RATING: 'The average rating users have given the product. This ranges from 1 - 5',
    CREATED_AT: 'The date the product was added to our catalog.',
  },
  ORDERS: {
    ID: 'This is a unique ID for the product. It is also called the “Invoice number” or “Confirmation number” in customer facing emails and screens.',
    USER_ID: 'The id of the user who made this order. Note that in some cases where an order was created on behalf of a customer who phoned the order in, this might be the employee who handled the request.',
    PRODUCT_ID: 'The product ID. This is an internal identifier for the product, NOT the SKU.',
    SUBTOTAL: 'The raw, pre-tax cost of the order. Note that this might be different in the future from the product price due to promotions, credits, etc.',
    TAX: 'This is the amount of local and federal taxes that are collected on the purchase. Note that other governmental fees on some products are not included here, but instead are accounted for in the subtotal.',
    TOTAL: 'The total billed amount.',
    DISCOUNT: 'Discount amount.',
    CREATED_AT: 'The date and time an order was submitted.',
    QUANTITY: 'Number of products bought.',
  },
};

/** The seed's description and entity type for one of the sample's tables, or null. */
export function seedTableChanges(name: string, current: { description: string | null }): Record<string, unknown> | null {
  const meta = TABLES[name];
  return meta ? { description: current.description ?? meta.description, entity_type: meta.entityType } : null;
}

/**
 * What the seed says about one of the sample's fields that sync wouldn't: its description, semantic type (where the
 * seed differs from inference), FEEDBACK.BODY out of previews, and auto-increment e-commerce keys (H2's
 * AUTO_INCREMENT; SQLite only assigns keys to INTEGER PRIMARY KEY columns, and these keep H2's BIGINT). Attributes
 * sync would otherwise recompute are recorded as admin edits, so later syncs keep them.
 */
export function seedFieldChanges(
  tableName: string,
  field: { name: string; description: string | null; database_is_auto_increment: boolean | number; preview_display: boolean | number; admin_edited: string | null },
): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const edited: string[] = [];
  const description = FIELD_DESCRIPTIONS[tableName]?.[field.name];
  if (description && field.description === null) changes.description = description;
  const override = SEMANTIC_OVERRIDES.find(([t, f]) => t === tableName && f === field.name);
  if (override) {
    changes.semantic_type = override[2];
    edited.push('semantic_type');
  }
  if (tableName === 'FEEDBACK' && field.name === 'BODY' && field.preview_display) {
    changes.preview_display = false;
    edited.push('preview_display');
  }
  if (AUTO_INCREMENT_TABLES.has(tableName) && field.name === 'ID' && !field.database_is_auto_increment) {
    changes.database_is_auto_increment = true;
    changes.database_required = false;
    edited.push('database_is_auto_increment', 'database_required');
  }
  if (edited.length) changes.admin_edited = withAdminEdits(field, edited);
  return changes;
}

/** Applies the seed's metadata after a sync (for a sample whose rows sync numbered itself; idempotent). */
export async function applySampleMetadata(ctx: AppContext, databaseId: number): Promise<void> {
  const now = nowIso();
  const tables = await ctx.db.selectFrom('metabase_table').selectAll().where('db_id', '=', databaseId).execute();
  for (const table of tables) {
    const changes = seedTableChanges(table.name, table);
    if (changes) await ctx.db.updateTable('metabase_table').set({ ...changes, updated_at: now }).where('id', '=', table.id).execute();
  }
  const fields = tables.length ? await ctx.db.selectFrom('metabase_field').selectAll().where('table_id', 'in', tables.map((t) => t.id)).execute() : [];
  for (const field of fields) {
    const tableName = tables.find((t) => t.id === field.table_id)?.name ?? '';
    const changes = seedFieldChanges(tableName, field);
    if (Object.keys(changes).length) await ctx.db.updateTable('metabase_field').set({ ...changes, updated_at: now }).where('id', '=', field.id).execute();
  }
}
