// Dashcards that are action buttons. Deleting an action removes its buttons (as Metabase's foreign key cascades).

import type { Db } from '../appdb/portable.js';

export async function deleteActionDashcards(db: Db, actionId: number): Promise<void> {
  const ids = (await db.selectFrom('report_dashboardcard').select('id').where('action_id', '=', actionId).execute()).map((r) => r.id);
  if (!ids.length) return;
  await db.deleteFrom('dashboardcard_series').where('dashboardcard_id', 'in', ids).execute();
  await db.deleteFrom('report_dashboardcard').where('id', 'in', ids).execute();
}
