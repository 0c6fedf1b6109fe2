// API keys: `mb_` + base64 of 32 random bytes, sent as `X-Api-Key`. Each key acts as a hidden user of type
// 'api-key' that belongs to All Users and one chosen group. Only a SHA-512 hash of the key is stored, with its
// first 7 characters in clear as the lookup prefix.

import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { fieldError, forbidden, notFound } from '../http/errors.js';
import { insertReturningId, nowIso, uniqueViolationAs, type Db } from '../appdb/portable.js';
import { hashToken, callerForUser } from './sessions.js';
import { ADMIN_GROUP_ID, ALL_USERS_GROUP_ID, lockAdminChanges, setUserMemberships } from './memberships.js';
import { insertUser } from './users.js';
import { commonName } from './user-json.js';
import { invalidateCallerCache } from '../http/auth.js';

const PREFIX_LENGTH = 7;

function newKey(): string {
  return 'mb_' + randomBytes(32).toString('base64');
}

function mask(key: string): string {
  return key.slice(0, PREFIX_LENGTH) + '*'.repeat(key.length - PREFIX_LENGTH);
}

export async function resolveApiKey(ctx: AppContext, key: string): Promise<Caller | null> {
  if (!key.startsWith('mb_') || key.length < PREFIX_LENGTH + 1) return null;
  const row = await ctx.db
    .selectFrom('api_key')
    .innerJoin('core_user', 'core_user.id', 'api_key.user_id')
    .select([
      'api_key.key_hashed',
      'core_user.id',
      'core_user.email',
      'core_user.first_name',
      'core_user.last_name',
      'core_user.is_superuser',
      'core_user.locale',
      'core_user.type',
      'core_user.settings',
    ])
    .where('api_key.key_prefix', '=', key.slice(0, PREFIX_LENGTH))
    .where('core_user.is_active', '=', true)
    .executeTakeFirst();
  if (!row) return null;
  const expected = Buffer.from(row.key_hashed, 'hex');
  const actual = Buffer.from(hashToken(key), 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  return callerForUser(ctx, row, 'api-key', null);
}

async function uniqueKey(db: Db): Promise<string> {
  for (;;) {
    const key = newKey();
    const clash = await db.selectFrom('api_key').select('id').where('key_prefix', '=', key.slice(0, PREFIX_LENGTH)).executeTakeFirst();
    if (!clash) return key;
  }
}

async function groupOf(db: Db, userId: number): Promise<{ id: number; name: string }> {
  const row = await db
    .selectFrom('permissions_group_membership')
    .innerJoin('permissions_group', 'permissions_group.id', 'permissions_group_membership.group_id')
    .select(['permissions_group.id', 'permissions_group.name'])
    .where('permissions_group_membership.user_id', '=', userId)
    .where('permissions_group.id', '!=', ALL_USERS_GROUP_ID)
    .executeTakeFirst();
  return row ?? { id: ALL_USERS_GROUP_ID, name: 'All Users' };
}

async function keyJson(ctx: AppContext, id: number, unmaskedKey?: string) {
  const row = await ctx.db.selectFrom('api_key').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const updatedBy = await ctx.db.selectFrom('core_user').select(['id', 'email', 'first_name', 'last_name']).where('id', '=', row.updated_by_id).executeTakeFirst();
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at,
    updated_at: row.updated_at,
    updated_by: updatedBy ? { id: updatedBy.id, common_name: commonName(updatedBy) } : null,
    group: await groupOf(ctx.db, row.user_id),
    masked_key: unmaskedKey ? mask(unmaskedKey) : row.key_prefix + '*'.repeat(47 - PREFIX_LENGTH),
    ...(unmaskedKey ? { unmasked_key: unmaskedKey } : {}),
  };
}

const nameTaken = () => fieldError('name', 'An API key with this name already exists.');

async function assertNameFree(db: Db, name: string, exceptId: number | null): Promise<void> {
  let query = db.selectFrom('api_key').select('id').where('name', '=', name);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw nameTaken();
}

