// The collection permissions graph (GET/PUT /api/collection/graph): storage of group × collection levels, with a
// revision number that makes concurrent edits fail with 409 instead of silently overwriting each other.
//
// Graph shape (sparse, as Metabase 0.56+): {"revision": N, "groups": {"<group id>": {"root": "write", "5": "read"}}};
// "none" is never listed; personal collections (and their descendants), archived collections and the Trash are
// never in the graph; the Administrators group always shows "write" everywhere and has no stored rows.

import { lockForTransaction } from '../appdb/locks.js';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError, badRequest, conflict } from '../http/errors.js';
import { nowIso, toJson, type Db } from '../appdb/portable.js';
import type { CollectionPerm } from './collections.js';

export const ADMIN_GROUP_ID = 2;
export const ADMIN_GROUP_MESSAGE = "You cannot create or revoke permissions for the 'Admin' group.";
export const STALE_GRAPH_MESSAGE =
  'Looks like someone else edited the permissions and your data is out of date. Please fetch new data and try again.';

export type GroupGraph = Record<string, CollectionPerm>;
export interface CollectionGraph {
  revision: number;
  groups: Record<string, GroupGraph>;
}

export async function latestRevision(db: Db): Promise<number> {
  const row = await db
    .selectFrom('collection_permission_graph_revision')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

async function addRevision(db: Db, namespace: string | null, userId: number | null, before: unknown, after: unknown, remark: string | null) {
  await db
    .insertInto('collection_permission_graph_revision')
    .values({ namespace, before: toJson(before), after: toJson(after), user_id: userId, remark, created_at: nowIso() })
    .execute();
}

/** Collections that can carry graph entries in `namespace`: not personal (nor below one), not archived, not the Trash. */
async function eligibleCollectionIds(db: Db, namespace: string | null): Promise<number[]> {
  const rows = await db.selectFrom('collection').select(['id', 'location', 'personal_owner_id', 'namespace', 'archived', 'type']).execute();
  const personal = new Set(rows.filter((r) => r.personal_owner_id !== null).map((r) => r.id));
  return rows
    .filter((r) => (r.namespace ?? null) === namespace)
    .filter((r) => r.type !== 'trash' && !r.archived && r.personal_owner_id === null)
    .filter((r) => {
      const top = Number(r.location.split('/').filter(Boolean)[0]);
      return !personal.has(top);
    })
    .map((r) => r.id)
    .sort((a, b) => a - b);
}

export async function collectionGraph(ctx: AppContext, namespace: string | null, db: Db = ctx.db): Promise<CollectionGraph> {
  const [revision, eligible, rows] = await Promise.all([
    latestRevision(db),
    eligibleCollectionIds(db, namespace),
    db.selectFrom('collection_permission').select(['group_id', 'collection_id', 'namespace', 'perm']).execute(),
  ]);
  const eligibleSet = new Set(eligible);
  const groups: Record<string, GroupGraph> = {};
  for (const row of rows) {
    if (row.group_id === ADMIN_GROUP_ID) continue;
    let key: string;
    if (row.collection_id === null) {
      if ((row.namespace ?? null) !== namespace) continue;
      key = 'root';
    } else {
      if (!eligibleSet.has(row.collection_id)) continue;
      key = String(row.collection_id);
    }
    const group = (groups[String(row.group_id)] ??= {});
    const perm = row.perm === 'write' ? 'write' : 'read';
    group[key] = group[key] === 'write' ? 'write' : perm;
  }
  const admin: GroupGraph = { root: 'write' };
  for (const id of eligible) admin[String(id)] = 'write';
  groups[String(ADMIN_GROUP_ID)] = admin;
  return { revision, groups };
}

function invalidGraph(detail: string): ApiError {
  return badRequest(`Cannot parse permissions graph because it is invalid: ${detail}`);
}

/** Validates `groups` of a PUT body: group ids → (collection id | "root") → write/read/none. */
function parseGroups(groups: Record<string, unknown>): Map<number, Map<number | 'root', CollectionPerm>> {
  const out = new Map<number, Map<number | 'root', CollectionPerm>>();
  for (const [groupKey, value] of Object.entries(groups)) {
    const groupId = Number(groupKey);
    if (!Number.isInteger(groupId) || groupId <= 0) throw invalidGraph(`${JSON.stringify(groupKey)} is not a valid group id`);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidGraph(`the permissions of group ${groupKey} must be a map`);
    const entries = new Map<number | 'root', CollectionPerm>();
    for (const [collectionKey, perm] of Object.entries(value as Record<string, unknown>)) {
      let key: number | 'root';
      if (collectionKey === 'root') key = 'root';
      else {
        key = Number(collectionKey);
        if (!Number.isInteger(key) || key <= 0) throw invalidGraph(`${JSON.stringify(collectionKey)} is not a valid collection id`);
      }
      if (perm !== 'write' && perm !== 'read' && perm !== 'none') throw invalidGraph(`${JSON.stringify(perm)} is not one of write, read, none`);
      entries.set(key, perm);
    }
    out.set(groupId, entries);
  }
  return out;
}

export interface GraphUpdate {
  namespace: string | null;
  revision: number | null;
  groups: Record<string, unknown>;
  force: boolean;
}

/** Applies the parts of the graph present in the request; everything else is left as it was. */
export async function updateCollectionGraph(ctx: AppContext, caller: Caller, update: GraphUpdate): Promise<void> {
  const requested = parseGroups(update.groups);
  await ctx.db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, ctx.dialect, 'collection-permission-graph');
    const current = await collectionGraph(ctx, update.namespace, trx);
    if (!update.force && (update.revision ?? null) !== current.revision) throw conflict(STALE_GRAPH_MESSAGE);
    const eligible = new Set(await eligibleCollectionIds(trx, update.namespace));
    const existingGroups = new Set((await trx.selectFrom('permissions_group').select('id').execute()).map((g) => g.id));
    const changes: Record<string, GroupGraph> = {};
    const before: Record<string, GroupGraph> = {};
    for (const [groupId, entries] of requested) {
      // Admins always have everything: "write" changes nothing, "none" has nothing to revoke (both ignored, as in
      // Metabase), and "read" is refused as Metabase refuses it. Unknown groups have nothing to change (Metabase
      // fails on them with a database error).
      if (groupId === ADMIN_GROUP_ID) {
        for (const [key, perm] of entries) {
          if (perm === 'read' && (key === 'root' || eligible.has(key))) throw badRequest(ADMIN_GROUP_MESSAGE);
        }
        continue;
      }
      if (!existingGroups.has(groupId)) continue;
      const old = current.groups[String(groupId)] ?? {};
      for (const [key, perm] of entries) {
        if (key !== 'root' && !eligible.has(key)) continue; // personal, archived or other-namespace collections
        const was = old[String(key)] ?? 'none';
        if (was === perm) continue;
        (changes[String(groupId)] ??= {})[String(key)] = perm;
        (before[String(groupId)] ??= {})[String(key)] = was;
        await setLevel(trx, groupId, key === 'root' ? null : key, update.namespace, perm);
      }
    }
    if (Object.keys(changes).length > 0) {
      await addRevision(trx, update.namespace, caller.user.id, before, changes, null);
    }
  });
}

