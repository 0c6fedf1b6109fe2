// Collections: listing, reading, creating, editing, moving, archiving and restoring (GET/POST/PUT /api/collection).

import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, fieldError, forbidden, notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso, type Db } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';
import { slugify } from '../util/slug.js';
import { collectionAccess, trashCollectionId, type CollectionAccess } from '../permissions/collections.js';
import { copyCollectionPermissions, revokeCollectionPermissions } from '../permissions/collection-graph.js';
import { archiveContents } from './collectables.js';
import { childrenLocation, locationFits, locationIds, parentIdOf } from './locations.js';
import { descendantsOf, findCollection, isPersonalLocation, requireCollection, type CollectionRow } from './store.js';
import { collectionDetail, collectionRowJson, rootCollectionJson, rootListEntry, canWriteCollection } from './json.js';

export const TRASH_MESSAGE = 'You cannot modify the Trash Collection.';

/** Reads a collection for the caller (403 without read access). */
export async function readableCollection(ctx: AppContext, access: CollectionAccess, id: number): Promise<CollectionRow> {
  const row = await requireCollection(ctx, id);
  access.checkRead(row.id, row.namespace);
  return row;
}

export async function getCollection(ctx: AppContext, caller: Caller, id: number) {
  const access = await collectionAccess(ctx, caller);
  const row = await readableCollection(ctx, access, id);
  return collectionDetail(ctx, access, row);
}

export async function getRootCollection(ctx: AppContext, caller: Caller, namespace: string | null) {
  const access = await collectionAccess(ctx, caller);
  access.checkRead(null, namespace);
  return rootCollectionJson(access, namespace);
}

export async function getTrashCollection(ctx: AppContext, caller: Caller) {
  const access = await collectionAccess(ctx, caller);
  const id = await trashCollectionId(ctx);
  if (id === null) throw notFound();
  const detail = await collectionDetail(ctx, access, await requireCollection(ctx, id));
  return { ...detail, name: 'Trash' };
}

export interface ListOptions {
  archived: boolean;
  excludeOtherUserCollections: boolean;
  namespace: string | null;
  personalOnly: boolean;
}

/** Visible collections sorted as Metabase sorts them: official first, normal before special types, then by name. */
export function sortCollections<T extends { authority_level: string | null; type: string | null; name: string; id: number }>(rows: T[]): T[] {
  const typeRank = (t: string | null) => (t === null ? 0 : t === 'trash' ? 1 : 2);
  return [...rows].sort(
    (a, b) =>
      (a.authority_level === 'official' ? 0 : 1) - (b.authority_level === 'official' ? 0 : 1) ||
      typeRank(a.type) - typeRank(b.type) ||
      a.name.toLowerCase().localeCompare(b.name.toLowerCase()) ||
      a.id - b.id,
  );
}

/** Collections of a namespace the caller can read, before archive filtering. */
export async function visibleCollections(ctx: AppContext, access: CollectionAccess, namespace: string | null, db: Db = ctx.db): Promise<CollectionRow[]> {
  let query = db.selectFrom('collection').selectAll();
  query = namespace === null ? query.where('namespace', 'is', null) : query.where('namespace', '=', namespace);
  const rows = await query.execute();
  const trashId = access.trashId;
  return rows.filter((r) => r.id === trashId || access.canRead(r.id, r.namespace));
}

/** Ids of other users' personal collections (so their trees can be left out). */
function otherPersonalIds(rows: CollectionRow[], userId: number): Set<number> {
  return new Set(rows.filter((r) => r.personal_owner_id !== null && r.personal_owner_id !== userId).map((r) => r.id));
}

export function inOtherUsersPersonalTree(row: CollectionRow, others: Set<number>): boolean {
  if (others.has(row.id)) return true;
  const top = locationIds(row.location)[0];
  return top !== undefined && others.has(top);
}

