// GET /api/analytics/anonymous-stats (/api/util/stats before 0.55): what Metabase's anonymous usage ping would say
// about this instance, with Metabase's keys (`legacy-anonymous-usage-stats`), computed from the app DB as it is now —
// counts, binned histograms and yes/no facts, never a name, a query or a value. Quarry sends it nowhere; only the
// admin who asks sees it.
//
// Quarry runs on Node, so the `system` section has Node's figures (and `node_version`) instead of the JVM's.

import os from 'node:os';
import v8 from 'node:v8';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { bool, parseJson } from '../appdb/portable.js';
import { METABASE_COMPATIBLE_VERSION } from '../version.js';
import { emailConfigured, isSet, settingIfDefined, slackConfigured } from './instance-settings.js';
import { usageSection } from './usage-sections.js';
import { startupTimeMillis } from './startup.js';
import { flushExecutions } from '../query/index.js';

type Obj = Record<string, unknown>;

// ----- Metabase's bins --------------------------------------------------------------------------------------------

export function binSmall(n: number): string {
  return n === 0 ? '0' : n <= 5 ? '1-5' : n <= 10 ? '6-10' : n <= 25 ? '11-25' : '25+';
}

export function binMedium(n: number): string {
  if (n === 0) return '0';
  if (n <= 5) return '1-5';
  if (n <= 10) return '6-10';
  if (n <= 25) return '11-25';
  if (n <= 50) return '26-50';
  if (n <= 100) return '51-100';
  if (n <= 250) return '101-250';
  return '250+';
}

/** How many groups have a count in each bin (groups of rows by some key, counted). */
function histogram(counts: Iterable<number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of counts) {
    const bin = binMedium(n);
    out[bin] = (out[bin] ?? 0) + 1;
  }
  return out;
}

/** Metabase's `merge-count-maps`: per key, the sum of numbers and the count of truthy values. */
function mergeCounts(rows: Obj[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of rows) for (const [k, v] of Object.entries(row)) out[k] = (out[k] ?? 0) + (typeof v === 'number' ? v : v ? 1 : 0);
  return out;
}

const num = (v: unknown) => Number(v ?? 0);

async function groupCounts(ctx: AppContext, table: string, column: string, where?: (q: any) => any): Promise<number[]> {
  let q: any = (ctx.db as any).selectFrom(table).select([column, (eb: any) => eb.fn.countAll().as('n')]).groupBy(column);
  if (where) q = where(q);
  return (await q.execute()).map((r: { n: unknown }) => num(r.n));
}

async function countOf(ctx: AppContext, table: string, where?: (q: any) => any): Promise<number> {
  let q: any = (ctx.db as any).selectFrom(table).select((eb: any) => eb.fn.countAll().as('n'));
  if (where) q = where(q);
  return num((await q.executeTakeFirst())?.n);
}

const ownDatabaseIds = (ctx: AppContext) => ctx.db.selectFrom('metabase_database').select('id').where('is_audit', '=', false);

// ----- sections ---------------------------------------------------------------------------------------------------

async function userMetrics(ctx: AppContext) {
  const users = await ctx.db.selectFrom('core_user').select(['is_active', 'is_superuser', 'last_login', 'sso_source']).where('type', '=', 'personal').execute();
  return {
    users: mergeCounts(users.map((u) => ({ total: 1, active: bool(u.is_active), admin: bool(u.is_superuser), logged_in: u.last_login !== null, sso: u.sso_source === 'google' }))),
  };
}

/** A card whose query has template tags (native questions with variables: `with_params`). */
const HAS_TEMPLATE_TAGS = '%"template-tags":{"%';

function embeddingParamKinds(raw: string | null): Set<string> {
  return new Set(Object.values(parseJson<Obj>(raw, {}) ?? {}).map(String));
}

