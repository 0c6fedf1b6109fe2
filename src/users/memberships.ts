// Group memberships, kept in step with `is_superuser`: a superuser is exactly a member of Administrators,
// every user is a member of All Users, and the last active admin can never be removed — not even by two requests
// at once (`lockAdminChanges`).

import type { AppContext } from '../context.js';
import { badRequest } from '../http/errors.js';
import { lockForTransaction } from '../appdb/locks.js';
import { bool, type Db } from '../appdb/portable.js';

export const ALL_USERS_GROUP_ID = 1;
export const ADMIN_GROUP_ID = 2;

/**
 * Group managers belong to Metabase's paid advanced-permissions feature. Its open-source edition, which Quarry
 * follows (`token-features.advanced_permissions` is false), refuses to make one (402, GROUP_MANAGER_PAID), ignores
 * `is_group_manager` in a user's `user_group_memberships`, leaves it out of user answers, and gives the flag no
 * powers: group and user management stay with admins, also for rows carried over from a paid Metabase.
 */
export const ADVANCED_PERMISSIONS = false;

export const GROUP_MANAGER_PAID =
  'The group manager permissions functionality is only enabled if you have a premium token with the advanced-permissions feature.';

export interface Membership {
  membership_id: number;
  group_id: number;
  user_id: number;
  is_group_manager: boolean;
}

export async function membershipsOf(db: Db, userIds: number[]): Promise<Map<number, Membership[]>> {
  const out = new Map<number, Membership[]>();
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('permissions_group_membership')
    .select(['id', 'user_id', 'group_id', 'is_group_manager'])
    .where('user_id', 'in', userIds)
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = out.get(row.user_id) ?? [];
    list.push({ membership_id: row.id, group_id: row.group_id, user_id: row.user_id, is_group_manager: bool(row.is_group_manager) });
    out.set(row.user_id, list);
  }
  return out;
}

export async function allMemberships(db: Db): Promise<Membership[]> {
  const rows = await db
    .selectFrom('permissions_group_membership')
    .innerJoin('core_user', 'core_user.id', 'permissions_group_membership.user_id')
    .select([
      'permissions_group_membership.id',
      'permissions_group_membership.user_id',
      'permissions_group_membership.group_id',
      'permissions_group_membership.is_group_manager',
    ])
    .where('core_user.type', '=', 'personal')
    .orderBy('permissions_group_membership.id')
    .execute();
  return rows.map((r) => ({ membership_id: r.id, group_id: r.group_id, user_id: r.user_id, is_group_manager: bool(r.is_group_manager) }));
}

/** Groups the user manages (their memberships with is_group_manager); none without advanced permissions. */
export async function managedGroupIds(db: Db, userId: number): Promise<number[]> {
  if (!ADVANCED_PERMISSIONS) return [];
  const rows = await db
    .selectFrom('permissions_group_membership')
    .select('group_id')
    .where('user_id', '=', userId)
    .where('is_group_manager', '=', true)
    .execute();
  return rows.map((r) => r.group_id);
}

/**
 * Serializes changes to who is an active admin. Counting the admins and then removing one is safe only if no other
 * transaction does the same in between: without this, two requests demoting the last two admins at once on
 * PostgreSQL or MySQL would both see two admins and both succeed. Call it inside the transaction, before its
 * first write (so two transactions can't each hold a row the other waits for); the lock is held until commit.
 * The 'admin-membership' transaction lock of ../appdb/locks.ts.
 */
export async function lockAdminChanges(ctx: AppContext, db: Db): Promise<void> {
  await lockForTransaction(db, ctx.dialect, 'admin-membership');
}

async function activeAdminIds(ctx: AppContext, db: Db): Promise<number[]> {
  let query = db
    .selectFrom('permissions_group_membership')
    .innerJoin('core_user', 'core_user.id', 'permissions_group_membership.user_id')
    .select('core_user.id')
    .where('permissions_group_membership.group_id', '=', ADMIN_GROUP_ID)
    .where('core_user.is_active', '=', true)
    .where('core_user.type', '=', 'personal');
  // A locking read sees the latest committed rows even under MySQL's repeatable-read snapshot.
  if (ctx.dialect === 'mysql') query = query.forUpdate();
  return (await query.execute()).map((r) => r.id);
}