export async function listCollections(ctx: AppContext, caller: Caller, options: ListOptions) {
  const access = await collectionAccess(ctx, caller);
  const all = await visibleCollections(ctx, access, options.namespace);
  const others = otherPersonalIds(all, caller.user.id);
  const personalRoots = new Set(all.filter((r) => r.personal_owner_id !== null).map((r) => r.id));
  const rows = all.filter((row) => {
    const isTrash = row.id === access.trashId;
    if (options.archived ? !(isTrash || bool(row.archived)) : isTrash || bool(row.archived)) return false;
    if (options.personalOnly && row.personal_owner_id === null) return false;
    if (options.excludeOtherUserCollections && inOtherUsersPersonalTree(row, others)) return false;
    return true;
  });
  const entries: Array<Record<string, unknown>> = sortCollections(rows).map((row) => {
    const top = locationIds(row.location)[0];
    return {
      ...collectionRowJson(row),
      ...(row.id === access.trashId ? { name: 'Trash' } : {}),
      can_write: canWriteCollection(access, row),
      is_personal: row.personal_owner_id !== null || (top !== undefined && personalRoots.has(top)),
      can_delete: false,
    };
  });
  if (!options.archived && !options.personalOnly && access.canRead(null, options.namespace)) {
    entries.unshift(rootListEntry(access, options.namespace));
  }
  return entries;
}

// ----- create ---------------------------------------------------------------------------------------------------

/** A collection's path of ancestors is a varchar(600) column: about 150 levels, far beyond any real tree. */
const tooDeep = () => fieldError('location', 'Collections cannot be nested this deeply.');

export interface NewCollection {
  name: string;
  description: string | null;
  parent_id: number | null;
  namespace: string | null;
  authority_level: string | null;
}

/** Write access on the parent (or the root of the namespace); the Trash takes nothing. */
async function checkCanPlaceIn(ctx: AppContext, access: CollectionAccess, parentId: number | null, namespace: string | null) {
  if (parentId !== null && parentId === access.trashId) throw badRequest(TRASH_MESSAGE);
  if (parentId === null) {
    access.checkWrite(null, namespace);
    return null;
  }
  const parent = await findCollection(ctx.db, parentId);
  if (!parent) throw fieldError('location', 'Invalid Collection location: some or all ancestors do not exist.', 404);
  access.checkWrite(parent.id, parent.namespace);
  return parent;
}

export async function createCollection(ctx: AppContext, caller: Caller, input: NewCollection) {
  const access = await collectionAccess(ctx, caller);
  const namespace = input.namespace ?? null;
  const parent = await checkCanPlaceIn(ctx, access, input.parent_id, namespace);
  if (parent && (parent.namespace ?? null) !== namespace) {
    throw fieldError('namespace', 'Collection must be in the same namespace as its parent');
  }
  const location = childrenLocation(parent ?? null);
  if (!locationFits(location)) throw tooDeep();
  const personal = await isPersonalLocation(ctx.db, location);
  if (input.authority_level !== null) {
    if (!caller.isSuperuser) throw forbidden();
    if (personal) throw fieldError('authority_level', 'You are not allowed to change the authority level of a Personal Collection.');
  }
  const id = await ctx.db.transaction().execute(async (trx) => {
    const newId = await insertReturningId(trx, ctx.dialect, 'collection', {
      name: input.name,
      description: input.description,
      entity_id: newEntityId(),
      slug: slugify(input.name),
      location,
      personal_owner_id: null,
      namespace,
      authority_level: input.authority_level,
      type: null,
      archived: false,
      archived_directly: null,
      is_sample: false,
      created_at: nowIso(),
    });
    if (!personal) await copyCollectionPermissions(trx, parent?.id ?? null, namespace, [newId], caller.user.id);
    return newId;
  });
  const fresh = await collectionAccess(ctx, caller);
  return collectionDetail(ctx, fresh, await requireCollection(ctx, id));
}

/**
 * Removes a collection made moments ago by a request that then failed (a dashboard save that couldn't finish), with
 * its permission rows — only while nothing has been put in it. Returns whether it was removed.
 */
