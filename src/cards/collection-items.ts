// Cards in collections: listed among a collection's items (as "card", "dataset" or "metric"), counted in
// here/below, and archived with their collection.

import { bool, parseJson, type Db } from '../appdb/portable.js';
import { registerCollectable } from '../collections/collectables.js';
import { registerItemSource, type Item, type ItemQuery } from '../collections/items.js';
import { lastEditInfo } from '../revisions/revisions.js';
import { cardsJson } from './json.js';
import { fullyParameterized } from './query-info.js';
import { itemModelOf } from './store.js';
import { deleteCardRows } from './delete.js';

const TYPE_OF: Record<string, string> = { card: 'question', dataset: 'model', metric: 'metric' };

async function cardItems(query: ItemQuery, models: ReadonlySet<string>): Promise<Item[]> {
  const { ctx, access } = query;
  let q = ctx.db
    .selectFrom('report_card')
    .selectAll()
    .where('type', 'in', [...models].map((m) => TYPE_OF[m]))
    .where('archived', '=', query.archived);
  if (query.isTrash) {
    q = q.where('archived_directly', '=', true).where((eb) => access.filter(eb, 'report_card.collection_id', 'write'));
  } else {
    q = query.collection === null ? q.where('collection_id', 'is', null) : q.where('collection_id', '=', query.collection.id);
    q = q.where('archived_directly', '=', false);
  }
  if (!query.showDashboardQuestions) q = q.where('dashboard_id', 'is', null);
  if (query.pinnedState === 'is_pinned') q = q.where('collection_position', 'is not', null);
  if (query.pinnedState === 'is_not_pinned') q = q.where('collection_position', 'is', null);
  const rows = await q.execute();
  const full = await cardsJson(ctx, access, rows);
  const edits = await lastEditInfo(ctx.db, 'Card', rows.map((r) => r.id));
  return rows.map((row, i) => {
    const card = full[i];
    const model = itemModelOf(row.type);
    const item: Item = {
      id: row.id,
      model,
      name: row.name,
      description: row.description,
      entity_id: row.entity_id,
      collection_position: row.collection_position,
      display: row.display,
      collection_preview: bool(row.collection_preview),
      dashboard_id: row.dashboard_id,
      dashboard: card.dashboard,
      last_used_at: row.last_used_at,
      archived: bool(row.archived),
      location: null,
      moderated_status: null,
      can_write: card.can_write,
      can_restore: card.can_restore,
      can_delete: card.can_delete,
      dashboard_count: card.dashboard_count,
      fully_parameterized: fullyParameterized(parseJson(row.dataset_query, {})),
      ...(model !== 'metric' ? { database_id: row.database_id } : {}),
      ...(model === 'dataset' ? { based_on_upload: card.based_on_upload } : {}),
      ...(query.includeCanRunAdhocQuery ? { can_run_adhoc_query: card.can_run_adhoc_query } : {}),
    };
    const edit = edits.get(row.id);
    if (edit) item['last-edit-info'] = edit;
    return item;
  });
}

async function cardKinds(db: Db, collectionIds: number[], options: { showDashboardQuestions: boolean }) {
  let q = db
    .selectFrom('report_card')
    .select(['collection_id', 'type'])
    .distinct()
    .where('archived', '=', false)
    .where('collection_id', 'in', collectionIds);
  if (!options.showDashboardQuestions) q = q.where('dashboard_id', 'is', null);
  const rows = await q.execute();
  const out = new Map<number, Set<string>>();
  for (const row of rows) {
    const set = out.get(row.collection_id as number) ?? new Set<string>();
    set.add(itemModelOf(row.type));
    out.set(row.collection_id as number, set);
  }
  return out;
}

registerItemSource({ models: ['card', 'dataset', 'metric'], namespaces: [null], items: cardItems, kinds: cardKinds });

registerCollectable({
  model: 'Card',
  async setArchivedWithCollections(db, collectionIds, archived) {
    await db
      .updateTable('report_card')
      .set({ archived })
      .where('collection_id', 'in', collectionIds)
      .where('archived_directly', '=', false)
      .execute();
  },
  async deleteWithCollections(db, collectionIds) {
    const cards = await db.selectFrom('report_card').select('id').where('collection_id', 'in', collectionIds).execute();
    await deleteCardRows(db, cards.map((c) => c.id));
  },
});