async function questionMetrics(ctx: AppContext) {
  const cards = await ctx.db
    .selectFrom('report_card')
    .select(['query_type', 'dashboard_id', 'enable_embedding', 'public_uuid', 'embedding_params', sql<number>`case when dataset_query like ${HAS_TEMPLATE_TAGS} then 1 else 0 end`.as('with_params')])
    .where('archived', '=', false)
    .execute();
  const withParams = (c: (typeof cards)[number]) => num(c.with_params) === 1;
  const questions = mergeCounts(cards.map((c) => ({ total: 1, native: c.query_type === 'native', gui: c.query_type !== 'native', is_dashboard_question: c.dashboard_id !== null, with_params: withParams(c) })));
  const isPublic = cards.filter((c) => c.public_uuid !== null);
  const embedded = cards.filter((c) => bool(c.enable_embedding));
  return {
    questions: cards.length ? questions : {},
    public: isPublic.length ? mergeCounts(isPublic.map((c) => ({ total: 1, with_params: withParams(c) }))) : {},
    embedded: embedded.length
      ? mergeCounts(
          embedded.map((c) => {
            const kinds = embeddingParamKinds(c.embedding_params);
            return { total: 1, with_params: withParams(c), with_enabled_params: kinds.has('enabled'), with_locked_params: kinds.has('locked'), with_disabled_params: kinds.has('disabled') };
          }),
        )
      : {},
  };
}

async function dashboardMetrics(ctx: AppContext) {
  const dashboards = await ctx.db.selectFrom('report_dashboard').select(['creator_id', 'public_uuid', 'parameters', 'enable_embedding', 'embedding_params']).execute();
  const hasParams = (d: (typeof dashboards)[number]) => parseJson<unknown[]>(d.parameters, []).length > 0;
  const perCreator = new Map<number, number>();
  for (const d of dashboards) perCreator.set(d.creator_id, (perCreator.get(d.creator_id) ?? 0) + 1);
  return {
    dashboards: dashboards.length,
    with_params: dashboards.filter(hasParams).length,
    num_dashs_per_user: histogram(perCreator.values()),
    num_cards_per_dash: histogram(await groupCounts(ctx, 'report_dashboardcard', 'dashboard_id')),
    num_dashs_per_card: histogram(await groupCounts(ctx, 'report_dashboardcard', 'card_id', (q) => q.where('card_id', 'is not', null))),
    public: mergeCounts(dashboards.filter((d) => d.public_uuid !== null).map((d) => ({ total: 1, with_params: hasParams(d) }))),
    embedded: mergeCounts(
      dashboards
        .filter((d) => bool(d.enable_embedding))
        .map((d) => {
          const kinds = embeddingParamKinds(d.embedding_params);
          return { total: 1, with_params: hasParams(d), with_enabled_params: kinds.has('enabled'), with_locked_params: kinds.has('locked'), with_disabled_params: kinds.has('disabled') };
        }),
    ),
  };
}

async function collectionMetrics(ctx: AppContext) {
  const perCollection = await ctx.db.selectFrom('report_card').select(['collection_id', (eb) => eb.fn.countAll().as('n')]).groupBy('collection_id').execute();
  const inNone = perCollection.filter((r) => r.collection_id === null).reduce((sum, r) => sum + num(r.n), 0);
  const inSome = perCollection.filter((r) => r.collection_id !== null).reduce((sum, r) => sum + num(r.n), 0);
  return {
    collections: await countOf(ctx, 'collection', (q) => q.where('type', 'is', null).where('namespace', 'is', null)),
    cards_in_collections: inSome,
    cards_not_in_collections: inNone,
    num_cards_per_collection: histogram(perCollection.map((r) => num(r.n))),
  };
}

async function databaseMetrics(ctx: AppContext) {
  const databases = await ctx.db.selectFrom('metabase_database').select(['is_full_sync', 'engine', 'dbms_version']).where('is_audit', '=', false).execute();
  const versions: Record<string, number> = {};
  for (const d of databases) {
    const key = JSON.stringify({ ...(parseJson<Obj>(d.dbms_version, {}) ?? {}), engine: d.engine });
    versions[key] = (versions[key] ?? 0) + 1;
  }
  return { databases: mergeCounts(databases.map((d) => ({ total: 1, analyzed: bool(d.is_full_sync) }))), dbms_versions: versions };
}

async function tableMetrics(ctx: AppContext) {
  const own = (q: any) => q.where('db_id', 'in', ownDatabaseIds(ctx));
  return {
    tables: await countOf(ctx, 'metabase_table', own),
    num_per_database: histogram(await groupCounts(ctx, 'metabase_table', 'db_id', own)),
    num_per_schema: histogram(await groupCounts(ctx, 'metabase_table', 'schema', own)),
  };
}