export async function deleteNewCollection(ctx: AppContext, id: number): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const collection = await findCollection(trx, id);
    if (!collection) return false;
    const child = await trx.selectFrom('collection').select('id').where('location', 'like', `${childrenLocation(collection)}%`).executeTakeFirst();
    const card = await trx.selectFrom('report_card').select('id').where('collection_id', '=', id).executeTakeFirst();
    const dashboard = await trx.selectFrom('report_dashboard').select('id').where('collection_id', '=', id).executeTakeFirst();
    if (child || card || dashboard) return false;
    await revokeCollectionPermissions(trx, [id]);
    await trx.deleteFrom('collection').where('id', '=', id).execute();
    return true;
  });
}

// ----- update: rename, move, archive, restore -----------------------------------------------------------------

export interface CollectionUpdate {
  name?: string | null;
  description?: string | null;
  archived?: boolean | null;
  parent_id?: number | null;
  authority_level?: string | null;
  present: Set<string>;
}

export async function updateCollection(ctx: AppContext, caller: Caller, id: number, update: CollectionUpdate) {
  const access = await collectionAccess(ctx, caller);
  const before = await requireCollection(ctx, id);
  if (before.id === access.trashId) throw badRequest(TRASH_MESSAGE);
  access.checkWrite(before.id, before.namespace);
  const has = (key: string) => update.present.has(key);
  const wantsArchive = has('archived') && update.archived !== null && update.archived !== undefined && update.archived !== bool(before.archived);
  const currentParent = parentIdOf(before.location);
  const wantsMove = has('parent_id') && (update.parent_id ?? null) !== currentParent;

  if (before.personal_owner_id !== null) {
    if (has('authority_level') && (update.authority_level ?? null) !== before.authority_level) {
      throw fieldError('authority_level', 'You are not allowed to change the authority level of a Personal Collection.');
    }
    if (wantsMove) throw fieldError('location', 'You are not allowed to move a Personal Collection.');
    if (wantsArchive) throw fieldError('archived', 'You cannot archive a Personal Collection.');
  }
  if (has('authority_level') && (update.authority_level ?? null) !== before.authority_level) {
    if (!caller.isSuperuser) throw forbidden();
    if (await isPersonalLocation(ctx.db, before.location)) {
      throw fieldError('authority_level', 'You are not allowed to change the authority level of a Personal Collection.');
    }
  }

  await ctx.db.transaction().execute(async (trx) => {
    const changes: Record<string, unknown> = {};
    if (has('name') && update.name) {
      changes.name = update.name;
      changes.slug = slugify(update.name);
    }
    if (has('description')) changes.description = update.description ?? null;
    if (has('authority_level')) changes.authority_level = update.authority_level ?? null;
    if (Object.keys(changes).length > 0) await trx.updateTable('collection').set(changes).where('id', '=', id).execute();

    if (wantsArchive) {
      if (update.archived) await archiveCollection(trx, access, before);
      else await restoreCollection(ctx, trx, access, before, has('parent_id') ? { parentId: update.parent_id ?? null } : null);
    } else if (wantsMove) {
      await moveCollection(ctx, trx, access, before, update.parent_id ?? null);
    }
  });
  const fresh = await collectionAccess(ctx, caller);
  return collectionDetail(ctx, fresh, await requireCollection(ctx, id));
}

