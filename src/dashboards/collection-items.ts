// Dashboards in collections: listed among a collection's items, counted in here/below, archived with their
// collection. (Made with the first dashboard tables so that collections work before the dashboards API exists.)

import { bool, type Db } from '../appdb/portable.js';
import { registerCollectable } from '../collections/collectables.js';
import { registerItemSource, type Item, type ItemQuery } from '../collections/items.js';
import { childrenLocation } from '../collections/locations.js';
import { lastEditInfo } from '../revisions/revisions.js';
import { deleteDashboardRows } from './delete.js';

async function dashboardItems(query: ItemQuery): Promise<Item[]> {
  const { ctx, access } = query;
  let q = ctx.db.selectFrom('report_dashboard').selectAll().where('archived', '=', query.archived);
  if (query.isTrash) {
    q = q.where('archived_directly', '=', true).where((eb) => access.filter(eb, 'report_dashboard.collection_id', 'write'));
  } else {
    q = query.collection === null ? q.where('collection_id', 'is', null) : q.where('collection_id', '=', query.collection.id);
    q = q.where('archived_directly', '=', false);
  }
  if (query.pinnedState === 'is_pinned') q = q.where('collection_position', 'is not', null);
  if (query.pinnedState === 'is_not_pinned') q = q.where('collection_position', 'is', null);
  const rows = await q.execute();
  const ids = rows.map((r) => r.id);
  const [edits, withQuestions] = await Promise.all([
    lastEditInfo(ctx.db, 'Dashboard', ids),
    ids.length
      ? ctx.db.selectFrom('report_card').select('dashboard_id').distinct().where('dashboard_id', 'in', ids).where('archived', '=', false).execute()
      : Promise.resolve([]),
  ]);
  const hasQuestions = new Set(withQuestions.map((r) => r.dashboard_id));
  const location = query.collection ? childrenLocation(query.collection) : '/';
  return rows.map((row) => {
    const canWrite = access.canWrite(row.collection_id);
    const archived = bool(row.archived);
    const item: Item = {
      id: row.id,
      model: 'dashboard',
      name: row.name,
      description: row.description,
      entity_id: row.entity_id,
      collection_position: row.collection_position,
      last_used_at: row.last_viewed_at,
      archived,
      location,
      moderated_status: null,
      dashboard_id: null,
      database_id: null,
      can_write: canWrite,
      can_restore: archived && bool(row.archived_directly) && canWrite,
      can_delete: archived && canWrite,
      ...(hasQuestions.has(row.id) ? { here: ['card'] } : {}),
    };
    const edit = edits.get(row.id);
    if (edit) item['last-edit-info'] = edit;
    return item;
  });
}

async function dashboardKinds(db: Db, collectionIds: number[]) {
  const rows = await db
    .selectFrom('report_dashboard')
    .select('collection_id')
    .distinct()
    .where('archived', '=', false)
    .where('collection_id', 'in', collectionIds)
    .execute();
  return new Map(rows.map((r) => [r.collection_id as number, new Set(['dashboard'])]));
}

registerItemSource({ models: ['dashboard'], namespaces: [null], items: dashboardItems, kinds: dashboardKinds });

registerCollectable({
  model: 'Dashboard',
  async setArchivedWithCollections(db, collectionIds, archived) {
    await db
      .updateTable('report_dashboard')
      .set({ archived })
      .where('collection_id', 'in', collectionIds)
      .where('archived_directly', '=', false)
      .execute();
  },
  async deleteWithCollections(db, collectionIds) {
    const dashboards = await db.selectFrom('report_dashboard').select('id').where('collection_id', 'in', collectionIds).execute();
    for (const { id } of dashboards) await deleteDashboardRows(db, id);
  },
});
