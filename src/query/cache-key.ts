// The result cache's key: everything that can change what a run returns, hashed. It is computed from the prepared
// query — after parameters, permissions and compilation — so it covers:
//   - the database (and its connection details: a database pointed elsewhere answers differently);
//   - the compiled SQL and its bound values (parameters, dates resolved from "now", locked embedding parameters,
//     and whatever the permission rules add to the query);
//   - the caller's data access as far as it changes the answer (row caps of limited downloads, download level,
//     view-data short of unrestricted: `PreparedQuery.accessContext`; "shared" for public links and embeds);
//   - what the result is made of besides rows: planned columns with their field metadata, a model's metadata edits,
//     row limit, time zones, query settings;
//   - the output: API JSON or a download's format, value formatting and visualization settings;
//   - the card and the dashboard it is run from: each entry belongs to one card on one dashboard (or on its own), so
//     invalidating, refreshing and the policy an entry was stored under stay about that card, never about another
//     card that happens to ask the same query.
// Who asked and why (json_query, context, timing) is not part of it: that is taken
// from the request being answered.

import { createHash } from 'node:crypto';
import type { PreparedQuery } from './pipeline.js';
import type { StageColumn } from './compile/stage.js';
import { canonicalJson } from '../util/canonical-json.js';

/** What the writer receiving the result does with values. */
export interface OutputShape {
  format: string;
  valueMode: string;
  /** results_metadata and insights are computed (API results) or not (downloads). */
  withMetadata: boolean;
}


/**
 * What sync recomputes on its own schedule (fingerprints, whether a field keeps a list of values) stays out of the
 * key — a re-analysis would otherwise throw away every cached result of the database; the replay takes those two
 * from the current metadata instead (`volatileColumnKeys`).
 */
function stableColumn(column: StageColumn): unknown {
  if (!column.field) return column;
  const { fingerprint: _f, has_field_values: _h, ...field } = column.field;
  return { ...column, field };
}

/** The per-column metadata sync keeps current, as a fresh run would report it (null: the column has no field). */
export function volatileColumnKeys(prepared: PreparedQuery): Array<{ fingerprint: unknown; has_field_values: unknown } | null> {
  return (prepared.columns ?? []).map((c) => (c.field ? { fingerprint: c.field.fingerprint, has_field_values: c.field.has_field_values } : null));
}

export function resultCacheKey(prepared: PreparedQuery, output: OutputShape): string {
  const request = prepared.request;
  const download = request.exportFormat && request.exportFormat !== 'api';
  const material = {
    v: 1,
    card: request.cardId ?? null,
    dashboard: request.dashboardId ?? null,
    database: {
      id: prepared.database.id,
      engine: prepared.database.engine,
      version: prepared.database.dbms_version,
      details: createHash('sha256').update(String(prepared.database.details ?? '')).digest('hex'),
    },
    sql: prepared.sql,
    params: prepared.params,
    native: prepared.native,
    maxRows: prepared.maxRows,
    columns: prepared.columns?.map(stableColumn) ?? null,
    columnsKnown: prepared.columnsKnown,
    model: request.modelMetadata ?? null,
    sessionTimezone: prepared.sessionTimezone,
    resultsTimezone: prepared.resultsTimezone,
    settings: prepared.settings,
    access: prepared.accessContext,
    downloadPerms: prepared.downloadPerms,
    output: {
      ...output,
      formatRows: download ? Boolean(request.formatRows) : false,
      viz: download ? (request.visualizationSettings ?? null) : null,
    },
  };
  return createHash('sha256').update(canonicalJson(material)).digest('hex');
}
