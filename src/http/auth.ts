// Who is calling? Looks at the `metabase.SESSION` cookie, then the `X-Metabase-Session` header, then `X-Api-Key`.
// Resolved callers are kept for a second, so that a burst of requests (a dashboard loading 25 cards) costs one
// lookup; any change to users, groups or sessions on this instance clears the cache at once.

import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Caller } from './caller.js';
import { resolveSession } from '../users/sessions.js';
import { resolveApiKey } from '../users/api-keys.js';

const TTL_MS = 1000;
const MAX_ENTRIES = 10_000;
const cache = new Map<string, { caller: Caller | null; expires: number }>();

export function invalidateCallerCache(): void {
  cache.clear();
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

async function cached(key: string, load: () => Promise<Caller | null>): Promise<Caller | null> {
  const hit = cache.get(key);
  const now = Date.now();
  if (hit && hit.expires > now) return hit.caller;
  const caller = await load();
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, { caller, expires: now + TTL_MS });
  return caller;
}

export async function resolveCaller(ctx: AppContext, request: FastifyRequest): Promise<Caller | null> {
  const token = sessionTokenOf(request);
  if (token) {
    const caller = await cached(`s:${token}`, () => resolveSession(ctx, token));
    if (caller) return caller;
  }
  const apiKey = apiKeyOf(request);
  if (apiKey) return cached(`k:${apiKey}`, () => resolveApiKey(ctx, apiKey));
  return null;
}
