// `refresh_automatically` (duration and schedule policies): when results go stale — an invalidation, a schedule's
// fire, a duration running out — their queries run again right away, so the next viewer finds a fresh result
// instead of waiting. What runs again are the stored results themselves: each entry keeps how it was asked for
// (card, dashboard, parameters, who asked — `refresh` in query_cache), at most REFRESHES_PER_CARD of the newest per
// card and dashboard. A rerun goes through the card's current definition and the asker's current permissions (a
// user who lost access gets nothing run), with context `cache-refresh`.
//
// Running a card belongs to the cards module: it registers the runner here (src/cards/cache-refresh.ts).

import { createHash } from 'node:crypto';
import type { AppContext } from '../context.js';
import { parseJson } from '../appdb/portable.js';
import { withLease } from '../tasks/lease.js';
import { canonicalJson } from '../util/canonical-json.js';
import { strategyOfRow, UNIT_MS } from './strategy.js';

export interface RefreshRecipe {
  card_id: number;
  dashboard_id: number | null;
  parameters: unknown[];
  saved_parameter_targets: boolean;
  /** Who asked (their permissions apply again), or null for a public link or an embed. */
  executor_id: number | null;
  shared: 'public' | 'embedded' | null;
}

export type CacheRefresher = (ctx: AppContext, recipe: RefreshRecipe) => Promise<void>;

let refresher: CacheRefresher | null = null;

export function registerCacheRefresher(fn: CacheRefresher): void {
  refresher = fn;
}

/** Newest results run again per card and dashboard (Metabase: the defaults plus up to ten parameter combinations). */
const REFRESHES_PER_CARD = 11;

export interface RefreshTarget {
  /** Results stored under these policies (when they refresh automatically). */
  configIds?: number[];
  /** Results of these cards (under policies that refresh automatically). */
  cardIds?: number[];
}

/** The recipes of the stored results a refresh concerns, newest first, deduplicated. */
export async function recipesFor(ctx: AppContext, target: RefreshTarget): Promise<RefreshRecipe[]> {
  let q = ctx.db
    .selectFrom('query_cache')
    .innerJoin('cache_config', 'cache_config.id', 'query_cache.config_id')
    .select(['query_cache.refresh', 'query_cache.card_id', 'query_cache.dashboard_id'])
    .where('query_cache.refresh', 'is not', null)
    .where('cache_config.refresh_automatically', '=', true);
  if (target.configIds) q = q.where('query_cache.config_id', 'in', target.configIds.length ? target.configIds : [-1]);
  if (target.cardIds) q = q.where('query_cache.card_id', 'in', target.cardIds.length ? target.cardIds : [-1]);
  const rows = await q.orderBy('query_cache.updated_at', 'desc').limit(1000).execute();
  const perCard = new Map<string, number>();
  const seen = new Set<string>();
  const out: RefreshRecipe[] = [];
  for (const row of rows) {
    const recipe = parseJson<RefreshRecipe | null>(row.refresh, null);
    if (!recipe || typeof recipe.card_id !== 'number') continue;
    const text = JSON.stringify(recipe);
    if (seen.has(text)) continue;
    seen.add(text);
    const group = `${row.card_id}:${row.dashboard_id}`;
    const n = perCard.get(group) ?? 0;
    if (n >= REFRESHES_PER_CARD) continue;
    perCard.set(group, n + 1);
    out.push(recipe);
  }
  return out;
}

const RERUN_LEASE_MS = 10 * 60_000;

/** The lease a rerun holds, so the same result is not run again twice at once (by two instances, or two triggers). */
export function rerunLeaseKey(recipe: RefreshRecipe): string {
  return `cache-refresh:${createHash('sha256').update(canonicalJson(recipe)).digest('hex')}`;
}

/**
 * Runs the recipes one after another (so a refresh never floods the database); returns how many ran. A recipe
 * another run is rerunning right now (here or on another instance) is skipped: that run stores the fresh result.
 */
export async function runRefreshes(ctx: AppContext, recipes: RefreshRecipe[]): Promise<number> {
  const run = refresher;
  if (!run) return 0;
  let ran = 0;
  for (const recipe of recipes) {
    try {
      if ((await withLease(ctx, rerunLeaseKey(recipe), RERUN_LEASE_MS, () => run(ctx, recipe))).ran) ran += 1;
    } catch (error) {
      ctx.log.warn({ err: error, card: recipe.card_id }, 'refreshing a cached result failed');
    }
  }
  return ran;
}

const running = new WeakMap<AppContext, Promise<unknown>>();

/** Refreshes in the background, after whatever refresh this instance is already doing. */
export function refreshInBackground(ctx: AppContext, target: RefreshTarget): void {
  const previous = running.get(ctx) ?? Promise.resolve();
  const next = previous
    .then(async () => runRefreshes(ctx, await recipesFor(ctx, target)))
    .catch((error) => ctx.log.warn({ err: error }, 'refreshing cached results failed'));
  running.set(ctx, next);
}

/** Waits for this instance's background refreshes (tests, shutdown). */
export async function refreshesSettled(ctx: AppContext): Promise<void> {
  for (;;) {
    const current = running.get(ctx);
    if (!current) return;
    await current;
    if (running.get(ctx) === current) return;
  }
}

/** How far ahead of their expiry results under a duration policy are run again. */
export const EXPIRY_LEAD_MS = 60_000;

/**
 * Duration policies with `refresh_automatically`: results that run out within EXPIRY_LEAD_MS of `now` and were
 * viewed since they were stored (Metabase refreshes what was used during the last period) run again. Results nobody
 * looked at are left to expire. Returns how many ran.
 */
export async function refreshExpiring(ctx: AppContext, now = new Date()): Promise<number> {
  const configs = await ctx.db
    .selectFrom('cache_config')
    .select(['id', 'strategy', 'config', 'refresh_automatically'])
    .where('strategy', '=', 'duration')
    .where('refresh_automatically', '=', true)
    .execute();
  let ran = 0;
  for (const config of configs) {
    const strategy = strategyOfRow(config);
    if (strategy.type !== 'duration') continue;
    const lifetime = strategy.duration * UNIT_MS[strategy.unit];
    const expiringBy = new Date(now.getTime() + EXPIRY_LEAD_MS - lifetime).toISOString();
    // long expired (nobody came for a whole period after): not refreshed
    const notBefore = new Date(now.getTime() - lifetime - EXPIRY_LEAD_MS).toISOString();
    const entries = await ctx.db
      .selectFrom('query_cache')
      .select(['refresh', 'card_id', 'dashboard_id', 'updated_at'])
      .where('config_id', '=', config.id)
      .where('refresh', 'is not', null)
      .where('updated_at', '<=', expiringBy)
      .where('updated_at', '>=', notBefore)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('query_execution')
            .select('query_execution.id')
            .whereRef('query_execution.card_id', '=', 'query_cache.card_id')
            .whereRef('query_execution.started_at', '>', 'query_cache.updated_at')
            .where('query_execution.context', '!=', 'cache-refresh'),
        ),
      )
      .orderBy('updated_at', 'desc')
      .limit(REFRESHES_PER_CARD * 20)
      .execute();
    const recipes = entries.map((e) => parseJson<RefreshRecipe | null>(e.refresh, null)).filter((r): r is RefreshRecipe => r !== null && typeof r.card_id === 'number');
    ran += await runRefreshes(ctx, recipes);
  }
  return ran;
}
