// Permission groups and their memberships (/api/permissions/group, /api/permissions/membership).

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, forbidden, notFound, paymentRequired } from '../http/errors.js';
import { insertReturningId, uniqueViolationAs, type Db } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';
import {
  ADMIN_GROUP_ID,
  ADVANCED_PERMISSIONS,
  ALL_USERS_GROUP_ID,
  GROUP_MANAGER_PAID,
  addMembership,
  allMemberships,
  lockAdminChanges,
  managedGroupIds,
  removeMembership,
  type Membership,
} from './memberships.js';
import { invalidateCallerCache } from '../http/auth.js';

type GroupHook = (ctx: AppContext, db: Db, groupId: number) => Promise<void>;
const onCreate: GroupHook[] = [];
const onDelete: GroupHook[] = [];

/** Lets the permissions module give a new group its default permissions, and drop them with the group. */
export function onGroupCreated(hook: GroupHook): void {
  onCreate.push(hook);
}
export function onGroupDeleted(hook: GroupHook): void {
  onDelete.push(hook);
}

function magicMessage(groupId: number): string {
  const name = groupId === ADMIN_GROUP_ID ? 'Administrators' : 'All Users';
  return `You cannot edit or delete the '${name}' permissions group!`;
}

async function requireGroup(db: Db, id: number) {
  const group = await db.selectFrom('permissions_group').selectAll().where('id', '=', id).executeTakeFirst();
  if (!group) throw notFound();
  return group;
}

const nameTaken = () => badRequest('A group with that name already exists.');

async function assertNameFree(db: Db, name: string, exceptId: number | null): Promise<void> {
  const rows = await db.selectFrom('permissions_group').select(['id', 'name']).execute();
  if (rows.some((r) => r.name.toLowerCase() === name.trim().toLowerCase() && r.id !== exceptId)) {
    throw nameTaken();
  }
}

/** Managers may act on the groups they manage; admins on all. */
async function assertCanManage(ctx: AppContext, caller: Caller, groupId: number): Promise<void> {
  if (caller.isSuperuser) return;
  if (!(await managedGroupIds(ctx.db, caller.user.id)).includes(groupId)) throw forbidden();
}

function groupJson(group: { id: number; name: string; entity_id: string | null; magic_group_type: string | null }) {
  return { id: group.id, name: group.name, entity_id: group.entity_id, magic_group_type: group.magic_group_type };
}

async function memberCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('permissions_group_membership')
    .innerJoin('core_user', 'core_user.id', 'permissions_group_membership.user_id')
    .select(['permissions_group_membership.group_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('core_user.is_active', '=', true)
    .where('core_user.type', '=', 'personal')
    .groupBy('permissions_group_membership.group_id')
    .execute();
  return new Map(rows.map((r) => [r.group_id, Number(r.n)]));
}

export async function listGroups(ctx: AppContext, caller: Caller) {
  let visible: number[] | null = null;
  if (!caller.isSuperuser) {
    visible = await managedGroupIds(ctx.db, caller.user.id);
    if (visible.length === 0) throw forbidden();
  }
  const [groups, counts] = await Promise.all([ctx.db.selectFrom('permissions_group').selectAll().execute(), memberCounts(ctx.db)]);
  return groups
    .filter((g) => !visible || visible.includes(g.id))
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()))
    .map((g) => ({ ...groupJson(g), member_count: counts.get(g.id) ?? 0 }));
}

