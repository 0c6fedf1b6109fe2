// Login throttling as Metabase does it: failed attempts are remembered for an hour per key (username, IP);
// once a key has `threshold` or more failures, the next attempt must wait 15 s × n^1.5 after the latest one,
// n being the number of failures at or over the threshold. Attempts live in the app DB, so the limit holds
// across every instance of a cluster.

import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';

const ATTEMPT_TTL_MS = 60 * 60 * 1000;
const INITIAL_DELAY_MS = 15_000;
const DELAY_EXPONENT = 1.5;

export interface Throttler {
  prefix: string;
  threshold: number;
  /** The error field the message is reported under. */
  field: string;
  status: number;
  /** How long an attempt counts (default an hour). */
  ttlMs?: number;
}

export const LOGIN_BY_USERNAME: Throttler = { prefix: 'login-username', threshold: 10, field: 'username', status: 401 };
export const LOGIN_BY_IP: Throttler = { prefix: 'login-ip', threshold: 50, field: 'username', status: 401 };
export const FORGOT_BY_EMAIL: Throttler = { prefix: 'forgot-email', threshold: 3, field: 'email', status: 400 };
export const FORGOT_BY_IP: Throttler = { prefix: 'forgot-ip', threshold: 50, field: 'email', status: 400 };
export const RESET_BY_IP: Throttler = { prefix: 'reset-ip', threshold: 10, field: 'token', status: 400 };
/** Public action forms: 60 runs a minute per form and address, then waits (a public form can't be used to flood). */
export const PUBLIC_ACTION_BY_IP: Throttler = { prefix: 'public-action', threshold: 60, field: 'parameters', status: 429, ttlMs: 60_000 };

function keyOf(throttler: Throttler, value: string): string {
  return `${throttler.prefix}:${value.toLowerCase()}`.slice(0, 300);
}

/** Seconds the caller must still wait, or 0. */
async function remainingSeconds(ctx: AppContext, throttler: Throttler, value: string): Promise<number> {
  const since = Date.now() - (throttler.ttlMs ?? ATTEMPT_TTL_MS);
  const rows = await ctx.db
    .selectFrom('login_throttle')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('attempted_at').as('latest')])
    .where('throttle_key', '=', keyOf(throttler, value))
    .where('attempted_at', '>', since)
    .executeTakeFirst();
  const attempts = Number(rows?.n ?? 0);
  const over = attempts - throttler.threshold + 1;
  if (over <= 0) return 0;
  const waitUntil = Number(rows?.latest ?? 0) + INITIAL_DELAY_MS * Math.pow(over, DELAY_EXPONENT);
  const remaining = waitUntil - Date.now();
  return remaining > 0 ? Math.max(1, Math.round(remaining / 1000)) : 0;
}

export async function checkThrottle(ctx: AppContext, throttler: Throttler, value: string | null): Promise<void> {
  if (ctx.config.disableSessionThrottle || !value) return;
  const seconds = await remainingSeconds(ctx, throttler, value);
  if (seconds > 0) {
    throw new ApiError(throttler.status, {
      errors: { [throttler.field]: `Too many attempts! You must wait ${seconds} seconds before trying again.` },
    });
  }
}

export async function recordAttempt(ctx: AppContext, throttler: Throttler, value: string | null): Promise<void> {
  if (ctx.config.disableSessionThrottle || !value) return;
  await ctx.db.insertInto('login_throttle').values({ throttle_key: keyOf(throttler, value), attempted_at: Date.now() }).execute();
}

export async function purgeOldAttempts(ctx: AppContext): Promise<void> {
  await ctx.db.deleteFrom('login_throttle').where('attempted_at', '<=', Date.now() - ATTEMPT_TTL_MS).execute();
}
