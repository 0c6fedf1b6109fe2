// The cookies Metabase sets on login, setup and password reset, and clears on logout.

import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { CookieSpec } from './route.js';
import { SESSION_COOKIE } from './auth.js';

function isHttps(request: FastifyRequest): boolean {
  const forwarded = request.headers['x-forwarded-proto'];
  const proto = Array.isArray(forwarded) ? forwarded[0] : forwarded;
  return request.protocol === 'https' || proto?.split(',')[0].trim() === 'https';
}

export async function sessionCookies(
  ctx: AppContext,
  request: FastifyRequest,
  token: string,
  remember: boolean,
): Promise<CookieSpec[]> {
  const sameSiteSetting = ((await ctx.settings.getString('session-cookie-samesite')) ?? 'lax').toLowerCase();
  const secure = isHttps(request);
  // SameSite=None is only honoured by browsers on secure cookies.
  const sameSite = sameSiteSetting === 'none' && !secure ? 'lax' : sameSiteSetting;
  const maxAge = ctx.config.maxSessionAgeMinutes * 60;
  const forceBrowserSession = ctx.config.env.MB_SESSION_COOKIES === 'true';
  const base = { path: '/', httpOnly: true, sameSite, secure };
  const cookies: CookieSpec[] = [
    { name: SESSION_COOKIE, value: token, options: remember && !forceBrowserSession ? { ...base, maxAge } : base },
    { name: 'metabase.TIMEOUT', value: 'alive', options: { path: '/', sameSite, secure, maxAge } },
  ];
  if (!request.cookies?.['metabase.DEVICE']) {
    cookies.push({
      name: 'metabase.DEVICE',
      value: crypto.randomUUID(),
      options: { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge: 20 * 365 * 24 * 3600 },
    });
  }
  return cookies;
}

export function clearedSessionCookies(): CookieSpec[] {
  const expired = { path: '/', expires: new Date(0) };
  return ['metabase.SESSION', 'metabase.EMBEDDED_SESSION', 'metabase.TIMEOUT'].map((name) => ({
    name,
    value: '',
    options: expired,
  }));
}

export function clientInfo(request: FastifyRequest, sourceHeader: string | null) {
  let ip: string | null = request.ip ?? null;
  if (sourceHeader) {
    const header = request.headers[sourceHeader.toLowerCase()];
    const value = Array.isArray(header) ? header[0] : header;
    if (value) ip = value.split(',')[0].trim();
  }
  const ua = request.headers['user-agent'];
  return {
    ip,
    deviceId: request.cookies?.['metabase.DEVICE'] ?? null,
    userAgent: typeof ua === 'string' ? ua : null,
  };
}