async function fieldMetrics(ctx: AppContext) {
  const own = (q: any) => q.where('table_id', 'in', ctx.db.selectFrom('metabase_table').select('id').where('db_id', 'in', ownDatabaseIds(ctx)));
  return { fields: await countOf(ctx, 'metabase_field', own), num_per_table: histogram(await groupCounts(ctx, 'metabase_field', 'table_id', own)) };
}

/** [bin, lowest, highest (null: no upper bound)] */
const LATENCY_BINS: Array<[string, number, number | null]> = [
  ['0', 0, 0],
  ['< 1', 1, 999],
  ['1-10', 1_000, 9_999],
  ['11-50', 10_000, 49_999],
  ['51-250', 50_000, 249_999],
  ['251-1000', 250_000, 999_999],
  ['1001-10000', 1_000_000, 9_999_999],
  ['10000+', 10_000_000, null],
];
const PER_USER_BINS: Array<[string, number, number | null]> = [
  ['0', 0, 0],
  ['1-10', 1, 9],
  ['11-50', 10, 49],
  ['51-250', 50, 249],
  ['251-1000', 250, 999],
  ['1001-10000', 1_000, 9_999],
  ['10000+', 10_000, null],
];

/** Executions of the last 30 days: by status, latency (ms) and how many each user ran (empty bins left out). */
async function executionMetrics(ctx: AppContext) {
  await flushExecutions(ctx); // executions are written behind the queries, in batches
  const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const recent = (q: any) => q.where('started_at', '>', since);
  const failed = sql<boolean>`error is not null and error <> ''`;
  const [totals] = await recent(
    ctx.db
      .selectFrom('query_execution')
      .select([
        (eb) => eb.fn.countAll().as('executions'),
        sql<number>`sum(case when ${failed} then 1 else 0 end)`.as('failed'),
        ...LATENCY_BINS.map(([, low, high], i) =>
          (high === null ? sql<number>`sum(case when running_time >= ${low} then 1 else 0 end)` : sql<number>`sum(case when running_time >= ${low} and running_time <= ${high} then 1 else 0 end)`).as(`latency_${i}`),
        ),
      ]),
  ).execute();
  const executions = num(totals?.executions);
  const out = { executions, by_status: {} as Record<string, number>, num_per_user: {} as Record<string, number>, num_by_latency: {} as Record<string, number> };
  const failures = num(totals?.failed);
  if (executions - failures > 0) out.by_status.completed = executions - failures;
  if (failures > 0) out.by_status.failed = failures;
  LATENCY_BINS.forEach(([bin], i) => {
    const n = num((totals as Obj | undefined)?.[`latency_${i}`]);
    if (n > 0) out.num_by_latency[bin] = n;
  });
  for (const n of await groupCounts(ctx, 'query_execution', 'executor_id', recent)) {
    const bin = PER_USER_BINS.find(([, low, high]) => n >= low && (high === null || n <= high))![0];
    out.num_per_user[bin] = (out.num_per_user[bin] ?? 0) + 1;
  }
  return out;
}

async function libraryMetrics(ctx: AppContext) {
  const idsOfType = async (type: string): Promise<number[]> => {
    const root = await ctx.db.selectFrom('collection').select(['id', 'location']).where('type', '=', type).executeTakeFirst();
    if (!root) return [];
    const below = await ctx.db.selectFrom('collection').select('id').where('location', 'like', `${root.location}${root.id}/%`).execute();
    return [root.id, ...below.map((r) => r.id)];
  };
  const metricIds = await idsOfType('library-metrics');
  return {
    library_data: 0, // published tables are an Enterprise feature Quarry doesn't have
    library_metrics: metricIds.length ? await countOf(ctx, 'report_card', (q) => q.where('type', '=', 'metric').where('archived', '=', false).where('collection_id', 'in', metricIds)) : 0,
  };
}

function systemMetrics() {
  const locale = Intl.DateTimeFormat().resolvedOptions().locale;
  const [language, country] = locale.split('-');
  return {
    max_memory: Math.round(v8.getHeapStatistics().heap_size_limit / 1024 / 1024),
    processors: os.availableParallelism(),
    node_version: process.version,
    user_timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    user_language: language ?? null,
    user_country: country ?? null,
    file_encoding: 'UTF-8',
    os_name: os.type(),
    os_version: os.release(),
  };
}

