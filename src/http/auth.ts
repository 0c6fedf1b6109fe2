// Who is calling? Looks at the `metabase.SESSION` cookie, then the `X-Metabase-Session` header, then `X-Api-Key`.
// Resolved callers are kept for a second, so that a burst of requests (a dashboard loading 25 cards) costs one
// lookup; any change to users, groups or sessions on this instance clears the cache at once (and with it the caches
// registered with `onCallerChange`, such as GET /api/user/current's). Another instance's change (a logout, a
// deactivation) is seen here within that second.

import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Caller } from './caller.js';
import { resolveSession } from '../users/sessions.js';
import { resolveApiKey } from '../users/api-keys.js';
import { ShortCache } from './short-cache.js';

/** How long a resolved caller (and facts cached per caller) may be reused. */
export const CALLER_TTL_MS = 1000;
const cache = new ShortCache<Caller | null>(CALLER_TTL_MS);
const dependents: Array<() => void> = [];

/** Runs `fn` whenever the caller cache is cleared: for caches of other per-user facts. */
export function onCallerChange(fn: () => void): void {
  dependents.push(fn);
}

export function invalidateCallerCache(): void {
  cache.clear();
  for (const fn of dependents) fn();
}

const rowListeners: Array<(userId: number) => void> = [];

/** Runs `fn` when a user's own row changes in a way that leaves who they are alone (a login, a dismissed modal). */
export function onUserRowChange(fn: (userId: number) => void): void {
  rowListeners.push(fn);
}

export function userRowChanged(userId: number): void {
  for (const fn of rowListeners) fn(userId);
}

/** A logout: only that session's caller goes (the user, their groups and other sessions are unchanged). */
export function forgetSessionCaller(token: string): void {
  cache.delete(`s:${token}`);
}

export const SESSION_COOKIE = 'metabase.SESSION';

export function sessionTokenOf(request: FastifyRequest): string | null {
  const cookie = request.cookies?.[SESSION_COOKIE];
  if (cookie) return cookie;
  const header = request.headers['x-metabase-session'];
  const value = Array.isArray(header) ? header[0] : header;
  return value ? value : null;
}

function apiKeyOf(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  const value = Array.isArray(header) ? header[0] : header;
  return value ? value : null;
}

export async function resolveCaller(ctx: AppContext, request: FastifyRequest): Promise<Caller | null> {
  const token = sessionTokenOf(request);
  if (token) {
    const caller = await cache.get(`s:${token}`, () => resolveSession(ctx, token));
    if (caller) return caller;
  }
  const apiKey = apiKeyOf(request);
  if (apiKey) return cache.get(`k:${apiKey}`, () => resolveApiKey(ctx, apiKey));
  return null;
}
