// Users: create, read, list, update, deactivate, reactivate, change password — with Metabase's rules on who may
// do what (admins, the user themselves, group managers for the groups they manage).

import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, fieldError, forbidden, notFound, check, messageError } from '../http/errors.js';
import { throwIssues } from '../http/schema.js';
import { bool, ilike, insertReturningId, nowIso, toJson, uniqueViolationAs, type Db } from '../appdb/portable.js';
import { createPersonalCollection, personalCollectionIds, renamePersonalCollection } from '../collections/personal.js';
import {
  ADMIN_GROUP_ID,
  ADVANCED_PERMISSIONS,
  ALL_USERS_GROUP_ID,
  addMembership,
  assertNotLastAdmin,
  lockAdminChanges,
  managedGroupIds,
  membershipsOf,
  setUserMemberships,
} from './memberships.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { forgetVerified } from './password-cache.js';
import { isTooLongPassword, isValidPassword, PASSWORD_MESSAGE, PASSWORD_TOO_LONG } from './password-policy.js';
import { createSession, deleteUserSessions } from './sessions.js';
import { fullUserJson, limitedUserJson, defaultUserJson, type UserRow } from './user-json.js';
import { invalidateCallerCache, userRowChanged } from '../http/auth.js';

export const INTERNAL_USER_ID = 13371337;

