// How collections look in API responses: the root pseudo-collection, the detail of one collection (with
// effective location and ancestors for the caller), and the plain rows of lists.

import type { AppContext } from '../context.js';
import type { CollectionAccess } from '../permissions/collections.js';
import { bool, type Db } from '../appdb/portable.js';
import { collectionsByIds, type CollectionRow } from './store.js';
import { locationIds, parentIdOf } from './locations.js';

export const ROOT_MARKER = 'metabase.models.collection.root/is-root?';

export function rootCollectionName(namespace: string | null): string {
  return namespace === 'snippets' ? 'Top folder' : 'Our analytics';
}

/** The root collection as GET /api/collection/root shows it. */
export function rootCollectionJson(access: CollectionAccess, namespace: string | null) {
  return {
    authority_level: null,
    name: rootCollectionName(namespace),
    ...(namespace ? { namespace } : {}),
    is_personal: false,
    id: 'root' as const,
    can_write: access.canWrite(null, namespace),
    effective_location: null,
    effective_ancestors: [],
    parent_id: null,
    can_restore: false,
    can_delete: false,
  };
}

/** The root entry of GET /api/collection (lists leave out the detail keys). */
export function rootListEntry(access: CollectionAccess, namespace: string | null) {
  return {
    authority_level: null,
    name: rootCollectionName(namespace),
    ...(namespace ? { namespace } : {}),
    is_personal: false,
    id: 'root' as const,
    can_write: access.canWrite(null, namespace),
    can_delete: false,
  };
}

/** The root as an ancestor (breadcrumb) entry. */
function rootAncestor(access: CollectionAccess, namespace: string | null) {
  return {
    [ROOT_MARKER]: true,
    authority_level: null,
    name: rootCollectionName(namespace),
    ...(namespace ? { namespace } : {}),
    is_personal: false,
    id: 'root',
    can_write: access.canWrite(null, namespace),
  };
}

/** The location with the ancestors the caller can't read left out. */
export function effectiveLocation(access: CollectionAccess, location: string): string {
  const visible = locationIds(location).filter((id) => access.canRead(id));
  return visible.length ? `/${visible.join('/')}/` : '/';
}

export function canWriteCollection(access: CollectionAccess, row: CollectionRow): boolean {
  return row.type !== 'trash' && access.canWrite(row.id, row.namespace);
}

/** Archived directly, curatable, and its parent (if any) not archived: it can go back where it was. */
export function canRestoreCollection(access: CollectionAccess, row: CollectionRow, parent: CollectionRow | undefined): boolean {
  return bool(row.archived_directly) && canWriteCollection(access, row) && !(parent && bool(parent.archived));
}

/** The plain columns of a collection row, as lists show them. */
export function collectionRowJson(row: CollectionRow) {
  return {
    id: row.id,
    entity_id: row.entity_id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    location: row.location,
    personal_owner_id: row.personal_owner_id,
    namespace: row.namespace,
    authority_level: row.authority_level,
    type: row.type,
    archived: bool(row.archived),
    archived_directly: row.archived_directly === null ? null : bool(row.archived_directly),
    archive_operation_id: row.archive_operation_id,
    is_sample: bool(row.is_sample),
    created_at: row.created_at,
  };
}

/** Details of several collections at once (ancestors loaded in one query). */
export async function collectionDetails(ctx: AppContext, access: CollectionAccess, rows: CollectionRow[], db: Db = ctx.db) {
  const ancestorIds = rows.flatMap((r) => locationIds(r.location));
  const ancestors = await collectionsByIds(db, ancestorIds);
  return rows.map((row) => {
    const ids = locationIds(row.location);
    const parentId = parentIdOf(row.location);
    const parent = parentId === null ? undefined : ancestors.get(parentId);
    const top = ids[0] === undefined ? undefined : ancestors.get(ids[0]);
    const effectiveIds = ids.filter((id) => access.canRead(id, row.namespace));
    const effective = [
      ...(access.canRead(null, row.namespace) ? [rootAncestor(access, row.namespace)] : []),
      ...effectiveIds
        .map((id) => ancestors.get(id))
        .filter((a): a is CollectionRow => a !== undefined)
        .map((a) => ({
          name: a.name,
          id: a.id,
          personal_owner_id: a.personal_owner_id,
          type: a.type,
          is_personal: a.personal_owner_id !== null || top?.personal_owner_id != null,
          can_write: canWriteCollection(access, a),
        })),
    ];
    return {
      ...collectionRowJson(row),
      parent_id: parentId,
      effective_location: effectiveIds.length ? `/${effectiveIds.join('/')}/` : '/',
      effective_ancestors: effective,
      is_personal: row.personal_owner_id !== null || top?.personal_owner_id != null,
      can_write: canWriteCollection(access, row),
      can_restore: canRestoreCollection(access, row, parent),
      can_delete: false,
    };
  });
}

export async function collectionDetail(ctx: AppContext, access: CollectionAccess, row: CollectionRow, db: Db = ctx.db) {
  return (await collectionDetails(ctx, access, [row], db))[0];
}

/**
 * The `collection` hydrated onto cards, dashboards, timelines…: the collection row plus `is_personal`, or the root
 * collection object for items at the root. One query for the whole batch.
 */
export async function hydrateCollections(
  ctx: AppContext,
  access: CollectionAccess,
  collectionIds: Array<number | null>,
  db: Db = ctx.db,
): Promise<Map<number | null, Record<string, unknown>>> {
  const ids = collectionIds.filter((id): id is number => id !== null);
  const rows = await collectionsByIds(db, ids);
  const tops = await collectionsByIds(db, [...rows.values()].map((r) => locationIds(r.location)[0]).filter((id) => id !== undefined));
  const out = new Map<number | null, Record<string, unknown>>();
  if (collectionIds.includes(null)) {
    out.set(null, { ...rootListEntry(access, null) });
  }
  for (const [id, row] of rows) {
    const top = tops.get(locationIds(row.location)[0]);
    out.set(id, {
      ...collectionRowJson(row),
      is_personal: row.personal_owner_id !== null || top?.personal_owner_id != null,
      effective_location: effectiveLocation(access, row.location),
      can_write: canWriteCollection(access, row),
    });
  }
  return out;
}