async function setLevel(db: Db, groupId: number, collectionId: number | null, namespace: string | null, perm: CollectionPerm) {
  let del = db.deleteFrom('collection_permission').where('group_id', '=', groupId);
  if (collectionId === null) {
    del = del.where('collection_id', 'is', null);
    del = namespace === null ? del.where('namespace', 'is', null) : del.where('namespace', '=', namespace);
  } else {
    del = del.where('collection_id', '=', collectionId);
  }
  await del.execute();
  if (perm !== 'none') {
    await db
      .insertInto('collection_permission')
      .values({ group_id: groupId, collection_id: collectionId, namespace: collectionId === null ? namespace : null, perm })
      .execute();
  }
}

/**
 * Gives `targets` the permissions that `source` has (a collection id, or the root of `namespace` when null):
 * new collections inherit their parent's; a collection moved out of a personal collection takes its new parent's.
 * Bumps the graph revision, so that an admin editing an older graph is told to reload.
 */
export async function copyCollectionPermissions(
  db: Db,
  source: number | null,
  namespace: string | null,
  targets: number[],
  userId: number | null,
): Promise<void> {
  if (targets.length === 0) return;
  let query = db.selectFrom('collection_permission').select(['group_id', 'perm']);
  if (source === null) {
    query = query.where('collection_id', 'is', null);
    query = namespace === null ? query.where('namespace', 'is', null) : query.where('namespace', '=', namespace);
  } else {
    query = query.where('collection_id', '=', source);
  }
  const grants = await query.execute();
  await db.deleteFrom('collection_permission').where('collection_id', 'in', targets).execute();
  const values = targets.flatMap((target) => grants.map((g) => ({ group_id: g.group_id, collection_id: target, namespace: null, perm: g.perm })));
  if (values.length > 0) await db.insertInto('collection_permission').values(values).execute();
  await addRevision(db, namespace, userId, null, null, 'Automatically updated permissions due to collection creation or move');
}

/** Drops every group's permissions on `collectionIds` (they moved into a personal collection). */
export async function revokeCollectionPermissions(db: Db, collectionIds: number[]): Promise<void> {
  if (collectionIds.length === 0) return;
  await db.deleteFrom('collection_permission').where('collection_id', 'in', collectionIds).execute();
}
