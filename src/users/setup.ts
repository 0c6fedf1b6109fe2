// First-time setup: creates the first admin. The setup token works exactly once — its stored copy is deleted in
// the same transaction that creates the user, and a unique marker row makes a concurrent second setup fail.

import type { AppContext } from '../context.js';
import { ApiError, validationError } from '../http/errors.js';
import { clojureLiteral } from '../http/schema.js';
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

export async function runSetup(ctx: AppContext, input: SetupInput, client: ClientInfo): Promise<string> {
  if (await hasUserSetup(ctx)) throw new ApiError(403, ALREADY_SET_UP);
  const expected = await expectedToken(ctx);
  if (!expected || input.token !== expected) {
    throw validationError({ token: TOKEN_MISMATCH }, { token: [`${TOKEN_MISMATCH}, received: ${clojureLiteral(input.token)}`] });
  }
  assertValidPassword(ctx, input.user.password, 'password');

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
      return id;
    });
  } catch (error) {
    // The marker row already exists: another setup won the race.
    if (await hasUserSetup(ctx)) throw new ApiError(403, ALREADY_SET_UP);
    throw error;
  }
  invalidateCallerCache();
  const tracking = input.prefs.allow_tracking;
  const prefs: Array<[string, unknown]> = [
    ['site-name', input.prefs.site_name],
    ['admin-email', input.user.email.trim().toLowerCase()],
    ['site-locale', input.prefs.site_locale ?? null],
    ['anon-tracking-enabled', tracking === undefined || tracking === null ? true : String(tracking) !== 'false'],
  ];
  for (const [key, value] of prefs) {
    const definition = findSetting(key)!;
    // A value fixed by an MB_* environment variable wins over what setup was given.
    if (value !== null && !ctx.settings.isEnvSetting(definition)) await ctx.settings.set(key, value, null);
  }
  return startSessionFor(ctx, userId, client);
}
