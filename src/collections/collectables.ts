// What lives in collections (cards, dashboards, snippets, timelines…) registers here, so that archiving a collection
// archives its contents without the collections module writing other modules' tables.

import type { Db } from '../appdb/portable.js';

export interface Collectable {
  /** Metabase's model name, for logs. */
  model: string;
  /**
   * Archive (true) or restore (false) the contents of `collectionIds` that were not archived on their own
   * (things with `archived_directly` keep their state).
   */
  setArchivedWithCollections(db: Db, collectionIds: number[], archived: boolean): Promise<void>;
  /** Delete for good whatever lives in `collectionIds` (a trashed collection deleted permanently). */
  deleteWithCollections?(db: Db, collectionIds: number[]): Promise<void>;
}

const collectables: Collectable[] = [];

export function registerCollectable(collectable: Collectable): void {
  if (!collectables.some((c) => c.model === collectable.model)) collectables.push(collectable);
}

export async function archiveContents(db: Db, collectionIds: number[], archived: boolean): Promise<void> {
  if (collectionIds.length === 0) return;
  for (const collectable of collectables) await collectable.setArchivedWithCollections(db, collectionIds, archived);
}

export async function deleteContents(db: Db, collectionIds: number[]): Promise<void> {
  if (collectionIds.length === 0) return;
  for (const collectable of collectables) await collectable.deleteWithCollections?.(db, collectionIds);
}
