// Deleting a dashboard for good: its row (dashcards, tabs and dashboard questions go with it by cascade), and the
// history and activity of it and of its dashboard questions.

import type { Db } from '../appdb/portable.js';
import { forgetItem } from '../activity/cleanup.js';
import { deleteRevisions } from '../revisions/revisions.js';
import { dashboardQuestionIds } from './dashboard-questions.js';

export async function deleteDashboardRows(db: Db, id: number): Promise<void> {
  const questions = await dashboardQuestionIds(db, id);
  await db.deleteFrom('report_dashboard').where('id', '=', id).execute();
  await deleteRevisions(db, 'Dashboard', id);
  await forgetItem(db, ['dashboard'], id);
  for (const cardId of questions) {
    await deleteRevisions(db, 'Card', cardId);
    await forgetItem(db, ['card', 'dataset', 'metric'], cardId);
  }
}
