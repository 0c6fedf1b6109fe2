// Sessions: random UUID tokens handed to the client; only their SHA-512 hash is stored. A session lives
// MB_MAX_SESSION_AGE minutes from creation (not sliding). Resolving a token gives the Caller of a request.

import { createHash, randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { bool, nowIso, parseJson, type Db } from '../appdb/portable.js';

export function hashToken(token: string): string {
  return createHash('sha512').update(token).digest('hex');
}

export async function createSession(ctx: AppContext, userId: number, db: Db = ctx.db): Promise<string> {
  const token = randomUUID();
  await db
    .insertInto('core_session')
    .values({ key_hashed: hashToken(token), user_id: userId, created_at: nowIso(), session_type: 'normal' })
    .execute();
  return token;
}

export async function deleteSession(ctx: AppContext, token: string): Promise<boolean> {
  const result = await ctx.db.deleteFrom('core_session').where('key_hashed', '=', hashToken(token)).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteUserSessions(db: Db, userId: number, exceptKeyHashed: string | null = null): Promise<void> {
  let query = db.deleteFrom('core_session').where('user_id', '=', userId);
  if (exceptKeyHashed) query = query.where('key_hashed', '!=', exceptKeyHashed);
  await query.execute();
}

function sessionCutoff(ctx: AppContext): string {
  return new Date(Date.now() - ctx.config.maxSessionAgeMinutes * 60_000).toISOString();
}

async function groupIdsOf(ctx: AppContext, userId: number): Promise<number[]> {
  const rows = await ctx.db
    .selectFrom('permissions_group_membership')
    .select('group_id')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.group_id);
}

type UserRowForCaller = {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  is_superuser: boolean | number;
  locale: string | null;
  type: string;
  settings: string | null;
};

export async function callerForUser(ctx: AppContext, user: UserRowForCaller, kind: Caller['kind'], sessionKeyHashed: string | null): Promise<Caller> {
  const isSuperuser = bool(user.is_superuser);
  return {
    kind,
    isSuperuser,
    sessionKeyHashed,
    groupIds: await groupIdsOf(ctx, user.id),
    user: {
      id: user.id,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      is_superuser: isSuperuser,
      locale: user.locale,
      type: user.type,
      settings: parseJson<Record<string, unknown>>(user.settings, {}),
    },
  };
}

/** The Caller for a session token, or null when the token is unknown, expired or its user is deactivated. */
export async function resolveSession(ctx: AppContext, token: string): Promise<Caller | null> {
  const keyHashed = hashToken(token);
  const user = await ctx.db
    .selectFrom('core_session')
    .innerJoin('core_user', 'core_user.id', 'core_session.user_id')
    .select([
      'core_user.id',
      'core_user.email',
      'core_user.first_name',
      'core_user.last_name',
      'core_user.is_superuser',
      'core_user.locale',
      'core_user.type',
      'core_user.settings',
    ])
    .where('core_session.key_hashed', '=', keyHashed)
    .where('core_session.created_at', '>', sessionCutoff(ctx))
    .where('core_user.is_active', '=', true)
    .executeTakeFirst();
  return user ? callerForUser(ctx, user, 'session', keyHashed) : null;
}

/** Removes expired sessions; run now and then so the table doesn't grow without bound. */
export async function purgeExpiredSessions(ctx: AppContext): Promise<void> {
  await ctx.db.deleteFrom('core_session').where('created_at', '<=', sessionCutoff(ctx)).execute();
}
