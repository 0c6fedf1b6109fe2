// POST /api/setup: the first admin, once. GET /api/setup/admin_checklist: the admins' getting-started checklist.
// GET /api/setup/user_defaults: first-user details an operator prepared (MB_USER_DEFAULTS).

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { s, parseParams } from '../http/schema.js';
import { ApiError } from '../http/errors.js';
import { runSetup, ALREADY_SET_UP } from '../users/setup.js';
import { hasUserSetup } from '../users/setup-state.js';
import { sessionCookies, clientInfo } from '../http/session-cookies.js';
import { PASSWORD_MESSAGE } from '../users/password-policy.js';
import { isAvailableLocale, LOCALE_MESSAGE } from '../util/locales.js';
import { adminChecklist } from '../diagnostics/admin-checklist.js';
import { userDefaults } from '../users/user-defaults.js';

const setupBody = {
  token: s.check<string>('Token does not match the setup token.', (v) => typeof v === 'string' && v.length > 0),
  user: s.object({
    email: s.email(),
    password: s.str(PASSWORD_MESSAGE),
    first_name: s.maybe(s.name()),
    last_name: s.maybe(s.name()),
  }),
  prefs: s.object({
    site_name: s.nbstr(),
    site_locale: s.maybe(s.check<string>(LOCALE_MESSAGE, isAvailableLocale)),
    allow_tracking: s.optional(s.any()),
  }),
};

export function setupRoutes(r: Routes) {
  r.post('/api/setup', { auth: 'none' }, async ({ ctx, request }) => {
    // Checked before the body, so a repeat attempt always gets the "already set up" answer.
    if (await hasUserSetup(ctx)) throw new ApiError(403, ALREADY_SET_UP);
    const body = parseParams(setupBody, request.body, false);
    const client = clientInfo(request, await ctx.settings.getString('source-address-header'));
    const token = await runSetup(ctx, body, client);
    return Respond.json({ id: token }, 200, await sessionCookies(ctx, request, token, false));
  });

  r.get('/api/setup/admin_checklist', { auth: 'admin' }, ({ ctx }) => adminChecklist(ctx));
  r.get('/api/setup/user_defaults', { auth: 'none', query: { token: s.maybe(s.str()) } }, ({ ctx, query }) => userDefaults(ctx, query.token ?? null));
}
