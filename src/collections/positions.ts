// `collection_position`: the pinned order of cards and dashboards inside a collection (1 is first).

import type { Db } from '../appdb/portable.js';

/** `collection_position` is a smallint column (on PostgreSQL): 1 … 32767. */
export const MAX_COLLECTION_POSITION = 32_767;

/**
 * Makes room at `position` among the pinned items of `table` in one collection: those at or after it move one down
 * (never past the largest position), except the item being placed.
 */
export async function shiftCollectionPositions(
  db: Db,
  table: 'report_card' | 'report_dashboard',
  collectionId: number | null,
  position: number,
  exceptId: number,
): Promise<void> {
  let query = db
    .updateTable(table as 'report_card')
    .set((eb) => ({ collection_position: eb(eb.ref('collection_position'), '+', 1) }))
    .where('collection_position', '>=', position)
    .where('collection_position', '<', MAX_COLLECTION_POSITION)
    .where('id', '!=', exceptId);
  query = collectionId === null ? query.where('collection_id', 'is', null) : query.where('collection_id', '=', collectionId);
  await query.execute();
}