async function assertGroup(db: Db, groupId: number): Promise<void> {
  const group = await db.selectFrom('permissions_group').select('id').where('id', '=', groupId).executeTakeFirst();
  if (!group) throw notFound();
}

function requireAdmin(caller: Caller): void {
  if (!caller.isSuperuser) throw forbidden();
}

export async function createApiKey(ctx: AppContext, caller: Caller, name: string, groupId: number) {
  requireAdmin(caller);
  await assertNameFree(ctx.db, name, null);
  await assertGroup(ctx.db, groupId);
  const key = await uniqueKey(ctx.db);
  const id = await uniqueViolationAs(() => ctx.db.transaction().execute(async (trx) => {
    const userId = await insertUser(ctx, trx, {
      email: `api-key-user-${randomUUID()}@api-key.invalid`,
      first_name: name,
      last_name: '',
      type: 'api-key',
      user_group_memberships: groupId === ALL_USERS_GROUP_ID ? [] : [{ id: groupId }],
    });
    const now = nowIso();
    return insertReturningId(trx, ctx.dialect, 'api_key', {
      user_id: userId,
      name,
      key_prefix: key.slice(0, PREFIX_LENGTH),
      key_hashed: hashToken(key),
      creator_id: caller.user.id,
      updated_by_id: caller.user.id,
      created_at: now,
      updated_at: now,
    });
  }), nameTaken);
  return keyJson(ctx, id, key);
}

export async function listApiKeys(ctx: AppContext, caller: Caller) {
  requireAdmin(caller);
  const rows = await ctx.db.selectFrom('api_key').select('id').orderBy('name').execute();
  return Promise.all(rows.map((r) => keyJson(ctx, r.id)));
}

export async function countApiKeys(ctx: AppContext, caller: Caller): Promise<number> {
  requireAdmin(caller);
  const row = await ctx.db.selectFrom('api_key').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function requireKey(ctx: AppContext, id: number) {
  const row = await ctx.db.selectFrom('api_key').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function updateApiKey(ctx: AppContext, caller: Caller, id: number, changes: { name?: string | null; group_id?: number | null }) {
  requireAdmin(caller);
  const row = await requireKey(ctx, id);
  if (changes.name) await assertNameFree(ctx.db, changes.name, id);
  if (changes.group_id) await assertGroup(ctx.db, changes.group_id);
  await uniqueViolationAs(() => ctx.db.transaction().execute(async (trx) => {
    await lockAdminChanges(ctx, trx);
    const set: Record<string, unknown> = { updated_at: nowIso(), updated_by_id: caller.user.id };
    if (changes.name) {
      set.name = changes.name;
      await trx.updateTable('core_user').set({ first_name: changes.name }).where('id', '=', row.user_id).execute();
    }
    await trx.updateTable('api_key').set(set).where('id', '=', id).execute();
    if (changes.group_id) {
      const groups = changes.group_id === ALL_USERS_GROUP_ID ? [] : [{ id: changes.group_id }];
      await setUserMemberships(ctx, trx, row.user_id, groups, { isSuperuser: changes.group_id === ADMIN_GROUP_ID });
    }
  }), nameTaken);
  invalidateCallerCache();
  return keyJson(ctx, id);
}

export async function regenerateApiKey(ctx: AppContext, caller: Caller, id: number) {
  requireAdmin(caller);
  await requireKey(ctx, id);
  const key = await uniqueKey(ctx.db);
  await ctx.db
    .updateTable('api_key')
    .set({ key_prefix: key.slice(0, PREFIX_LENGTH), key_hashed: hashToken(key), updated_at: nowIso(), updated_by_id: caller.user.id })
    .where('id', '=', id)
    .execute();
  invalidateCallerCache();
  return keyJson(ctx, id, key);
}

export async function deleteApiKey(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  requireAdmin(caller);
  const row = await requireKey(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('api_key').where('id', '=', id).execute();
    await trx.updateTable('core_user').set({ is_active: false }).where('id', '=', row.user_id).execute();
  });
  invalidateCallerCache();
}
