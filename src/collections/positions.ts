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

type Pinned = { collectionId: number | null; position: number | null };

/** Adds `delta` to the pinned positions in [from, to] of one collection's cards and dashboards, except the item moved. */
async function shiftRange(db: Db, collectionId: number | null, from: number, to: number, delta: 1 | -1, except: { table: string; id: number }): Promise<void> {
  for (const table of ['report_card', 'report_dashboard'] as const) {
    let query = db
      .updateTable(table as 'report_card')
      .set((eb) => ({ collection_position: eb(eb.ref('collection_position'), '+', delta) }))
      .where('collection_position', '>=', from)
      .where('collection_position', '<=', Math.min(to, delta > 0 ? MAX_COLLECTION_POSITION - 1 : MAX_COLLECTION_POSITION));
    if (table === except.table) query = query.where('id', '!=', except.id);
    query = collectionId === null ? query.where('collection_id', 'is', null) : query.where('collection_id', '=', collectionId);
    await query.execute();
  }
}

/**
 * Keeps the pinned order of collections consistent when an item's collection or position changes, as Metabase does
 * across the cards and dashboards of a collection: leaving a position closes the gap behind it, taking one makes room
 * (a pinned item moved to another collection keeps its position there), and a move inside one collection shifts
 * only the items between the two positions.
 */
export async function reconcileCollectionPosition(db: Db, item: { table: 'report_card' | 'report_dashboard'; id: number }, before: Pinned, after: Pinned): Promise<void> {
  const except = { table: item.table, id: item.id };
  if (before.collectionId === after.collectionId) {
    if (before.position === after.position) return;
    if (before.position === null) return shiftRange(db, after.collectionId, after.position!, MAX_COLLECTION_POSITION, 1, except);
    if (after.position === null) return shiftRange(db, before.collectionId, before.position + 1, MAX_COLLECTION_POSITION, -1, except);
    if (after.position < before.position) return shiftRange(db, after.collectionId, after.position, before.position - 1, 1, except);
    return shiftRange(db, after.collectionId, before.position + 1, after.position, -1, except);
  }
  if (before.position !== null) await shiftRange(db, before.collectionId, before.position + 1, MAX_COLLECTION_POSITION, -1, except);
  if (after.position !== null) await shiftRange(db, after.collectionId, after.position, MAX_COLLECTION_POSITION, 1, except);
}
