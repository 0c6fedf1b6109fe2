// Cards' entity_id is their identity across instances (serialization): clients may send one on create, so two cards
// must never share it. Duplicates from before the index (only possible through client-sent ids) keep the oldest card's
// id; the others get fresh ones.

import type { Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';
import { newEntityId } from '../../util/entity-id.js';

export async function up(db: Kysely<any>, _dialect: AppDbDialect): Promise<void> {
  const rows: Array<{ id: number; entity_id: string }> = await db.selectFrom('report_card').select(['id', 'entity_id']).orderBy('id').execute();
  const seen = new Set<string>();
  for (const row of rows) {
    if (!seen.has(row.entity_id)) {
      seen.add(row.entity_id);
      continue;
    }
    let fresh = newEntityId();
    while (seen.has(fresh)) fresh = newEntityId();
    seen.add(fresh);
    await db.updateTable('report_card').set({ entity_id: fresh }).where('id', '=', row.id).execute();
  }
  await db.schema.createIndex('uq_report_card_entity_id').on('report_card').column('entity_id').unique().execute();
}