export async function findUser(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('core_user').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('core_user').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

async function requireUser(ctx: AppContext, id: number): Promise<UserRow> {
  const user = await findUser(ctx.db, id);
  if (!user || user.type !== 'personal') throw notFound();
  return user;
}

/**
 * Throws Metabase's password error unless the password meets the policy. `path` is where the error is reported,
 * e.g. ['user', 'password'] for setup's nested body. A too-long password is refused before any other check.
 */
export function assertValidPassword(ctx: AppContext, password: unknown, path: string[] = ['password']): asserts password is string {
  if (isValidPassword(password, ctx.config)) return;
  const reason = isTooLongPassword(password) ? PASSWORD_TOO_LONG : PASSWORD_MESSAGE;
  throwIssues([{ path, message: reason, received: password, description: PASSWORD_MESSAGE }]);
}

/** Is the caller a manager of a group the user is in (so may see and move them)? */
async function managesUser(ctx: AppContext, caller: Caller, userId: number): Promise<number[]> {
  const managed = await managedGroupIds(ctx.db, caller.user.id);
  if (managed.length === 0) return [];
  const theirs = (await membershipsOf(ctx.db, [userId])).get(userId) ?? [];
  return theirs.map((m) => m.group_id).filter((g) => managed.includes(g));
}

// ----- reading -------------------------------------------------------------------------------------------

/** An entry of `user_group_memberships`: `is_group_manager` only with advanced permissions (reference §1.11). */
function membershipJson(m: { group_id: number; is_group_manager: boolean }) {
  return ADVANCED_PERMISSIONS ? { id: m.group_id, is_group_manager: m.is_group_manager } : { id: m.group_id };
}

async function withMemberships(ctx: AppContext, row: UserRow) {
  const memberships = (await membershipsOf(ctx.db, [row.id])).get(row.id) ?? [];
  return { ...fullUserJson(row), user_group_memberships: memberships.map(membershipJson) };
}

/** GET /api/user/:id — an active user only (Metabase answers 404 for a deactivated one). */
export async function getUser(ctx: AppContext, caller: Caller, id: number) {
  const isSelf = caller.user.id === id;
  if (!isSelf && !caller.isSuperuser && (await managesUser(ctx, caller, id)).length === 0) throw forbidden();
  // a deactivated user is shown too, with `is_active: false` (how an admin finds one to reactivate)
  return withMemberships(ctx, await requireUser(ctx, id));
}

export interface ListUsersOptions {
  status: string | null;
  query: string | null;
  groupId: number | null;
  includeDeactivated: boolean | null;
  limit: number | null;
  offset: number | null;
}

export async function listUsers(ctx: AppContext, caller: Caller, options: ListUsersOptions) {
  let managedGroups: number[] | null = null;
  if (!caller.isSuperuser) {
    managedGroups = await managedGroupIds(ctx.db, caller.user.id);
    if (managedGroups.length === 0) throw forbidden();
    if (options.status !== null || options.includeDeactivated !== null) throw forbidden();
  }
  // Metabase's rule: include_deactivated=true lists everyone whatever the status; otherwise `all`, `deactivated`,
  // and anything else (absent, `active`, an unknown word) means active users only.
  const status = options.includeDeactivated === true ? 'all' : options.status === 'all' || options.status === 'deactivated' ? options.status : 'active';
  let query = ctx.db.selectFrom('core_user').where('core_user.type', '=', 'personal');
  if (status === 'active') query = query.where('core_user.is_active', '=', true);
  if (status === 'deactivated') query = query.where('core_user.is_active', '=', false);
  if (options.query) {
    const text = options.query;
    query = query.where((eb) => eb.or([ilike('core_user.first_name', text), ilike('core_user.last_name', text), ilike('core_user.email', text)]));
  }
  const groupFilter = options.groupId !== null ? [options.groupId] : managedGroups;
  if (groupFilter) {
    if (managedGroups && options.groupId !== null && !managedGroups.includes(options.groupId)) throw forbidden();
    query = query.where('core_user.id', 'in', (eb) =>
      eb.selectFrom('permissions_group_membership').select('user_id').where('group_id', 'in', groupFilter),
    );
  }
  const totalRow = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  let rowsQuery = query
    .selectAll('core_user')
    .orderBy((eb) => eb.fn('lower', ['core_user.first_name']))
    .orderBy((eb) => eb.fn('lower', ['core_user.last_name']))
    .orderBy('core_user.id');
  if (options.limit !== null) rowsQuery = rowsQuery.limit(options.limit);
  if (options.offset !== null) rowsQuery = options.limit === null ? rowsQuery.limit(1_000_000_000).offset(options.offset) : rowsQuery.offset(options.offset);
  const rows = await rowsQuery.execute();
  const ids = rows.map((r) => r.id);
  const [personal, memberships] = await Promise.all([personalCollectionIds(ctx, ids), membershipsOf(ctx.db, ids)]);
  const data = rows.map((row) => {
    const mine = memberships.get(row.id) ?? [];
    const base = { ...fullUserJson(row) };
    if (caller.isSuperuser) {
      return {
        ...base,
        personal_collection_id: personal.get(row.id) ?? null,
        group_ids: mine.map((m) => m.group_id),
        user_group_memberships: mine.map(membershipJson),
      };
    }
    return { ...base, user_group_memberships: mine.map(membershipJson) };
  });
  return { data, total: Number(totalRow?.n ?? 0), limit: options.limit, offset: options.offset };
}

/** Active users a non-admin may pick as recipients, per the `user-visibility` setting. */
export async function recipients(ctx: AppContext, caller: Caller) {
  const visibility = caller.isSuperuser ? 'all' : ((await ctx.settings.getString('user-visibility')) ?? 'all');
  let query = ctx.db.selectFrom('core_user').selectAll().where('type', '=', 'personal').where('is_active', '=', true);
  if (visibility === 'none') query = query.where('id', '=', caller.user.id);
  if (visibility === 'group') {
    const groups = caller.groupIds.filter((g) => g !== ALL_USERS_GROUP_ID);
    query = groups.length
      ? query.where('id', 'in', (eb) => eb.selectFrom('permissions_group_membership').select('user_id').where('group_id', 'in', groups))
      : query.where('id', '=', caller.user.id);
  }
  const rows = await query
    .orderBy((eb) => eb.fn('lower', ['first_name']))
    .orderBy((eb) => eb.fn('lower', ['last_name']))
    .orderBy('id')
    .execute();
  const data = rows.map((r) => (caller.isSuperuser ? defaultUserJson(r) : limitedUserJson(r)));
  return { data, total: data.length, limit: null, offset: null };
}

// ----- writing -----------------------------------------------------------------------------------------

async function assertGroupsExist(ctx: AppContext, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return;
  const found = await ctx.db.selectFrom('permissions_group').select('id').where('id', 'in', groupIds).execute();
  if (found.length !== new Set(groupIds).size) throw notFound();
}

export interface NewUser {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  password?: string | null;
  user_group_memberships?: Array<{ id: number; is_group_manager?: boolean }> | null;
  login_attributes?: Record<string, unknown> | null;
  is_superuser?: boolean;
  locale?: string | null;
}

/** Inserts a user with their memberships and personal collection, inside the given transaction. */
export async function insertUser(ctx: AppContext, db: Db, input: NewUser & { type?: string }): Promise<number> {
  const password = input.password ?? randomUUID();
  const { hash, salt } = await hashPassword(password);
  const now = nowIso();
  const email = input.email.trim().toLowerCase();
  const id = await insertReturningId(db, ctx.dialect, 'core_user', {
    email,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    password: hash,
    password_salt: salt,
    date_joined: now,
    updated_at: now,
    is_superuser: false,
    is_active: true,
    is_qbnewb: true,
    is_datasetnewb: true,
    locale: input.locale ?? null,
    login_attributes: toJson(input.login_attributes ?? null),
    type: input.type ?? 'personal',
  });
  await addMembership(ctx, db, id, ALL_USERS_GROUP_ID);
  if (input.is_superuser) await addMembership(ctx, db, id, ADMIN_GROUP_ID);
  for (const m of input.user_group_memberships ?? []) {
    if (m.id !== ALL_USERS_GROUP_ID) await addMembership(ctx, db, id, m.id, ADVANCED_PERMISSIONS && Boolean(m.is_group_manager));
  }
  if ((input.type ?? 'personal') === 'personal') {
    await createPersonalCollection(ctx, db, { id, email, first_name: input.first_name ?? null, last_name: input.last_name ?? null });
  }
  return id;
}

export async function createUser(ctx: AppContext, caller: Caller, input: NewUser) {
  if (!caller.isSuperuser) throw forbidden();
  if (await findUserByEmail(ctx.db, input.email)) throw fieldError('email', 'Email address already in use.');
  if (input.password !== undefined && input.password !== null) assertValidPassword(ctx, input.password);
  await assertGroupsExist(ctx, (input.user_group_memberships ?? []).map((m) => m.id));
  const id = await uniqueViolationAs(
    () => ctx.db.transaction().execute((trx) => insertUser(ctx, trx, input)),
    () => fieldError('email', 'Email address already in use.'),
  );
  invalidateCallerCache();
  return withMemberships(ctx, (await findUser(ctx.db, id))!);
}

export interface UserUpdate {
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  is_superuser?: boolean | null;
  is_group_manager?: boolean | null;
  locale?: string | null;
  login_attributes?: Record<string, unknown> | null;
  user_group_memberships?: Array<{ id: number; is_group_manager?: boolean }> | null;
}

export async function updateUser(ctx: AppContext, caller: Caller, id: number, changes: UserUpdate, present: Set<string>) {
  check(id !== INTERNAL_USER_ID, () => badRequest('Not able to modify the internal user'));
  const user = await requireUser(ctx, id);
  const isSelf = caller.user.id === id;
  const managedInCommon = caller.isSuperuser || isSelf ? [] : await managesUser(ctx, caller, id);
  if (!caller.isSuperuser && !isSelf && managedInCommon.length === 0) throw forbidden();
  if (!bool(user.is_active)) throw notFound();
  const managerOnly = !caller.isSuperuser && !isSelf;
  if (!caller.isSuperuser && (present.has('is_superuser') || present.has('login_attributes'))) {
    if (changes.is_superuser !== undefined && changes.is_superuser !== null && changes.is_superuser !== bool(user.is_superuser)) throw forbidden();
  }
  if (managerOnly && ['email', 'first_name', 'last_name', 'locale'].some((k) => present.has(k))) throw forbidden();

  const emailTaken = () => fieldError('email', 'Email address already associated to another user.');
  const email = changes.email?.trim().toLowerCase();
  if (email && email !== user.email) {
    if (!caller.isSuperuser && !isSelf) throw forbidden();
    if (await findUserByEmail(ctx.db, email)) throw emailTaken();
  }
  if (changes.user_group_memberships) await assertGroupsExist(ctx, changes.user_group_memberships.map((m) => m.id));

  await uniqueViolationAs(() => ctx.db.transaction().execute(async (trx) => {
    // Before any write: concurrent changes to who is an admin run one after the other (see memberships.ts).
    await lockAdminChanges(ctx, trx);
    const set: Record<string, unknown> = { updated_at: nowIso() };
    if (email) set.email = email;
    if (present.has('first_name')) set.first_name = changes.first_name ?? null;
    if (present.has('last_name')) set.last_name = changes.last_name ?? null;
    if (present.has('locale')) set.locale = changes.locale ?? null;
    if (present.has('login_attributes') && caller.isSuperuser) set.login_attributes = toJson(changes.login_attributes ?? null);
    await trx.updateTable('core_user').set(set).where('id', '=', id).execute();
    if (present.has('first_name') || present.has('last_name') || email) {
      const updated = (await findUser(trx, id))!;
      await renamePersonalCollection(ctx, trx, updated);
    }
    const superuserChange = caller.isSuperuser && typeof changes.is_superuser === 'boolean' ? changes.is_superuser : undefined;
    if (changes.user_group_memberships && (caller.isSuperuser || managedInCommon.length > 0)) {
      const managed = caller.isSuperuser ? undefined : await managedGroupIds(trx, caller.user.id);
      await setUserMemberships(ctx, trx, id, changes.user_group_memberships, { isSuperuser: superuserChange, onlyGroups: managed });
    } else if (superuserChange !== undefined) {
      const current = (await membershipsOf(trx, [id])).get(id) ?? [];
      await setUserMemberships(
        ctx,
        trx,
        id,
        current.map((m) => ({ id: m.group_id, is_group_manager: m.is_group_manager })),
        { isSuperuser: superuserChange },
      );
    }
  }), emailTaken);
  invalidateCallerCache();
  return withMemberships(ctx, (await findUser(ctx.db, id))!);
}

type DeactivationHook = (ctx: AppContext, db: Db, userId: number) => Promise<void>;
const onDeactivate: DeactivationHook[] = [];

/** Lets other modules let go of a user in the transaction that deactivates them (subscriptions: src/notify). */
export function onUserDeactivated(hook: DeactivationHook): void {
  onDeactivate.push(hook);
}

export async function deactivateUser(ctx: AppContext, caller: Caller, id: number) {
  if (!caller.isSuperuser) throw forbidden();
  check(id !== INTERNAL_USER_ID, () => badRequest('Not able to modify the internal user'));
  await requireUser(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    await assertNotLastAdmin(ctx, trx, id);
    await trx.updateTable('core_user').set({ is_active: false, updated_at: nowIso() }).where('id', '=', id).execute();
    await deleteUserSessions(trx, id);
    for (const hook of onDeactivate) await hook(ctx, trx, id);
  });
  forgetVerified(ctx, id);
  invalidateCallerCache();
  return { success: true };
}

