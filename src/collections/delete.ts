// DELETE /api/collection/:id: a collection already in the Trash is deleted for good, by an admin — with the
// collections inside it and everything they hold (cards, dashboards, timelines: each owning module deletes its own
// through collectables.ts), their permission rows, bookmarks and recent views, in one transaction.

import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../http/errors.js';
import { bool } from '../appdb/portable.js';
import { trashCollectionId } from '../permissions/collections.js';
import { revokeCollectionPermissions } from '../permissions/collection-graph.js';
import { forgetItem } from '../activity/cleanup.js';
import { deleteContents } from './collectables.js';
import { descendantsOf, findCollection } from './store.js';

export async function deleteArchivedCollection(ctx: AppContext, id: number): Promise<void> {
  const collection = await findCollection(ctx.db, id);
  if (!collection) throw notFound();
  if (id === (await trashCollectionId(ctx))) throw badRequest('You cannot modify the Trash Collection.');
  if (collection.personal_owner_id !== null) throw badRequest('You cannot delete a personal collection.');
  if (!bool(collection.archived)) throw badRequest('Collection must be trashed before deletion.');
  if (collection.namespace) throw badRequest('Only collections of the default namespace go to the Trash.');
  await ctx.db.transaction().execute(async (trx) => {
    const descendants = await descendantsOf(trx, collection);
    const ids = [id, ...descendants.map((d) => d.id)];
    await deleteContents(trx, ids);
    await revokeCollectionPermissions(trx, ids);
    // deepest first, so no row outlives the parent its location names
    const byDepth = [...descendants].sort((a, b) => b.location.length - a.location.length);
    for (const row of [...byDepth, collection]) {
      await trx.deleteFrom('collection').where('id', '=', row.id).execute();
      await forgetItem(trx, ['collection'], row.id);
    }
  });
}
