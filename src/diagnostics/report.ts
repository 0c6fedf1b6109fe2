// What an admin attaches to a bug report (GET /api/bug-reporting/details; /api/util/bug_report_details before 0.55)
// and the anonymous usage figures (GET /api/analytics/anonymous-stats; /api/util/stats before): counts only — no
// names, no queries, no connection details. Quarry sends them nowhere; they are only shown to the admin who asks.

import os from 'node:os';
import type { AppContext } from '../context.js';
import { METABASE_COMPATIBLE_VERSION, QUARRY_VERSION } from '../version.js';
import { databaseQueueStats } from '../query/run.js';

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

async function count(ctx: AppContext, table: 'core_user' | 'report_card' | 'report_dashboard' | 'collection' | 'metabase_database' | 'metabase_table' | 'segment', where?: (q: any) => any) {
  let q: any = ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
  if (where) q = where(q);
  const row = await q.executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function anonymousStats(ctx: AppContext) {
  const [users, activeUsers, admins, questions, models, metrics, dashboards, collections, databases, tables, segments, executions] = await Promise.all([
    count(ctx, 'core_user', (q) => q.where('type', '=', 'personal')),
    count(ctx, 'core_user', (q) => q.where('type', '=', 'personal').where('is_active', '=', true)),
    count(ctx, 'core_user', (q) => q.where('is_superuser', '=', true).where('is_active', '=', true)),
    count(ctx, 'report_card', (q) => q.where('type', '=', 'question').where('archived', '=', false)),
    count(ctx, 'report_card', (q) => q.where('type', '=', 'model').where('archived', '=', false)),
    count(ctx, 'report_card', (q) => q.where('type', '=', 'metric').where('archived', '=', false)),
    count(ctx, 'report_dashboard', (q) => q.where('archived', '=', false)),
    count(ctx, 'collection', (q) => q.where('archived', '=', false).where('personal_owner_id', 'is', null)),
    count(ctx, 'metabase_database', (q) => q.where('is_audit', '=', false)),
    count(ctx, 'metabase_table', (q) => q.where('active', '=', true)),
    count(ctx, 'segment', (q) => q.where('archived', '=', false)),
    ctx.db.selectFrom('query_execution').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst().then((r) => Number(r?.n ?? 0)),
  ]);
  return {
    uuid: await ctx.settings.get('site-uuid'),
    instance_started: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    version: METABASE_COMPATIBLE_VERSION.tag,
    running_on: 'unknown',
    application_database: ctx.dialect,
    check_for_updates: false,
    stats: {
      user: { users: { total: users, active: activeUsers, admins } },
      question: { questions: { total: questions }, models: { total: models }, metrics: { total: metrics } },
      dashboard: { dashboards: { total: dashboards } },
      collection: { collections: { total: collections } },
      database: { databases: { total: databases } },
      table: { tables: { total: tables } },
      segment: { segments: { total: segments } },
      execution: { executions: { total: executions } },
    },
  };
}

/**
 * Metabase's connection-pool figures, from each database's query queue (every query to a database takes one of its
 * slots, one pooled connection each): busy = running queries, waiting = queued ones. Databases not queried since
 * start have no queue yet and are not listed.
 */
export async function connectionPoolDetails(ctx: AppContext) {
  const stats = databaseQueueStats(ctx);
  const names = stats.length ? await ctx.db.selectFrom('metabase_database').select(['id', 'name']).where('id', 'in', stats.map((s) => s.databaseId)).execute() : [];
  const pools: Record<string, unknown> = {};
  for (const s of stats) {
    const name = names.find((n) => n.id === s.databaseId)?.name ?? 'deleted';
    pools[`${name} (${s.databaseId})`] = {
      numConnections: s.running,
      numIdleConnections: s.maxRunning - s.running,
      numBusyConnections: s.running,
      minPoolSize: 0,
      maxPoolSize: s.maxRunning,
      numThreadsAwaitingCheckoutDefaultUser: s.queued,
    };
  }
  return { 'connection-pools': pools };
}
