// The query pipeline, top to bottom (ARCHITECTURE §2). `prepareQuery` runs every stage before execution and
// returns a PreparedQuery: the SQL with its bound values, the planned result columns and the row limit. Running it
// and writing the results is ./run.ts. Each stage is one small module:
//
//   normalize   ./mbql/normalize.ts (+ ./mbql/pmbql.ts)   legacy spellings, MBQL 5 → one canonical MBQL 4 tree
//   validate    ./mbql/validate.ts                        structure, with messages naming the bad clause
//   resolve     ./resolve.ts                              card__N sources, models, metrics, segments, snippets, {{#N}}
//   authorize   ../permissions/query.ts                   the one data-permission check
//   persisted   ./persisted.ts                            persisted models read from their tables
//   parameters  ./parameters/apply.ts                     parameters → MBQL filters; template-tag values
//   expand      ./expand.ts                               auto-bucketing, implicit joins, metadata loading
//   compile     ./compile/stage.ts, ./native/compile.ts   MBQL → SQL via the engine's dialect; native tags
//   (limits)    below                                     2,000 / 10,000 / export limits
//   cache       ./cache-stage.ts (composed in ./run.ts)   saved-card runs: policy, stored results, in-flight sharing
//   execute     ./execute/run.ts                          queue, pooled connection, stream, cancel, timeout
//   annotate    ./results/annotate.ts                     cols, results_metadata
//   write       ./write/*.ts                              API JSON, CSV, JSON, XLSX — streamed

import { createHash } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { notFound } from '../http/errors.js';
import { findDriver } from '../drivers/registry.js';
import type { Driver } from '../drivers/driver.js';
import { loadDatabaseRow } from '../databases/connections.js';
import type { DatabaseRow } from '../databases/database-row.js';
import { checkQueryAllowed } from '../permissions/query.js';
import type { ColumnMetadata, Constraints, DatasetQuery, MbqlQuery, NativeSource, Parameter } from './mbql/types.js';
import { normalizeQuery, normalizeParameter } from './mbql/normalize.js';
import { validateQuery } from './mbql/validate.js';
import { walkClauses } from './mbql/clauses.js';
import { resolveQuery, type ResolvedQuery } from './resolve.js';
import { applyMbqlParameters, targetsTemplateTag } from './parameters/apply.js';
import { expandQuery, loadQueryMetadata } from './expand.js';
import { Metadata } from './metadata.js';
import { compileStage, type CompileOptions, type StageColumn } from './compile/stage.js';
import { renderSelect, type Select } from './compile/select.js';
import { render, type Sql } from './compile/sql.js';
import type { SqlDialect } from './compile/dialect.js';
import { makeClock } from './compile/temporal-values.js';
import { compileNative, type NativeCompileContext } from './native/compile.js';
import { dialectFor } from './dialects.js';
import { querySettings, downloadRowCap, ABSOLUTE_MAX_RESULTS, type QuerySettings } from './settings.js';
import { invalidQuery, QueryError } from './errors.js';
import { canonicalJson } from '../util/canonical-json.js';
import { planPersistedModels, persistedLookup, persistedSelect, wrapOwnRun, orderOverSource } from './persisted.js';

export type ExportFormat = 'api' | 'csv' | 'json' | 'xlsx';

