// What an admin attaches to a bug report (GET /api/bug-reporting/details; /api/util/bug_report_details before 0.55),
// and each database's connection pool (GET /api/bug-reporting/connection-pool-details): kinds and figures only — no
// names of things, no queries, no connection details. Quarry sends them nowhere.

import os from 'node:os';
import type { AppContext } from '../context.js';
import { METABASE_COMPATIBLE_VERSION, QUARRY_VERSION } from '../version.js';
import { databaseQueueStats } from '../query/run.js';
import { openConnections } from '../databases/connections.js';

export async function bugReportDetails(ctx: AppContext) {
  const engines = await ctx.db.selectFrom('metabase_database').select('engine').distinct().orderBy('engine').execute();
  return {
    'system-info': {
      'node.version': process.version,
      'os.name': os.type(),
      'os.version': os.release(),
      'os.arch': os.arch(),
      'user.timezone': Intl.DateTimeFormat().resolvedOptions().timeZone,
      'cpu.count': os.cpus().length,
      'memory.total-bytes': os.totalmem(),
      'process.rss-bytes': process.memoryUsage().rss,
    },
    'metabase-info': {
      databases: engines.map((e) => e.engine),
      'hosting-env': 'unknown',
      'application-database': ctx.dialect,
      'run-mode': process.env.NODE_ENV === 'production' ? 'prod' : 'dev',
      version: { ...METABASE_COMPATIBLE_VERSION },
      'quarry-version': QUARRY_VERSION.tag,
      settings: { 'report-timezone': await ctx.settings.get('report-timezone') },
    },
  };
}

/**
 * Metabase's connection-pool figures, for every database whose pool this process has opened: the driver pool's own
 * connections (open, idle, busy; its maximum), and as waiting both callers waiting for one of its connections and
 * queries waiting in the database's query queue for a slot (Quarry's fair queue runs before the pool).
 */
export async function connectionPoolDetails(ctx: AppContext) {
  const open = openConnections(ctx);
  const queued = new Map(databaseQueueStats(ctx).map((q) => [q.databaseId, q.queued]));
  const names = open.length ? await ctx.db.selectFrom('metabase_database').select(['id', 'name']).where('id', 'in', open.map((o) => o.databaseId)).execute() : [];
  const pools: Record<string, unknown> = {};
  for (const { databaseId, connection } of open.sort((a, b) => a.databaseId - b.databaseId)) {
    const stats = connection.poolStats?.() ?? null;
    if (!stats) continue;
    const name = names.find((n) => n.id === databaseId)?.name ?? 'deleted';
    pools[`${name} (${databaseId})`] = {
      numConnections: stats.total,
      numIdleConnections: stats.idle,
      numBusyConnections: stats.busy,
      minPoolSize: stats.min,
      maxPoolSize: stats.max,
      numThreadsAwaitingCheckoutDefaultUser: stats.waiting + (queued.get(databaseId) ?? 0),
    };
  }
  return { 'connection-pools': pools };
}