async function groupMembers(db: Db, groupId: number) {
  const rows = await db
    .selectFrom('permissions_group_membership')
    .innerJoin('core_user', 'core_user.id', 'permissions_group_membership.user_id')
    .select([
      'permissions_group_membership.id as membership_id',
      'permissions_group_membership.is_group_manager',
      'core_user.id as user_id',
      'core_user.first_name',
      'core_user.last_name',
      'core_user.email',
    ])
    .where('permissions_group_membership.group_id', '=', groupId)
    .where('core_user.is_active', '=', true)
    .where('core_user.type', '=', 'personal')
    .execute();
  return rows
    .map((r) => ({
      user_id: r.user_id,
      membership_id: r.membership_id,
      first_name: r.first_name,
      last_name: r.last_name,
      email: r.email,
      common_name: [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email,
      is_group_manager: r.is_group_manager === true || r.is_group_manager === 1,
    }))
    .sort((a, b) => (a.first_name ?? '').toLowerCase().localeCompare((b.first_name ?? '').toLowerCase()) || a.user_id - b.user_id);
}

export async function getGroup(ctx: AppContext, caller: Caller, id: number) {
  await assertCanManage(ctx, caller, id);
  const group = await requireGroup(ctx.db, id);
  return { ...groupJson(group), members: await groupMembers(ctx.db, id) };
}

export async function createGroup(ctx: AppContext, caller: Caller, name: string) {
  if (!caller.isSuperuser) throw forbidden();
  await assertNameFree(ctx.db, name, null);
  const id = await uniqueViolationAs(
    () =>
      ctx.db.transaction().execute(async (trx) => {
        const groupId = await insertReturningId(trx, ctx.dialect, 'permissions_group', { name: name.trim(), entity_id: newEntityId(), magic_group_type: null });
        for (const hook of onCreate) await hook(ctx, trx, groupId);
        return groupId;
      }),
    nameTaken,
  );
  return { ...groupJson(await requireGroup(ctx.db, id)), member_count: 0 };
}

export async function renameGroup(ctx: AppContext, caller: Caller, id: number, name: string) {
  if (!caller.isSuperuser) throw forbidden();
  const group = await requireGroup(ctx.db, id);
  if (group.magic_group_type) throw badRequest(magicMessage(id));
  await assertNameFree(ctx.db, name, id);
  await uniqueViolationAs(() => ctx.db.updateTable('permissions_group').set({ name: name.trim() }).where('id', '=', id).execute(), nameTaken);
  return groupJson(await requireGroup(ctx.db, id));
}

export async function deleteGroup(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  if (!caller.isSuperuser) throw forbidden();
  const group = await requireGroup(ctx.db, id);
  if (group.magic_group_type) throw badRequest(magicMessage(id));
  await ctx.db.transaction().execute(async (trx) => {
    await lockAdminChanges(ctx, trx);
    for (const hook of onDelete) await hook(ctx, trx, id);
    await trx.deleteFrom('permissions_group_membership').where('group_id', '=', id).execute();
    await trx.deleteFrom('permissions_group').where('id', '=', id).execute();
  });
  invalidateCallerCache();
}

// ----- memberships -------------------------------------------------------------------------------------------

export async function membershipMap(ctx: AppContext, caller: Caller) {
  let groups: number[] | null = null;
  if (!caller.isSuperuser) {
    groups = await managedGroupIds(ctx.db, caller.user.id);
    if (groups.length === 0) throw forbidden();
  }
  const out: Record<string, Membership[]> = {};
  for (const m of await allMemberships(ctx.db)) {
    if (groups && !groups.includes(m.group_id)) continue;
    (out[String(m.user_id)] ??= []).push(m);
  }
  return out;
}

export async function addMember(ctx: AppContext, caller: Caller, groupId: number, userId: number, isGroupManager: boolean) {
  await assertCanManage(ctx, caller, groupId);
  if (isGroupManager && !ADVANCED_PERMISSIONS) throw paymentRequired(GROUP_MANAGER_PAID);
  if (!caller.isSuperuser && isGroupManager) throw forbidden();
  await requireGroup(ctx.db, groupId);
  const user = await ctx.db.selectFrom('core_user').select(['id', 'type']).where('id', '=', userId).executeTakeFirst();
  if (!user || user.type !== 'personal') throw notFound();
  if (groupId === ALL_USERS_GROUP_ID) throw badRequest("You cannot add or remove users to/from the 'All Users' group.");
  await ctx.db.transaction().execute((trx) => addMembership(ctx, trx, userId, groupId, isGroupManager));
  invalidateCallerCache();
  return groupMembers(ctx.db, groupId);
}

async function requireMembership(db: Db, id: number) {
  const row = await db.selectFrom('permissions_group_membership').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function removeMember(ctx: AppContext, caller: Caller, membershipId: number): Promise<void> {
  const membership = await requireMembership(ctx.db, membershipId);
  await assertCanManage(ctx, caller, membership.group_id);
  await ctx.db.transaction().execute((trx) => removeMembership(ctx, trx, membership));
  invalidateCallerCache();
}

export async function updateMember(ctx: AppContext, caller: Caller, membershipId: number, isGroupManager: boolean) {
  // This endpoint only sets is_group_manager: refused as a whole without advanced permissions, before anything else.
  if (!ADVANCED_PERMISSIONS) throw paymentRequired(GROUP_MANAGER_PAID);
  if (!caller.isSuperuser) throw forbidden();
  const membership = await requireMembership(ctx.db, membershipId);
  if (membership.group_id === ADMIN_GROUP_ID || membership.group_id === ALL_USERS_GROUP_ID) {
    throw badRequest('Admin and All Users groups cannot have group managers.');
  }
  await ctx.db.updateTable('permissions_group_membership').set({ is_group_manager: isGroupManager }).where('id', '=', membershipId).execute();
  invalidateCallerCache();
  return {
    membership_id: membership.id,
    group_id: membership.group_id,
    user_id: membership.user_id,
    is_group_manager: isGroupManager,
  };
}

export async function clearGroup(ctx: AppContext, caller: Caller, groupId: number): Promise<void> {
  if (!caller.isSuperuser) throw forbidden();
  await requireGroup(ctx.db, groupId);
  if (groupId === ADMIN_GROUP_ID) throw badRequest("You cannot clear the members of the 'Administrators' group!");
  if (groupId === ALL_USERS_GROUP_ID) throw badRequest("You cannot add or remove users to/from the 'All Users' group.");
  await ctx.db.transaction().execute(async (trx) => {
    await lockAdminChanges(ctx, trx);
    await trx.deleteFrom('permissions_group_membership').where('group_id', '=', groupId).execute();
  });
  invalidateCallerCache();
}