/** Moves a collection (and everything below it) under a new parent, fixing permissions across personal boundaries. */
async function moveCollection(ctx: AppContext, db: Db, access: CollectionAccess, collection: CollectionRow, newParentId: number | null) {
  if (newParentId !== null && newParentId === access.trashId) throw badRequest(TRASH_MESSAGE);
  const newParent = newParentId === null ? null : await findCollection(db, newParentId);
  if (newParentId !== null && !newParent) throw fieldError('location', 'Invalid Collection location: some or all ancestors do not exist.', 404);
  if (newParent && (newParent.namespace ?? null) !== (collection.namespace ?? null)) {
    throw fieldError('namespace', 'Collection must be in the same namespace as its parent');
  }
  const newLocation = childrenLocation(newParent ?? null);
  if (locationIds(newLocation).includes(collection.id)) {
    throw badRequest('You cannot move a Collection into itself or into one of its descendants.');
  }
  const descendants = await descendantsOf(db, collection);
  const oldChildren = childrenLocation(collection);
  const newChildren = `${newLocation}${collection.id}/`;
  const relocated = (d: CollectionRow) => newChildren + d.location.slice(oldChildren.length);
  // write on the collection, everything below it and the new parent; none needed on the old parent
  access.checkWrite(newParent?.id ?? null, collection.namespace);
  for (const d of descendants) access.checkWrite(d.id, d.namespace);
  if (!locationFits(newLocation) || descendants.some((d) => !locationFits(relocated(d)))) throw tooDeep();

  const wasPersonal = await isPersonalLocation(db, collection.location);
  const willBePersonal = await isPersonalLocation(db, newLocation);
  await db.updateTable('collection').set({ location: newLocation }).where('id', '=', collection.id).execute();
  for (const d of descendants) {
    await db.updateTable('collection').set({ location: relocated(d) }).where('id', '=', d.id).execute();
  }
  const moved = [collection.id, ...descendants.map((d) => d.id)];
  if (!wasPersonal && willBePersonal) await revokeCollectionPermissions(db, moved);
  if (wasPersonal && !willBePersonal) await copyCollectionPermissions(db, newParent?.id ?? null, collection.namespace, moved, access.caller.user.id);
}

/** Archives a collection with everything below it; things archived on their own keep their state. */
async function archiveCollection(db: Db, access: CollectionAccess, collection: CollectionRow) {
  const descendants = (await descendantsOf(db, collection)).filter((d) => !bool(d.archived));
  for (const d of descendants) access.checkWrite(d.id, d.namespace);
  const operation = randomUUID();
  await db
    .updateTable('collection')
    .set({ archived: true, archived_directly: true, archive_operation_id: operation })
    .where('id', '=', collection.id)
    .execute();
  if (descendants.length > 0) {
    await db
      .updateTable('collection')
      .set({ archived: true, archived_directly: false, archive_operation_id: operation })
      .where('id', 'in', descendants.map((d) => d.id))
      .execute();
  }
  await archiveContents(db, [collection.id, ...descendants.map((d) => d.id)], true);
}

/** Restores a collection archived directly (and what was archived with it), to its old place or a new parent. */
async function restoreCollection(
  ctx: AppContext,
  db: Db,
  access: CollectionAccess,
  collection: CollectionRow,
  target: { parentId: number | null } | null,
) {
  const operation = collection.archive_operation_id;
  const descendants = (await descendantsOf(db, collection)).filter(
    (d) => bool(d.archived) && d.archive_operation_id === operation && !bool(d.archived_directly),
  );
  const currentParentId = parentIdOf(collection.location);
  const newParentId = target ? target.parentId : currentParentId;
  const newParent = newParentId === null ? null : await findCollection(db, newParentId);
  if (newParentId !== null && (!newParent || bool(newParent.archived))) throw badRequest();
  if (newParentId !== null && newParentId === access.trashId) throw badRequest(TRASH_MESSAGE);
  access.checkWrite(newParent?.id ?? null, collection.namespace);
  for (const d of descendants) access.checkWrite(d.id, d.namespace);
  const restored = [collection.id, ...descendants.map((d) => d.id)];
  await db
    .updateTable('collection')
    .set({ archived: false, archived_directly: null, archive_operation_id: null })
    .where('id', 'in', restored)
    .execute();
  await archiveContents(db, restored, false);
  if (newParentId !== currentParentId) {
    const fresh = await requireCollection(ctx, collection.id, db);
    await moveCollection(ctx, db, access, fresh, newParentId);
  }
}

