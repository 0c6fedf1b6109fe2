// Lookups that scanned the whole report_card table, whose rows are large (queries and result metadata): the cards
// built on a card (cleared when it is deleted) and the cards of one type (search by model, e.g. `models=dataset`).
// With thousands of saved questions each scan cost milliseconds of the server's time per request.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';

export async function up(db: Kysely<any>, _dialect: AppDbDialect): Promise<void> {
  await db.schema.createIndex('idx_card_source_card').on('report_card').column('source_card_id').execute();
  await db.schema.createIndex('idx_card_type_archived').on('report_card').columns(['type', 'archived']).execute();
}