/** What a caller asks the engine to run. See src/query/README.md. */
export interface QueryRequest {
  /** The dataset query as received: legacy MBQL, MBQL 5 or native. */
  query: unknown;
  /** Who runs it. Null only for public/embedded runs, whose module has already checked access. */
  caller: Caller | null;
  /** Metabase's execution context: 'ad-hoc', 'question', 'dashboard', 'public-question', 'csv-download', … */
  context: string;
  cardId?: number | null;
  dashboardId?: number | null;
  pulseId?: number | null;
  actionId?: number | null;
  /**
   * The `result_metadata` of the model being run (a card of type `model`: its own run, dashcard, export, public and
   * embed runs): the edits made to it — display names, descriptions, semantic types, settings… — are laid over the
   * result columns (`results/annotate.ts`, `applyModelMetadata`). Null or absent for anything else.
   */
  modelMetadata?: ColumnMetadata[] | null;
  /** Parameters to apply on top of the query's own `parameters`. */
  parameters?: unknown[];
  /**
   * The parameters' targets come from saved definitions (a dashcard's mappings), not from the caller: on a saved
   * card, filtering through them needs no more than running the card does.
   */
  savedParameterTargets?: boolean;
  /** undefined: the default API limits (2,000/10,000) or the query's own `constraints`; null: no API limits. */
  constraints?: Constraints | null;
  exportFormat?: ExportFormat;
  /** Format values like the UI (exports); API results always carry ISO temporal values. */
  formatRows?: boolean;
  /** Pivot-table results (the `pivot-grouping` rows); see ./pivot.ts. */
  pivot?: { rows?: number[]; cols?: number[] } | null;
  /** Cancels the query (the HTTP layer aborts it when the client disconnects). */
  signal?: AbortSignal;
  /** Public/embedded result: failures keep only a generic message. */
  publicResult?: boolean;
  /** Skip the permission check (public links and embeds, which check access their own way). */
  skipPermissionCheck?: boolean;
  /** Which kind of shared content runs the query (with `skipPermissionCheck`): the result cache reruns it as such. */
  sharing?: 'public' | 'embedded';
  /** The time the query is evaluated at (tests); default now. */
  now?: Date;
  /** Echo `middleware` in json_query as /api/dataset does. */
  addDefaultMiddleware?: boolean;
  /** Export file name without extension (card exports use the card's slug). */
  filename?: string;
  visualizationSettings?: Record<string, unknown> | null;
  /** Also render the SQL laid out on several lines (for /api/dataset/native). */
  pretty?: boolean;
  /**
   * A saved card's run that may be answered from the result cache, and shared with identical runs under way
   * (./cache-stage.ts): its cache policy decides. Absent: always run (ad-hoc queries, internal runs).
   * `ignoreCache` skips reading a stored result; the fresh one is still stored.
   */
  cache?: { ignoreCache?: boolean };
  /** Read persisted models from their tables (./persisted.ts); false when building those tables. Default true. */
  usePersistedModels?: boolean;
}

export interface PreparedQuery {
  request: QueryRequest;
  /** The query as submitted, normalized (echoed as `json_query`). */
  jsonQuery: Record<string, unknown>;
  /** After resolve/parameters/expand (internal). */
  query: DatasetQuery;
  database: DatabaseRow;
  driver: Driver;
  dialect: SqlDialect;
  native: boolean;
  sql: string;
  params: unknown[];
  /** The SQL fragment, for embedding (card tags) and re-rendering (pretty, inline). */
  fragment: Sql;
  /** The SELECT of an MBQL query (laid out again for `pretty` SQL); null for native queries. */
  select: Select | null;
  /** Planned result columns (MBQL); null for native queries, whose columns come from the driver. */
  columns: StageColumn[] | null;
  columnsKnown: boolean;
  hasAggregation: boolean;
  /** Rows returned at most (null: unlimited); `rows_truncated` is reported when reached. */
  maxRows: number | null;
  settings: QuerySettings;
  resultsTimezone: string;
  /** The session time zone the statement runs with (the report time zone, where the dialect wants it), or null. */
  sessionTimezone: string | null;
  hash: string;
  cardIds: number[];
  /** What the caller may download of the results (`full`, `limited` = 10,000 rows, `none`). */
  downloadPerms: 'full' | 'limited' | 'none';
  /** The caller's data access as far as it changes the answer (permissions/query.ts); `shared` for links and embeds. */
  accessContext: string;
}

/** An IANA zone name Intl understands, or null. */
const zoneValidity = new Map<string, boolean>();

/** The zone if the runtime knows it (checked once per zone: building a formatter costs more than the query's SQL). */
function validZone(zone: string | null | undefined): string | null {
  if (!zone) return null;
  let valid = zoneValidity.get(zone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      valid = true;
    } catch {
      valid = false;
    }
    zoneValidity.set(zone, valid);
  }
  return valid ? zone : null;
}


