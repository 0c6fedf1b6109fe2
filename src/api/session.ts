// /api/session: properties, login, logout, password reset and password check.

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { s } from '../http/schema.js';
import { badRequest } from '../http/errors.js';
import { sessionProperties } from '../settings/properties.js';
import { login, logout, forgotPassword, resetPassword, resetTokenValid } from '../users/login.js';
import { assertValidPassword } from '../users/users.js';
import { sessionCookies, clearedSessionCookies, clientInfo } from '../http/session-cookies.js';
import { sessionTokenOf } from '../http/auth.js';
import { MAX_PASSWORD_LENGTH, PASSWORD_MESSAGE } from '../users/password-policy.js';
import { SESSION } from '../openapi/shapes.js';

export function sessionRoutes(r: Routes) {
  r.get('/api/session/properties', { auth: 'none' }, ({ ctx, maybeCaller }) => sessionProperties(ctx, maybeCaller));

  r.post(
    '/api/session',
    {
      auth: 'none',
      body: { username: s.nbstr(), password: s.nbstr(undefined, { max: MAX_PASSWORD_LENGTH }), remember: s.optional(s.any()) },
      doc: { summary: 'Sign in', responses: { 200: SESSION } },
    },
    async ({ ctx, body, request }) => {
      const client = clientInfo(request, await ctx.settings.getString('source-address-header'));
      const token = await login(ctx, body.username, body.password, client);
      const remember = body.remember === true || body.remember === 'true';
      return Respond.json({ id: token }, 200, await sessionCookies(ctx, request, token, remember));
    },
  );

  r.delete('/api/session', { auth: 'none' }, async ({ ctx, request }) => {
    await logout(ctx, sessionTokenOf(request));
    return Respond.noContent(clearedSessionCookies());
  });

  r.post('/api/session/forgot_password', { auth: 'none', body: { email: s.email() } }, async ({ ctx, body, request }) => {
    const client = clientInfo(request, await ctx.settings.getString('source-address-header'));
    const token = await forgotPassword(ctx, body.email, client);
    if (token) {
      // Never the request's Host header: a forged one would send the victim a link to the attacker's site.
      const siteUrl = (await ctx.settings.getString('site-url')) ?? `http://${ctx.config.host}:${ctx.config.port}`;
      await ctx.mailer.send({
        to: body.email,
        subject: '[Metabase] Password Reset Request',
        text: `You're seeing this email because you forgot your password.\n\nReset it here: ${siteUrl}/auth/reset_password/${token}\n\nThis link expires in 48 hours.`,
      });
    }
    return null;
  });

  r.post(
    '/api/session/reset_password',
    { auth: 'none', body: { token: s.nbstr(), password: s.str(PASSWORD_MESSAGE) } },
    async ({ ctx, body, request }) => {
      const client = clientInfo(request, await ctx.settings.getString('source-address-header'));
      const token = await resetPassword(ctx, body.token, body.password, client);
      return Respond.json({ success: true, session_id: token }, 200, await sessionCookies(ctx, request, token, false));
    },
  );

  r.get('/api/session/password_reset_token_valid', { auth: 'none', query: { token: s.nbstr() } }, async ({ ctx, query }) => ({
    valid: await resetTokenValid(ctx, query.token),
  }));

  const passwordCheck = { auth: 'none' as const, body: { password: s.str(PASSWORD_MESSAGE) } };
  r.post('/api/session/password-check', passwordCheck, ({ ctx, body }) => {
    assertValidPassword(ctx, body.password);
    return { valid: true };
  });
  r.post('/api/util/password_check', passwordCheck, ({ ctx, body }) => {
    assertValidPassword(ctx, body.password);
    return { valid: true };
  });

  r.post('/api/session/google_auth', { auth: 'none' }, () => {
    throw badRequest('Google Auth is disabled.');
  });
}
