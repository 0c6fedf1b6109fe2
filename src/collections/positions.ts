// `collection_position`: the pinned order of a collection's cards, dashboards and subscriptions (1 is first). They
// share one order, as in Metabase: pinning any of them at N moves the others at N and after.

import type { Db } from '../appdb/portable.js';

/** `collection_position` is a smallint column (on PostgreSQL): 1 … 32767. */
export const MAX_COLLECTION_POSITION = 32_767;

export type PinnedTable = 'report_card' | 'report_dashboard' | 'pulse';

const PINNED_TABLES: PinnedTable[] = ['report_card', 'report_dashboard', 'pulse'];

/**
 * Makes room at `position` among the pinned items of one collection: those at or after it move one down (never past
 * the largest position), except the item being placed (`exceptId` of `table`).
 */
export async function shiftCollectionPositions(db: Db, table: PinnedTable, collectionId: number | null, position: number, exceptId: number): Promise<void> {
  for (const each of PINNED_TABLES) {
    let query = db
      .updateTable(each as 'report_card')
      .set((eb) => ({ collection_position: eb(eb.ref('collection_position'), '+', 1) }))
      .where('collection_position', '>=', position)
      .where('collection_position', '<', MAX_COLLECTION_POSITION);
    if (each === table) query = query.where('id', '!=', exceptId);
    query = collectionId === null ? query.where('collection_id', 'is', null) : query.where('collection_id', '=', collectionId);
    await query.execute();
  }
}
