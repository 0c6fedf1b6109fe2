// GET /api/setup/user_defaults?token=: the first user's details an operator prepared for the setup form, from the
// `MB_USER_DEFAULTS` environment variable (a JSON object with a `token`), as Metabase: 404 when nothing (or nothing
// with a token) is configured, 403 for another token, else the object without its token. Open to anyone (the setup
// form has no session yet); only the holder of the token reads it. A value that isn't a JSON object counts as
// nothing configured (and is logged), rather than failing every request.

import type { AppContext } from '../context.js';
import { forbidden, notFound } from '../http/errors.js';
import { secretsEqual } from '../util/secret-compare.js';

function configuredDefaults(ctx: AppContext): Record<string, unknown> | null {
  const raw = ctx.config.env.MB_USER_DEFAULTS;
  if (raw === undefined || raw.trim() === '') return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  ctx.log.warn('MB_USER_DEFAULTS is not a JSON object; no user defaults are offered');
  return null;
}

export function userDefaults(ctx: AppContext, token: string | null) {
  const defaults = configuredDefaults(ctx);
  const expected = defaults?.token;
  if (typeof expected !== 'string' || expected === '') throw notFound();
  if (token === null || !secretsEqual(token, expected)) throw forbidden();
  const { token: _token, ...rest } = defaults!;
  return rest;
}
