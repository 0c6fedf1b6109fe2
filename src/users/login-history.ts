// GET /api/login-history/current: the caller's sign-ins, newest first, as Metabase lists them on the account page —
// the device told from its user agent ("Firefox (Linux)"), the address, and whether that session is still open.
// Quarry sends no address to a geolocation service, so `location` is always "Unknown location" and `timezone` null.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';

const BROWSERS: Array<[RegExp, string]> = [
  [/Edg(e|A|iOS)?\//, 'Microsoft Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/curl\//, 'curl'],
  [/python-requests|aiohttp|httpx/i, 'Python'],
  [/node|undici|axios/i, 'Node.js'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'Mac OS X'],
  [/CrOS/, 'Chrome OS'],
  [/Linux/, 'Linux'],
];

/** "Browser (System)" from a user agent, as Metabase describes devices; "Unknown device" when it can't tell. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (browser && system) return `${browser} (${system})`;
  return browser ?? system ?? 'Unknown device';
}

export async function currentLoginHistory(ctx: AppContext, caller: Caller) {
  const cutoff = new Date(Date.now() - ctx.config.maxSessionAgeMinutes * 60_000).toISOString();
  const rows = await ctx.db
    .selectFrom('login_history')
    .leftJoin('core_session', (join) => join.onRef('core_session.key_hashed', '=', 'login_history.session_hash').on('core_session.created_at', '>', cutoff))
    .select(['login_history.id', 'login_history.timestamp', 'login_history.device_description', 'login_history.ip_address', 'core_session.key_hashed as open'])
    .where('login_history.user_id', '=', caller.user.id)
    .orderBy('login_history.timestamp', 'desc')
    .orderBy('login_history.id', 'desc')
    .execute();
  return rows.map((row) => ({
    timestamp: row.timestamp,
    device_description: describeDevice(row.device_description),
    ip_address: row.ip_address,
    location: 'Unknown location',
    active: row.open !== null,
    timezone: null,
  }));
}
