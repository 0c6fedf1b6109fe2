// How Quarry opens data-source connections, from the environment (Metabase's variable names where it has them).

import type { AppContext } from '../context.js';
import type { OpenOptions } from '../drivers/driver.js';

function positive(raw: string | undefined, fallback: number): number {
  const n = raw === undefined || raw === '' ? NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function openOptions(ctx: AppContext): OpenOptions {
  const env = ctx.config.env;
  return {
    maxConnections: Math.floor(positive(env.MB_JDBC_DATA_WAREHOUSE_MAX_CONNECTION_POOL_SIZE, 15)),
    dataDir: ctx.config.dataDir,
    connectTimeoutMs: positive(env.MB_DB_CONNECTION_TIMEOUT_MS, 10_000),
    queryTimeoutMs: positive(env.MB_DB_QUERY_TIMEOUT_MINUTES, 20) * 60_000,
    protectedPaths: ctx.config.appDb.type === 'sqlite' ? [ctx.config.appDb.file] : [],
  };
}
