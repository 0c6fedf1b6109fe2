// Password login, logout and password reset, with throttling and a login-history record.

import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import { ApiError, badRequest, fieldError, notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso } from '../appdb/portable.js';
import { verifyPassword, dummyPasswordCheck, hashPassword } from './passwords.js';
import { forgetVerified, recentlyVerified, rememberVerified } from './password-cache.js';
import { createSession, deleteSession, deleteUserSessions, hashToken } from './sessions.js';
import { checkThrottle, recordAttempt, LOGIN_BY_IP, LOGIN_BY_USERNAME, FORGOT_BY_EMAIL, FORGOT_BY_IP, RESET_BY_IP } from './throttle.js';
import { findUserByEmail, findUser, assertValidPassword } from './users.js';
import { forgetSessionCaller, invalidateCallerCache, userRowChanged } from '../http/auth.js';
import { MAX_INT } from '../http/schema.js';
import { fitText } from '../util/fit.js';

export interface ClientInfo {
  ip: string | null;
  deviceId: string | null;
  userAgent: string | null;
}

const WRONG_PASSWORD = () => new ApiError(401, { errors: { password: 'did not match stored password' } });

/** Cuts a client-supplied value to its column's size (headers and cookies are whatever the client sent). */
const fit = (value: string | null, max: number): string | null => (value === null ? null : fitText(value, max));

async function recordLogin(ctx: AppContext, userId: number, token: string, client: ClientInfo): Promise<void> {
  const now = nowIso();
  await ctx.db.updateTable('core_user').set({ last_login: now }).where('id', '=', userId).execute();
  await insertReturningId(ctx.db, ctx.dialect, 'login_history', {
    user_id: userId,
    timestamp: now,
    session_hash: hashToken(token),
    device_id: fit(client.deviceId, 64),
    device_description: fit(client.userAgent, 1000),
    ip_address: fit(client.ip, 128),
  });
  userRowChanged(userId);
}

async function checkLoginPassword(ctx: AppContext, user: { id: number; password: string | null; password_salt: string | null }, password: string): Promise<boolean> {
  const stored = user.password;
  if (stored && recentlyVerified(ctx, user.id, stored, user.password_salt, password)) return true;
  const valid = await verifyPassword(password, user.password_salt, stored);
  if (valid && stored) rememberVerified(ctx, user.id, stored, user.password_salt, password);
  return valid;
}

/** Logs a user in by email and password; returns a new session token. */
export async function login(ctx: AppContext, username: string, password: string, client: ClientInfo): Promise<string> {
  if (!(await ctx.settings.getBoolean('enable-password-login'))) {
    throw badRequest('Password login is disabled for this instance.');
  }
  const email = username.trim().toLowerCase();
  await checkThrottle(ctx, LOGIN_BY_USERNAME, email);
  await checkThrottle(ctx, LOGIN_BY_IP, client.ip);
  const user = await findUserByEmail(ctx.db, email);
  const valid = user && user.type === 'personal'
    ? await checkLoginPassword(ctx, user, password)
    : (await dummyPasswordCheck(password), false);
  if (!valid || !user) {
    await recordAttempt(ctx, LOGIN_BY_USERNAME, email);
    await recordAttempt(ctx, LOGIN_BY_IP, client.ip);
    throw WRONG_PASSWORD();
  }
  if (!bool(user.is_active)) throw new ApiError(401, { errors: { _error: 'Your account is disabled.' } });
  const token = await createSession(ctx, user.id);
  await recordLogin(ctx, user.id, token, client);
  return token;
}

export async function startSessionFor(ctx: AppContext, userId: number, client: ClientInfo): Promise<string> {
  const token = await createSession(ctx, userId);
  await recordLogin(ctx, userId, token, client);
  return token;
}

// ----- password reset ---------------------------------------------------------------------------------------

const RESET_TOKEN_FORMAT = /^(\d+)_([0-9a-f-]{36})$/i;

/**
 * Starts a password reset: stores a hashed reset token on the user and returns the token (`<userId>_<uuid>`),
 * or null when there is no such active user. The caller answers 204 either way, so existence doesn't leak.
 */
export async function forgotPassword(ctx: AppContext, email: string, client: ClientInfo): Promise<string | null> {
  await checkThrottle(ctx, FORGOT_BY_EMAIL, email);
  await checkThrottle(ctx, FORGOT_BY_IP, client.ip);
  await recordAttempt(ctx, FORGOT_BY_EMAIL, email);
  await recordAttempt(ctx, FORGOT_BY_IP, client.ip);
  const user = await findUserByEmail(ctx.db, email);
  if (!user || !bool(user.is_active) || user.type !== 'personal' || user.sso_source) return null;
  const token = `${user.id}_${randomUUID()}`;
  await ctx.db
    .updateTable('core_user')
    .set({ reset_token: hashToken(token), reset_triggered: Date.now() })
    .where('id', '=', user.id)
    .execute();
  return token;
}

async function userForResetToken(ctx: AppContext, token: string) {
  const match = RESET_TOKEN_FORMAT.exec(token);
  const userId = match ? Number(match[1]) : 0;
  // An id no row can have (beyond the integer column) is simply not a valid token.
  if (!match || !Number.isSafeInteger(userId) || userId < 1 || userId > MAX_INT) return null;
  const user = await findUser(ctx.db, userId);
  if (!user || !user.reset_token || !bool(user.is_active)) return null;
  if (user.reset_token !== hashToken(token)) return null;
  const ttlHours = (await ctx.settings.getNumber('reset-token-ttl-hours')) ?? 48;
  if (Date.now() - Number(user.reset_triggered ?? 0) > ttlHours * 3_600_000) return null;
  return user;
}

export async function resetTokenValid(ctx: AppContext, token: string): Promise<boolean> {
  return (await userForResetToken(ctx, token)) !== null;
}

export async function resetPassword(ctx: AppContext, token: string, password: string, client: ClientInfo): Promise<string> {
  await checkThrottle(ctx, RESET_BY_IP, client.ip);
  const user = await userForResetToken(ctx, token);
  if (!user) {
    await recordAttempt(ctx, RESET_BY_IP, client.ip);
    throw fieldError('password', 'Invalid reset token');
  }
  assertValidPassword(ctx, password);
  const { hash, salt } = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('core_user')
      .set({ password: hash, password_salt: salt, reset_token: null, reset_triggered: null, updated_at: nowIso() })
      .where('id', '=', user.id)
      .execute();
    await deleteUserSessions(trx, user.id);
  });
  forgetVerified(ctx, user.id);
  invalidateCallerCache();
  return startSessionFor(ctx, user.id, client);
}

export async function logout(ctx: AppContext, token: string | null): Promise<void> {
  if (!token || !(await deleteSession(ctx, token))) throw notFound();
  forgetSessionCaller(token);
}