export const LAST_ADMIN_MESSAGE = "You cannot remove the last member of the 'Admin' group!";

/** Throws unless removing `userId` from the active admins would leave at least one. Takes the admin lock. */
export async function assertNotLastAdmin(ctx: AppContext, db: Db, userId: number): Promise<void> {
  await lockAdminChanges(ctx, db);
  const admins = await activeAdminIds(ctx, db);
  if (admins.includes(userId) && admins.length <= 1) throw badRequest(LAST_ADMIN_MESSAGE);
}

export async function addMembership(
  ctx: AppContext,
  db: Db,
  userId: number,
  groupId: number,
  isGroupManager = false,
): Promise<number> {
  const isManager = groupId === ADMIN_GROUP_ID ? false : isGroupManager;
  // An upsert, so that two requests adding the same member at once both succeed (the pair is unique).
  const insert = db.insertInto('permissions_group_membership').values({ user_id: userId, group_id: groupId, is_group_manager: isManager });
  await (ctx.dialect === 'mysql'
    ? insert.onDuplicateKeyUpdate({ is_group_manager: isManager })
    : insert.onConflict((oc) => oc.columns(['user_id', 'group_id']).doUpdateSet({ is_group_manager: isManager }))
  ).execute();
  if (groupId === ADMIN_GROUP_ID) await db.updateTable('core_user').set({ is_superuser: true }).where('id', '=', userId).execute();
  const row = await db
    .selectFrom('permissions_group_membership')
    .select('id')
    .where('user_id', '=', userId)
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function removeMembership(ctx: AppContext, db: Db, membership: { id: number; user_id: number; group_id: number }): Promise<void> {
  if (membership.group_id === ALL_USERS_GROUP_ID) {
    throw badRequest("You cannot add or remove users to/from the 'All Users' group.");
  }
  if (membership.group_id === ADMIN_GROUP_ID) {
    await assertNotLastAdmin(ctx, db, membership.user_id);
    await db.updateTable('core_user').set({ is_superuser: false }).where('id', '=', membership.user_id).execute();
  }
  await db.deleteFrom('permissions_group_membership').where('id', '=', membership.id).execute();
}

/**
 * Replaces a user's memberships (All Users is always kept; Administrators follows `isSuperuser` when given).
 * `onlyGroups` limits the change to those groups (for group managers).
 */
export async function setUserMemberships(
  ctx: AppContext,
  db: Db,
  userId: number,
  wanted: Array<{ id: number; is_group_manager?: boolean }>,
  options: { isSuperuser?: boolean; onlyGroups?: number[] } = {},
): Promise<void> {
  const wantedIds = new Map<number, boolean>();
  // Without advanced permissions the flag is ignored: groups are set by id, existing flags left as they are.
  for (const m of wanted) wantedIds.set(m.id, ADVANCED_PERMISSIONS && Boolean(m.is_group_manager));
  wantedIds.set(ALL_USERS_GROUP_ID, false);
  if (options.isSuperuser === true) wantedIds.set(ADMIN_GROUP_ID, false);
  if (options.isSuperuser === false) wantedIds.delete(ADMIN_GROUP_ID);
  const inScope = (groupId: number) => !options.onlyGroups || options.onlyGroups.includes(groupId);

  const current = (await membershipsOf(db, [userId])).get(userId) ?? [];
  for (const membership of current) {
    if (!inScope(membership.group_id)) continue;
    if (!wantedIds.has(membership.group_id) && membership.group_id !== ALL_USERS_GROUP_ID) {
      await removeMembership(ctx, db, { id: membership.membership_id, user_id: userId, group_id: membership.group_id });
    } else if (ADVANCED_PERMISSIONS && wantedIds.has(membership.group_id) && wantedIds.get(membership.group_id) !== membership.is_group_manager) {
      await db
        .updateTable('permissions_group_membership')
        .set({ is_group_manager: wantedIds.get(membership.group_id) ?? false })
        .where('id', '=', membership.membership_id)
        .execute();
    }
  }
  const currentIds = new Set(current.map((m) => m.group_id));
  for (const [groupId, isManager] of wantedIds) {
    if (!currentIds.has(groupId) && inScope(groupId)) await addMembership(ctx, db, userId, groupId, isManager);
  }
}
