// Which cache policy a saved card's run follows, and how old a stored result it may reuse (reference §12.2, B7).
// Resolution: the question's policy → the dashboard's (when run from one) → the database's → the root policy →
// a legacy `cache_ttl` in hours (card, dashboard, database) → Metabase's default root policy (adaptive).
//
// Reuse ("valid since"), with invalidated-at = the later of the policy's `invalidated_at` and the card's
// `cache_invalidated_at`, and never older than `query-caching-max-ttl`:
//   ttl        now − multiplier × the query's average run time (no reuse until it has one)
//   duration   now − duration
//   schedule   the schedule's last fire (its cron, in the report time zone) — so every instance agrees without a job
// Storing: `nocache` never; `ttl` only runs of at least `min_duration_ms`; and only results with rows.

import type { AppContext } from '../context.js';
import { DEFAULT_ROOT_STRATEGY, UNIT_MS, strategyOfRow, type CacheModel, type Strategy } from './strategy.js';
import { latestFireTime } from '../tasks/cron.js';

export interface CachedRun {
  cardId: number;
  dashboardId: number | null;
  databaseId: number;
}

export interface Policy {
  strategy: Strategy;
  /** The `cache_config` row the strategy comes from (null: a legacy cache_ttl or the default root policy). */
  configId: number | null;
  source: CacheModel | 'legacy' | 'default';
  /** Results stored before this are stale. */
  invalidatedAt: string | null;
}

const ORDER: CacheModel[] = ['question', 'dashboard', 'database', 'root'];

function later(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}

/** The policy of a card's run, or null when caching is switched off (`enable-query-caching`). */
export async function resolvePolicy(ctx: AppContext, run: CachedRun): Promise<Policy | null> {
  if (!(await ctx.settings.getBoolean('enable-query-caching'))) return null;
  const [rows, card] = await Promise.all([
    ctx.db
      .selectFrom('cache_config')
      .select(['id', 'model', 'model_id', 'strategy', 'config', 'refresh_automatically', 'invalidated_at'])
      .where((eb) =>
        eb.or([
          eb.and([eb('model', '=', 'question'), eb('model_id', '=', run.cardId)]),
          ...(run.dashboardId !== null ? [eb.and([eb('model', '=', 'dashboard'), eb('model_id', '=', run.dashboardId)])] : []),
          eb.and([eb('model', '=', 'database'), eb('model_id', '=', run.databaseId)]),
          eb.and([eb('model', '=', 'root'), eb('model_id', '=', 0)]),
        ]),
      )
      .execute(),
    ctx.db.selectFrom('report_card').select(['cache_invalidated_at', 'cache_ttl']).where('id', '=', run.cardId).executeTakeFirst(),
  ]);
  const cardInvalidated = card?.cache_invalidated_at ?? null;
  const row = ORDER.map((model) => rows.find((r) => r.model === model)).find((r) => r !== undefined);
  if (row) {
    return { strategy: strategyOfRow(row), configId: row.id, source: row.model as CacheModel, invalidatedAt: later(row.invalidated_at, cardInvalidated) };
  }
  const hours = await legacyTtlHours(ctx, run, card?.cache_ttl ?? null);
  if (hours !== null) {
    return { strategy: { type: 'duration', duration: hours, unit: 'hours', refresh_automatically: false }, configId: null, source: 'legacy', invalidatedAt: cardInvalidated };
  }
  return { strategy: DEFAULT_ROOT_STRATEGY, configId: null, source: 'default', invalidatedAt: cardInvalidated };
}

/** Metabase's per-item `cache_ttl` (hours) from before cache policies: the card's, the dashboard's, the database's. */
async function legacyTtlHours(ctx: AppContext, run: CachedRun, cardTtl: number | null): Promise<number | null> {
  if (cardTtl && cardTtl > 0) return cardTtl;
  if (run.dashboardId !== null) {
    const dash = await ctx.db.selectFrom('report_dashboard').select('cache_ttl').where('id', '=', run.dashboardId).executeTakeFirst();
    if (dash?.cache_ttl && dash.cache_ttl > 0) return dash.cache_ttl;
  }
  const db = await ctx.db.selectFrom('metabase_database').select('cache_ttl').where('id', '=', run.databaseId).executeTakeFirst();
  return db?.cache_ttl && db.cache_ttl > 0 ? db.cache_ttl : null;
}

/** The zone schedules are read in: the report time zone, else UTC. */
export async function scheduleZone(ctx: AppContext): Promise<string> {
  const zone = await ctx.settings.get('report-timezone');
  return typeof zone === 'string' && zone ? zone : 'UTC';
}

/**
 * The oldest stored result this policy may still serve (ISO), or null when nothing may be reused.
 * `averageMs` is asked only for adaptive (ttl) policies.
 */
export async function validSince(ctx: AppContext, policy: Policy, now: Date, averageMs: () => Promise<number | null>): Promise<string | null> {
  const s = policy.strategy;
  let since: number | null;
  switch (s.type) {
    case 'nocache':
      return null;
    case 'ttl': {
      const average = await averageMs();
      since = average ? now.getTime() - s.multiplier * average : null;
      break;
    }
    case 'duration':
      since = now.getTime() - s.duration * UNIT_MS[s.unit];
      break;
    case 'schedule':
      since = latestFireTime(s.schedule, await scheduleZone(ctx), now)?.getTime() ?? null;
      break;
  }
  if (since === null) return null;
  const maxTtlSeconds = Number(await ctx.settings.get('query-caching-max-ttl'));
  if (Number.isFinite(maxTtlSeconds) && maxTtlSeconds > 0) since = Math.max(since, now.getTime() - maxTtlSeconds * 1000);
  return later(new Date(since).toISOString(), policy.invalidatedAt);
}

/** Whether a finished run may be stored under this policy. */
export function mayStore(policy: Policy, runningTimeMs: number, rowCount: number): boolean {
  if (rowCount < 1) return false;
  const s = policy.strategy;
  if (s.type === 'nocache') return false;
  if (s.type === 'ttl') return runningTimeMs >= s.min_duration_ms;
  return true;
}
