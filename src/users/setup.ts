// First-time setup: creates the first admin. The setup token works exactly once — its stored copy is deleted in
// the same transaction that creates the user and writes the settings, and a unique marker row makes a concurrent
// second setup fail.

import type { AppContext } from '../context.js';
import { ApiError, validationError } from '../http/errors.js';
import { receivedLiteral } from '../http/schema.js';
import { nowIso } from '../appdb/portable.js';
import { insertUser, assertValidPassword } from './users.js';
import { hasUserSetup } from './setup-state.js';
import { startSessionFor, type ClientInfo } from './login.js';
import { invalidateCallerCache } from '../http/auth.js';
import { findSetting } from '../settings/definition.js';

export const ALREADY_SET_UP = 'The /api/setup route can only be used to create the first user, however a user currently exists.';
const TOKEN_MISMATCH = 'Token does not match the setup token.';

export interface SetupInput {
  token: string;
  user: { email: string; password: string; first_name?: string | null; last_name?: string | null };
  prefs: { site_name: string; site_locale?: string | null; allow_tracking?: unknown };
}

async function expectedToken(ctx: AppContext): Promise<string | null> {
  if (ctx.config.env.MB_SETUP_TOKEN) return ctx.config.env.MB_SETUP_TOKEN;
  const row = await ctx.db.selectFrom('setting').select('value').where('key', '=', 'setup-token').executeTakeFirst();
  return row?.value ?? null;
}

/** The settings setup writes, from the request; values fixed by an MB_* environment variable are left alone. */
function setupSettings(ctx: AppContext, input: SetupInput): Record<string, unknown> {
  const tracking = input.prefs.allow_tracking;
  const values: Record<string, unknown> = {
    'site-name': input.prefs.site_name,
    'admin-email': input.user.email.trim().toLowerCase(),
    'site-locale': input.prefs.site_locale ?? null,
    'anon-tracking-enabled': tracking === undefined || tracking === null ? true : String(tracking) !== 'false',
  };
  return Object.fromEntries(
    Object.entries(values).filter(([key, value]) => value !== null && !ctx.settings.isEnvSetting(findSetting(key)!)),
  );
}

/**
 * Everything is checked first (token, password, each setting with its own validation); then the user, the used-up
 * setup token and the settings are written in one transaction, so a setup that fails changes nothing.
 */
export async function runSetup(ctx: AppContext, input: SetupInput, client: ClientInfo): Promise<string> {
  if (await hasUserSetup(ctx)) throw new ApiError(403, ALREADY_SET_UP);
  const expected = await expectedToken(ctx);
  if (!expected || input.token !== expected) {
    throw validationError({ token: TOKEN_MISMATCH }, { token: [`${TOKEN_MISMATCH}, received: ${receivedLiteral(input.token)}`] });
  }
  assertValidPassword(ctx, input.user.password, ['user', 'password']);
  const settings = ctx.settings.prepare(setupSettings(ctx, input), null);

  let userId: number;
  try {
    userId = await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('setting').values({ key: 'setup-completed-at', value: nowIso() }).execute();
      await trx.deleteFrom('setting').where('key', '=', 'setup-token').execute();
      const id = await insertUser(ctx, trx, {
        email: input.user.email,
        password: input.user.password,
        first_name: input.user.first_name ?? null,
        last_name: input.user.last_name ?? null,
        is_superuser: true,
        locale: null,
      });
      await ctx.settings.write(trx, settings);
      return id;
    });
  } catch (error) {
    // The marker row already exists: another setup won the race.
    if (await hasUserSetup(ctx)) throw new ApiError(403, ALREADY_SET_UP);
    throw error;
  }
  invalidateCallerCache();
  await ctx.settings.committed(settings);
  return startSessionFor(ctx, userId, client);
}
