// Deleting cards for good: their dashcards go, cards built on them forget their source, and their revisions,
// recent views and bookmarks go with them.

import type { Db } from '../appdb/portable.js';
import { forgetItem } from '../activity/cleanup.js';
import { deleteRevisions } from '../revisions/revisions.js';

export async function deleteCardRows(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('report_dashboardcard').where('card_id', 'in', ids).execute();
  await db.updateTable('report_card').set({ source_card_id: null }).where('source_card_id', 'in', ids).execute();
  await db.deleteFrom('report_card').where('id', 'in', ids).execute();
  for (const id of ids) {
    await deleteRevisions(db, 'Card', id);
    await forgetItem(db, ['card', 'dataset', 'metric'], id);
  }
}