/** Metabase's query hash: the query without the keys that don't change its results. */
export function queryHash(query: DatasetQuery): string {
  const { constraints: _c, middleware: _m, info: _i, ...rest } = query;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

function jsonQueryOf(query: DatasetQuery, request: QueryRequest): Record<string, unknown> {
  const { info: _info, ...rest } = query;
  const out: Record<string, unknown> = { ...rest };
  if (!out.parameters || (Array.isArray(out.parameters) && out.parameters.length === 0)) delete out.parameters;
  if (request.addDefaultMiddleware) out.middleware = { 'js-int-to-string?': true, 'add-default-userland-constraints?': true, ...(query.middleware ?? {}) };
  return out;
}

/** The most rows this query may return (reference §4.5): API limits, or the download limits for exports. */
function rowLimit(request: QueryRequest, query: DatasetQuery, hasAggregation: boolean, settings: QuerySettings): number | null {
  if (query.middleware?.['disable-max-results?'] === true) return null;
  const format = request.exportFormat;
  if (format) return downloadRowCap(format, settings.downloadLimit);
  if (request.constraints === null) return ABSOLUTE_MAX_RESULTS;
  const c = request.constraints ?? query.constraints ?? {};
  const max = c['max-results'] ?? settings.aggregatedLimit;
  const bare = Math.min(c['max-results-bare-rows'] ?? settings.unaggregatedLimit, max);
  return hasAggregation ? max : bare;
}

/** The outermost stage's own row limit (`limit`, `page.items`). */
function ownLimit(query: MbqlQuery): number | null {
  const limits = [query.limit, query.page?.items].filter((x): x is number => typeof x === 'number');
  return limits.length ? Math.min(...limits) : null;
}

function nativeDimensionFieldIds(q: DatasetQuery, resolved: ResolvedQuery): number[] {
  const ids: number[] = [];
  const fromTags = (tags: Record<string, unknown> | undefined) => {
    walkClauses(Object.values(tags ?? {}).map((t) => (t as { dimension?: unknown }).dimension), (c) => {
      if (c[0] === 'field' && typeof c[1] === 'number') ids.push(c[1]);
    });
  };
  const visit = (dq: DatasetQuery) => {
    if (dq.type === 'native') fromTags(dq.native?.['template-tags']);
    if (dq.query) {
      const stack: unknown[] = [dq.query];
      while (stack.length) {
        const s = stack.pop() as MbqlQuery | NativeSource;
        if (!s || typeof s !== 'object') continue;
        if ('native' in s) fromTags((s as NativeSource)['template-tags']);
        else {
          stack.push((s as MbqlQuery)['source-query']);
          for (const j of (s as MbqlQuery).joins ?? []) stack.push(j['source-query']);
        }
      }
    }
  };
  visit(q);
  for (const cq of resolved.cardQueries.values()) visit(cq);
  return ids;
}

/** Compiles any resolved dataset query (the main one or a `{{#N}}` card's) to a SQL fragment. */
class Compiler {
  private readonly compiling = new Set<number>();
  /** Each card's SQL, compiled once however many times it is used (cards using cards twice would double). */
  private readonly compiled = new Map<number, Sql>();

  constructor(
    readonly options: NativeCompileContext,
    private readonly resolved: ResolvedQuery,
    private readonly parameters: Parameter[],
  ) {
    options.cardSql = (cardId) => this.cardSql(cardId);
    // A native query that became the source of an MBQL stage (a pin map's tile, a question wrapped to be filtered) keeps
    // the values of its template tags: parameters aimed at template tags mean nothing to the MBQL stages around it.
    const tagParameters = parameters.filter(targetsTemplateTag);
    options.nativeSource = (source) => compileNative({ query: source.native, 'template-tags': source['template-tags'] }, tagParameters, options);
  }

  mbql(query: MbqlQuery): { select: Select; columns: StageColumn[]; columnsKnown: boolean; hasAggregation: boolean } {
    return compileStage(query, this.options);
  }

  native(query: DatasetQuery): Sql {
    return compileNative(query.native!, this.parameters, this.options);
  }

  private cardSql(cardId: number): Sql {
    const done = this.compiled.get(cardId);
    if (done) return done;
    const q = this.resolved.cardQueries.get(cardId);
    if (!q) throw invalidQuery(`Card ${cardId} does not exist.`);
    if (this.compiling.has(cardId)) throw invalidQuery(`Card ${cardId} refers to itself.`);
    this.compiling.add(cardId);
    try {
      // a persisted model is read from its table (./persisted.ts)
      const persisted = this.options.persistedModel;
      let fragment: Sql;
      if (q.type === 'native') fragment = persisted?.(cardId, []) ?? compileNative(q.native!, [], this.options);
      else {
        const compiled = compileStage(q.query!, this.options);
        fragment = persisted?.(cardId, compiled.columns.map((c) => c.name)) ?? renderSelect(compiled.select, this.options.dialect);
      }
      this.compiled.set(cardId, fragment);
      return fragment;
    } finally {
      this.compiling.delete(cardId);
    }
  }
}

/** Runs every stage up to compilation. Errors: ApiError (HTTP 4xx before running) or QueryError (a failed result). */
export async function prepareQuery(ctx: AppContext, request: QueryRequest): Promise<PreparedQuery> {
  // normalize
  const normalized = normalizeQuery(request.query);
  const extra = (request.parameters ?? []).map(normalizeParameter);
  if (extra.length) normalized.parameters = [...(normalized.parameters ?? []), ...extra];
  // validate
  validateQuery(normalized);
  const jsonQuery = jsonQueryOf(normalized, request);
  // resolve
  const resolved = await resolveQuery(ctx, normalized);
  const database = await loadDatabaseRow(ctx, resolved.databaseId);
  if (!database) throw notFound();
  // authorize (a limited download comes back as a row cap)
  let accessRowCap: number | null = null;
  let downloadPerms: PreparedQuery['downloadPerms'] = 'full';
  let accessContext = 'shared';
  if (!request.skipPermissionCheck) {
    const grant = await checkQueryAllowed(ctx, request.caller, {
      databaseId: database.id,
      native: normalized.type === 'native',
      cards: [...resolved.cards.values()],
      query: resolved.query,
      cardId: request.cardId ?? null,
      savedParameterTargets: request.savedParameterTargets ?? false,
      exportFormat: request.exportFormat ?? null,
    });
    accessRowCap = grant.maxRows;
    downloadPerms = grant.downloadPerms;
    accessContext = grant.accessContext;
  }
  // persisted models (a model's own run becomes the source of a stage that takes its parameters)
  const persisted = await planPersistedModels(ctx, request, resolved, normalized);
  const ownRun = persisted.own;
  const base = ownRun && !ownRun.native ? wrapOwnRun(resolved.query, ownRun.cardId) : resolved.query;
  const driver = findDriver(database.engine);
  if (!driver) throw new QueryError('bad-configuration', `Quarry has no driver for the engine "${database.engine}".`);
  const dialect = dialectFor(database.engine, database.dbms_version);
  const settings = await querySettings(ctx);
  // parameters
  let query = applyMbqlParameters(base, base.parameters ?? [], settings.startOfWeek);
  // expand (with the metadata every stage needs)
  const metadata = new Metadata(ctx);
  if (query.type === 'query' && query.query) {
    query = { ...query, query: structuredClone(query.query) };
    await loadQueryMetadata(query.query!, metadata);
    expandQuery(query.query!, metadata);
  }
  for (const cq of resolved.cardQueries.values()) {
    if (cq.type === 'query' && cq.query) {
      await loadQueryMetadata(cq.query, metadata);
      expandQuery(cq.query, metadata);
    }
  }
  const dimensionIds = nativeDimensionFieldIds(query, resolved);
  if (dimensionIds.length) await metadata.loadFields(dimensionIds);
  // compile
  // One zone for everything temporal: "now", zoned columns seen locally, and how values are rendered — the report
  // time zone where the engine can use it, else the database's own zone.
  const reportTimezone = settings.reportTimezone && dialect.supports('set-timezone') ? settings.reportTimezone : null;
  const zone = reportTimezone ?? validZone(database.timezone) ?? 'UTC';
  const options: NativeCompileContext = {
    databaseId: database.id,
    dialect,
    metadata,
    clock: makeClock(request.now ?? new Date(), zone, settings.startOfWeek),
    startOfWeek: settings.startOfWeek,
    timezone: zone,
    binning: { binsNum: settings.binsNum, binWidth: settings.binWidth },
    nativeSource: () => {
      throw new Error('replaced by Compiler');
    },
    snippets: resolved.snippets,
    cardSql: () => {
      throw new Error('replaced by Compiler');
    },
    persistedModel: persistedLookup(persisted),
  };
  const compiler = new Compiler(options, resolved, query.parameters ?? []);
  let fragment: Sql;
  let select: Select | null = null;
  let columns: StageColumn[] | null = null;
  let columnsKnown = false;
  let hasAggregation = false;
  let maxRows: number | null;
  if (query.type === 'native') {
    fragment = ownRun ? persistedSelect(persisted.models.get(ownRun.cardId)!) : compiler.native(query);
    maxRows = rowLimit(request, query, false, settings);
  } else {
    // a persisted model's own run: its stage is the source; the answer keeps the stage's columns, order and limit
    const model = ownRun ? (query.query!['source-query'] as MbqlQuery) : null;
    const modelStage = model ? compiler.mbql(model) : null;
    if (model && modelStage) {
      const order = orderOverSource(model, modelStage.columns);
      if (!order) return prepareQuery(ctx, { ...request, usePersistedModels: false });
      query.query!['order-by'] = [...order, ...(query.query!['order-by'] ?? [])];
    }
    const compiled = compiler.mbql(query.query!);
    if (modelStage && compiled.select.from.kind !== 'native') return prepareQuery(ctx, { ...request, usePersistedModels: false });
    hasAggregation = (modelStage ?? compiled).hasAggregation;
    columns = (modelStage ?? compiled).columns;
    columnsKnown = (modelStage ?? compiled).columnsKnown;
    maxRows = rowLimit(request, query, hasAggregation, settings);
    // The limit goes into the SQL, except Excel's absolute cap on aggregated queries (Metabase writes that LIMIT
    // only for unaggregated ones); reading stops at maxRows either way.
    const sqlLimit = hasAggregation && maxRows === ABSOLUTE_MAX_RESULTS ? null : maxRows;
    if (sqlLimit !== null) {
      compiled.select.limit = compiled.select.limit === null ? sqlLimit : Math.min(compiled.select.limit, sqlLimit);
    }
    const own = ownLimit(model ?? query.query!);
    if (own !== null) maxRows = maxRows === null ? own : Math.min(maxRows, own);
    fragment = renderSelect(compiled.select, dialect, { pretty: false, indent: '' });
    select = compiled.select;
  }
  if (accessRowCap !== null) maxRows = maxRows === null ? accessRowCap : Math.min(maxRows, accessRowCap);
  const rendered = render(fragment, dialect);
  if (dialect.maxBoundParameters !== null && rendered.params.length > dialect.maxBoundParameters) {
    throw invalidQuery(`This query has ${rendered.params.length} values to bind, more than the ${dialect.maxBoundParameters} a ${database.engine} statement accepts; use fewer values.`);
  }
  return {
    request,
    jsonQuery,
    query,
    database,
    driver,
    dialect,
    native: query.type === 'native',
    sql: rendered.sql,
    params: rendered.params,
    fragment,
    select,
    columns,
    columnsKnown,
    hasAggregation,
    maxRows,
    settings,
    resultsTimezone: zone,
    sessionTimezone:
      reportTimezone && (dialect.sessionTimezone === 'all' || (dialect.sessionTimezone === 'native' && query.type === 'native')) ? reportTimezone : null,
    hash: queryHash(normalized),
    cardIds: [...resolved.cards.keys()],
    downloadPerms,
    accessContext,
  };
}

/** The query's SQL for people to read: values inlined as escaped literals, optionally laid out (`pretty`). */
export function displaySql(prepared: PreparedQuery, pretty: boolean): string {
  const fragment = prepared.select && pretty ? renderSelect(prepared.select, prepared.dialect, { pretty: true, indent: '' }) : prepared.fragment;
  return render(fragment, prepared.dialect, { inline: true }).sql;
}
