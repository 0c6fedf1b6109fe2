// /api/dataset (spec §4.13): ad-hoc queries, downloads, MBQL → SQL, query metadata, parameter values, pivot.
// Thin: each route reads its input and calls the query engine (src/query).

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import type { Routes } from '../http/route.js';
import { s, parseJsonParam, readJson, throwTooDeep } from '../http/schema.js';
import { ApiError, badRequest } from '../http/errors.js';
import { runQuery, compileToNative, QueryError, averageRunningTimeOfHash, queryHash, normalizeQuery } from '../query/index.js';
import { runPivotQuery } from '../query/pivot.js';
import { queryMetadata } from '../query/query-metadata.js';
import { parameterValues } from '../query/parameter-values.js';
import { applyDatabaseAccess, checkFieldsVisible } from '../databases/access.js';
import { DATASET, DATASET_QUERY } from '../openapi/shapes.js';

const EXPORT_FORMATS = ['csv', 'json', 'xlsx', 'api'] as const;
type Format = (typeof EXPORT_FORMATS)[number];

const valuesBody = { parameter: s.map(), field_ids: s.maybe(s.array(s.posInt())) };

/** A parameter's values (`search`: those matching it); the fields it is wired to must be visible to the caller. */
async function wiredParameterValues(ctx: AppContext, caller: Caller, body: { parameter: Record<string, unknown>; field_ids: number[] | null }, search: string | null) {
  if (body.field_ids?.length) await checkFieldsVisible(ctx, caller, body.field_ids);
  return parameterValues(ctx, caller, body.parameter, body.field_ids ?? [], search);
}

/** The dataset query of a body, checked the way Metabase checks it before running anything. */
function datasetQuery(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('`database` is required for all queries whose type is not `internal`.');
  const q = body as Record<string, unknown>;
  const type = typeof q.type === 'string' ? q.type.toLowerCase() : q['lib/type'] ? 'query' : null;
  if (type !== 'internal' && (q.database === undefined || q.database === null)) {
    throw badRequest('`database` is required for all queries whose type is not `internal`.');
  }
  return q;
}

/** `query` of a download: a JSON string (form posts) or an object (JSON bodies, 0.53+). */
function exportQuery(value: unknown): Record<string, unknown> {
  const invalid = () => new ApiError(400, { errors: { query: 'value must be a valid JSON string.' }, 'specific-errors': { query: ['value must be a valid JSON string.'] } });
  const v = typeof value === 'string' ? parseJsonParam('query', value, invalid) : value;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalid();
  return datasetQuery(v);
}

function boolish(v: unknown, fallback: boolean): boolean {
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v === 'boolean') return v;
  return String(v).toLowerCase() === 'true';
}

/** A form field that may hold JSON (malformed JSON is ignored, as Metabase ignores it). */
function jsonish(name: string, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const read = readJson(v);
  if ('value' in read) return read.value;
  if (read.problem === 'too-deep') throwTooDeep([name], v);
  return undefined;
}

export function datasetRoutes(r: Routes) {
  r.post('/api/dataset', { doc: { summary: 'Run a query', body: DATASET_QUERY, responses: { 202: DATASET } } }, ({ ctx, caller, body, reply }) =>
    runQuery(ctx, reply, { query: datasetQuery(body), caller, context: 'ad-hoc', addDefaultMiddleware: true }),
  );

  r.post('/api/dataset/native', {}, async ({ ctx, caller, body }) => {
    const q = datasetQuery(body);
    const { pretty, ...query } = q;
    try {
      return await compileToNative(ctx, { query, caller, context: 'ad-hoc', pretty: pretty === undefined ? true : boolish(pretty, true) });
    } catch (error) {
      if (error instanceof QueryError) throw new ApiError(400, { message: error.message, error_type: error.type });
      throw error;
    }
  });

  // Old endpoint: how long this query took on average ({"average": ms}, null when it never ran).
  r.post('/api/dataset/duration', {}, async ({ ctx, body }) => {
    let hash: string;
    try {
      hash = queryHash(normalizeQuery(datasetQuery(body)));
    } catch (error) {
      if (error instanceof QueryError) throw new ApiError(400, { message: error.message });
      throw error;
    }
    return { average: await averageRunningTimeOfHash(ctx, hash) };
  });

  r.post('/api/dataset/pivot', {}, ({ ctx, caller, body, reply }) => {
    const q = datasetQuery(body);
    // snake_case or kebab-case; the engine checks the indexes (an out-of-range one fails the query).
    const { pivot_rows, pivot_cols, 'pivot-rows': pivotRows, 'pivot-cols': pivotCols, ...query } = q;
    const pivot = { rows: (pivot_rows ?? pivotRows) as number[] | undefined, cols: (pivot_cols ?? pivotCols) as number[] | undefined };
    return runPivotQuery(ctx, reply, { query, caller, context: 'ad-hoc', addDefaultMiddleware: true, pivot });
  });

  r.post('/api/dataset/query_metadata', {}, async ({ ctx, caller, body }) => applyDatabaseAccess(ctx, caller, await queryMetadata(ctx, caller, datasetQuery(body))));

  // Values of fields being wired to a parameter, all or those matching a search text (in the path or as `?query=`:
  // the spec allows both forms).
  r.post('/api/dataset/parameter/values', { body: valuesBody }, ({ ctx, caller, body }) => wiredParameterValues(ctx, caller, body, null));
  r.post('/api/dataset/parameter/search/:query', { params: { query: s.nbstr() }, body: valuesBody }, ({ ctx, caller, params, body }) =>
    wiredParameterValues(ctx, caller, body, params.query),
  );
  r.post('/api/dataset/parameter/search', { query: { query: s.nbstr() }, body: valuesBody }, ({ ctx, caller, query, body }) =>
    wiredParameterValues(ctx, caller, body, query.query),
  );

  r.post('/api/dataset/:export-format', { params: { 'export-format': s.str() } }, ({ ctx, caller, params, body, reply }) => {
    const format = params['export-format'] as Format;
    if (!EXPORT_FORMATS.includes(format)) throw new ApiError(404, 'API endpoint does not exist.');
    const b = (body ?? {}) as Record<string, unknown>;
    if (b.query === undefined) {
      throw new ApiError(400, { errors: { query: 'value must be a valid JSON string.' }, 'specific-errors': { query: ['missing required key'] } });
    }
    const query = exportQuery(b.query);
    const viz = jsonish('visualization_settings', b.visualization_settings);
    const pivot = boolish(b.pivot_results, false);
    const request = {
      query,
      caller,
      context: format === 'api' ? 'api-download' : `${format}-download`,
      exportFormat: format,
      formatRows: boolish(b.format_rows, false),
      visualizationSettings: viz && typeof viz === 'object' ? (viz as Record<string, unknown>) : null,
    };
    if (pivot && query.type === 'query') return runPivotQuery(ctx, reply, { ...request, pivot: {} });
    return runQuery(ctx, reply, request);
  });
}