// ----- the whole -------------------------------------------------------------------------------------------------

async function instanceSettings(ctx: AppContext) {
  const get = (key: string) => settingIfDefined(ctx, key);
  const env = ctx.config.env;
  const colors = (await get('application-colors')) as Obj | null;
  const colorKeys = Object.keys(colors ?? {});
  const uiColors = ['brand', 'filter', 'summarize'];
  const sdkOrigins = (await get('embedding-app-origins-sdk')) as string | null;
  return {
    version: METABASE_COMPATIBLE_VERSION.tag,
    running_on: isSet(env.RDS_HOSTNAME) ? 'elastic-beanstalk' : isSet(env.DATABASE_URL) ? 'heroku' : 'unknown',
    startup_time_millis: startupTimeMillis(ctx),
    application_database: ctx.dialect,
    check_for_updates: (await get('check-for-updates')) === true,
    report_timezone: await get('report-timezone'),
    friendly_names: (await get('humanization-strategy')) === 'advanced',
    email_configured: await emailConfigured(ctx),
    slack_configured: await slackConfigured(ctx),
    sso_configured: (await get('google-auth-enabled')) === true,
    instance_started: await get('instance-creation'),
    has_sample_data: (await countOf(ctx, 'metabase_database', (q) => q.where('is_sample', '=', true))) > 0,
    enable_embedding: (await get('enable-embedding')) === true,
    enable_embedding_sdk: (await get('enable-embedding-sdk')) === true,
    enable_embedding_simple: (await get('enable-embedding-simple')) === true,
    enable_embedding_interactive: (await get('enable-embedding-interactive')) === true,
    enable_embedding_static: (await get('enable-embedding-static')) === true,
    embedding_app_origin_set: isSet(await get('embedding-app-origin')),
    embedding_app_origin_sdk_set: isSet(sdkOrigins) && String(sdkOrigins).trim() !== 'localhost:*',
    embedding_app_origin_interactive_set: await get('embedding-app-origins-interactive'),
    appearance_site_name: (await get('site-name')) !== 'Metabase',
    appearance_help_link: await get('help-link'),
    appearance_logo: (await get('application-logo-url')) !== 'app/assets/img/logo.svg',
    appearance_favicon: (await get('application-favicon-url')) !== 'app/assets/img/favicon.ico',
    appearance_loading_message: (await get('loading-message')) !== 'doing-science',
    appearance_metabot_greeting: (await get('show-metabot')) === false,
    appearance_login_page_illustration: await get('login-page-illustration'),
    appearance_landing_page_illustration: await get('landing-page-illustration'),
    appearance_no_data_illustration: await get('no-data-illustration'),
    appearance_no_object_illustration: await get('no-object-illustration'),
    appearance_ui_colors: colorKeys.some((k) => uiColors.includes(k)),
    appearance_chart_colors: colorKeys.some((k) => !uiColors.includes(k)),
    appearance_show_mb_links: (await get('show-metabase-links')) === false,
  };
}

export async function anonymousStats(ctx: AppContext) {
  const [settings, cache, collection, dashboard, database, execution, field, question, table, user, pulse, alert, library] = await Promise.all([
    instanceSettings(ctx),
    usageSection(ctx, 'cache'),
    collectionMetrics(ctx),
    dashboardMetrics(ctx),
    databaseMetrics(ctx),
    executionMetrics(ctx),
    fieldMetrics(ctx),
    questionMetrics(ctx),
    tableMetrics(ctx),
    userMetrics(ctx),
    usageSection(ctx, 'pulse'),
    usageSection(ctx, 'alert'),
    libraryMetrics(ctx),
  ]);
  return {
    ...settings,
    uuid: await ctx.settings.get('site-uuid'),
    timestamp: new Date().toISOString(),
    stats: {
      cache,
      collection,
      dashboard,
      database,
      execution,
      field,
      group: { groups: await countOf(ctx, 'permissions_group') },
      metric: { metrics: await countOf(ctx, 'report_card', (q) => q.where('type', '=', 'metric').where('archived', '=', false)) },
      pulse,
      alert,
      question,
      segment: { segments: await countOf(ctx, 'segment') },
      system: systemMetrics(),
      table,
      user,
      // documents are a feature of Metabase 0.57+ Quarry doesn't have: there are none
      document: { documents: {} },
      library,
    },
  };
}
