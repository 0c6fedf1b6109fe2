// Running a query action: the form's values fill the SQL's template tags (always as bound parameters, through the
// query engine's native compiler), and the statement runs in a transaction through the database's queue.
// Answer: `{"rows-affected": N}`.

import type { AppContext } from '../context.js';
import { ApiError, forbidden, messageError } from '../http/errors.js';
import { prepareQuery, recordQueryExecution, QueryError, type PreparedQuery, type QueryRequest } from '../query/index.js';
import { datasetQueryOf, parametersOf } from './store.js';
import { inWriteTransaction } from './write-failures.js';
import type { ActionRun } from './run.js';

type Obj = Record<string, unknown>;

/** A list of names as Metabase's messages print a Clojure set: `#{"a" "b"}`. */
export const clojureSet = (ids: string[]) => `#{${ids.map((id) => JSON.stringify(id)).join(' ')}}`;

/** The action's declared parameters with the values sent for them (by parameter id or slug). */
export function boundParameters(declared: Obj[], values: Obj): Obj[] {
  const byKey = new Map<string, Obj>();
  for (const p of declared) {
    if (typeof p.id === 'string') byKey.set(p.id, p);
    if (typeof p.slug === 'string' && !byKey.has(p.slug)) byKey.set(p.slug, p);
  }
  const bound = new Map<Obj, unknown>();
  for (const [key, value] of Object.entries(values)) {
    const parameter = byKey.get(key);
    if (!parameter) {
      throw messageError(400, `No destination parameter found for id ${JSON.stringify(key)}. Found: ${clojureSet(declared.map((p) => String(p.id)))}`, { parameters: values });
    }
    if (value !== null && value !== undefined) bound.set(parameter, value);
  }
  return [...bound].map(([parameter, value]) => ({ ...parameter, value }));
}

export async function executeQueryAction(ctx: AppContext, run: ActionRun): Promise<{ 'rows-affected': number }> {
  const { action, model, database, caller } = run;
  const request: QueryRequest = {
    query: { ...datasetQueryOf(action), database: database.id },
    caller,
    context: 'action',
    cardId: model.id,
    actionId: action.id,
    parameters: boundParameters(parametersOf(action), run.values),
    constraints: null,
    // A public action's link is its authorization; anyone else runs it as they would run its model.
    skipPermissionCheck: caller === null,
    signal: run.signal,
  };
  const started = new Date();
  const t0 = performance.now();
  let prepared: PreparedQuery | null = null;
  try {
    prepared = await prepareQuery(ctx, request);
    const { sql, params } = prepared;
    const { rowsAffected } = await inWriteTransaction(ctx, run, 'query', (session) => session.run(sql, params));
    recordQueryExecution(ctx, request, prepared, started, t0, { status: 'completed', rowCount: rowsAffected, error: null });
    return { 'rows-affected': rowsAffected };
  } catch (error) {
    const failure =
      error instanceof QueryError
        ? error.type === 'missing-required-permissions'
          ? forbidden()
          : messageError(400, error.message, { errors: {} })
        : error;
    recordQueryExecution(ctx, request, prepared, started, t0, { status: 'failed', rowCount: 0, error: failure instanceof Error ? failure.message : String(failure) });
    if (failure instanceof ApiError) throw failure;
    throw messageError(400, failure instanceof Error ? failure.message : String(failure), { errors: {} });
  }
}
