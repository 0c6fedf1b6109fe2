// GET /api/collection/tree: the visible collections nested under their effective parents, each node with
// `children` and `here`/`below` (which kinds of cards are directly in it and further down: "card" for saved
// questions, "dataset" for models, "metric").

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { bool } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { annotateHereBelow, effectiveParentId } from './items.js';
import { inOtherUsersPersonalTree, sortCollections, visibleCollections } from './collections.js';
import { collectionRowJson, canWriteCollection } from './json.js';
import { locationIds } from './locations.js';
import type { CollectionRow } from './store.js';

export interface TreeOptions {
  excludeArchived: boolean;
  excludeOtherUserCollections: boolean;
  namespace: string | null;
  shallow: boolean;
  collectionId: number | null;
}

const CARD_KINDS = new Set(['card', 'dataset', 'metric']);

export async function collectionTree(ctx: AppContext, caller: Caller, options: TreeOptions) {
  const access = await collectionAccess(ctx, caller);
  const all = await visibleCollections(ctx, access, options.namespace);
  const others = new Set(all.filter((r) => r.personal_owner_id !== null && r.personal_owner_id !== caller.user.id).map((r) => r.id));
  const personalRoots = new Set(all.filter((r) => r.personal_owner_id !== null).map((r) => r.id));
  // Archived collections never show; the Trash does unless `exclude-archived` (Metabase's tree)
  let rows = all.filter((r) => (r.id === access.trashId ? !options.excludeArchived : !bool(r.archived)));
  if (options.excludeOtherUserCollections) rows = rows.filter((r) => !inOtherUsersPersonalTree(r, others));

  const node = (row: CollectionRow) => {
    const top = locationIds(row.location)[0];
    return {
      ...collectionRowJson(row),
      ...(row.id === access.trashId ? { name: 'Trash' } : {}),
      is_personal: row.personal_owner_id !== null || (top !== undefined && personalRoots.has(top)),
      can_write: canWriteCollection(access, row),
    };
  };

  if (options.shallow) {
    // Only the requested collection's children (and whether each has children of its own).
    const parentId = options.collectionId;
    const childrenOf = (id: number | null) => rows.filter((r) => r.id !== access.trashId && effectiveParentId(access, r) === id);
    const level = parentId === null ? [...childrenOf(null), ...rows.filter((r) => r.id === access.trashId)] : childrenOf(parentId);
    return sortCollections(level).map((row) => ({ ...node(row), children: row.id !== access.trashId && childrenOf(row.id).length > 0 }));
  }

  const annotations = await annotateHereBelow(ctx.db, access, rows, rows, {
    showDashboardQuestions: false,
    only: CARD_KINDS,
    includeCollections: false,
  });
  const byParent = new Map<number | null, CollectionRow[]>();
  for (const row of rows) {
    const parent = row.id === access.trashId ? null : effectiveParentId(access, row);
    const list = byParent.get(parent) ?? [];
    list.push(row);
    byParent.set(parent, list);
  }
  const build = (parent: number | null): Array<Record<string, unknown>> =>
    sortCollections(byParent.get(parent) ?? []).map((row) => {
      const { here, below } = annotations.get(row.id) ?? { here: [], below: [] };
      return { ...node(row), here, below, children: build(row.id) };
    });
  return build(null);
}