/** Brings a deactivated user back, as a non-admin (Metabase's rule: admin rights must be given again). */
export async function reactivateUser(ctx: AppContext, caller: Caller, id: number) {
  if (!caller.isSuperuser) throw forbidden();
  const user = await requireUser(ctx, id);
  if (bool(user.is_active)) throw messageError(400, 'Not able to reactivate an active user');
  await ctx.db.transaction().execute(async (trx) => {
    await lockAdminChanges(ctx, trx);
    await trx.updateTable('core_user').set({ is_active: true, is_superuser: false, updated_at: nowIso() }).where('id', '=', id).execute();
    await trx.deleteFrom('permissions_group_membership').where('user_id', '=', id).where('group_id', '=', ADMIN_GROUP_ID).execute();
  });
  invalidateCallerCache();
  return withMemberships(ctx, (await findUser(ctx.db, id))!);
}

/**
 * Changes a password. The new one is checked first; then a non-admin must give their old one (an admin never
 * needs to, not even for their own, as in Metabase). Every other session of the user ends. Returns a fresh
 * session when callers changed their own password.
 */
export async function changePassword(
  ctx: AppContext,
  caller: Caller,
  id: number,
  password: string,
  oldPassword: string | null,
): Promise<{ sessionToken: string | null }> {
  const isSelf = caller.user.id === id;
  if (!isSelf && !caller.isSuperuser) throw forbidden();
  const user = await requireUser(ctx, id);
  if (!bool(user.is_active)) throw notFound();
  assertValidPassword(ctx, password);
  if (!caller.isSuperuser && !(await verifyPassword(oldPassword ?? '', user.password_salt, user.password))) {
    throw fieldError('old_password', 'Invalid password');
  }
  const { hash, salt } = await hashPassword(password);
  const token = await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('core_user').set({ password: hash, password_salt: salt, updated_at: nowIso(), reset_token: null, reset_triggered: null }).where('id', '=', id).execute();
    await deleteUserSessions(trx, id);
    return isSelf ? createSession(ctx, id, trx) : null;
  });
  forgetVerified(ctx, id);
  invalidateCallerCache();
  return { sessionToken: token };
}

export const MODALS = ['qbnewb', 'datasetnewb'] as const;

export async function setModalSeen(ctx: AppContext, caller: Caller, id: number, modal: (typeof MODALS)[number]) {
  if (caller.user.id !== id && !caller.isSuperuser) throw forbidden();
  await requireUser(ctx, id);
  const column = modal === 'qbnewb' ? 'is_qbnewb' : 'is_datasetnewb';
  await ctx.db.updateTable('core_user').set({ [column]: false }).where('id', '=', id).execute();
  userRowChanged(id);
  return { success: true };
}
