// Dashboard questions (cards saved inside a dashboard, `report_card.dashboard_id`) live where their dashboard lives:
// they move with it to another collection and go to (and come back from) the Trash with it.
//
// This is the one place the dashboards module writes `report_card`, and only these two columns of a dashboard's own
// questions, inside the transaction that moved or archived the dashboard — the cards module has no function that can
// join that transaction.

import { bool, type Db } from '../appdb/portable.js';

export async function followDashboard(db: Db, dashboardId: number): Promise<void> {
  const dashboard = await db.selectFrom('report_dashboard').select(['collection_id', 'archived']).where('id', '=', dashboardId).executeTakeFirst();
  if (!dashboard) return;
  await db
    .updateTable('report_card')
    .set({ collection_id: dashboard.collection_id })
    .where('dashboard_id', '=', dashboardId)
    .where((eb) => (dashboard.collection_id === null ? eb('collection_id', 'is not', null) : eb.or([eb('collection_id', 'is', null), eb('collection_id', '!=', dashboard.collection_id)])))
    .execute();
  // Questions trashed on their own stay trashed; the others follow the dashboard.
  await db
    .updateTable('report_card')
    .set({ archived: bool(dashboard.archived) })
    .where('dashboard_id', '=', dashboardId)
    .where('archived_directly', '=', false)
    .execute();
}

/** Ids of the dashboard's own questions. */
export async function dashboardQuestionIds(db: Db, dashboardId: number): Promise<number[]> {
  const rows = await db.selectFrom('report_card').select('id').where('dashboard_id', '=', dashboardId).execute();
  return rows.map((r) => r.id);
}
