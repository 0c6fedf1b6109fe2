// The data side of card permissions: saving a query as a card needs permission to run it. The rule lives in the
// query engine's authorize stage (src/permissions/query.ts, `checkQueryAllowed`), which data permissions tighten;
// this file is the one place cards ask it.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { forbidden } from '../http/errors.js';
import { bool, parseJson } from '../appdb/portable.js';
import { canRunQueries, type QueryAccessRequest } from '../permissions/query.js';
import type { SavedCard } from '../query/sources.js';
import { normalizeQuery, type DatasetQuery } from '../query/index.js';
import { legacyQuery, queryInfo, referencedCardIds, SAVED_QUESTIONS_DB_ID } from './query-info.js';
import type { CardRow } from './store.js';

function sourceIds(datasetQuery: Record<string, unknown>): number[] {
  const info = queryInfo(datasetQuery);
  return [...new Set([...(info.sourceCardId ? [info.sourceCardId] : []), ...referencedCardIds(datasetQuery)])];
}

/** Saved cards by id, in the query engine's shape (one query). */
async function savedCards(ctx: AppContext, ids: number[]): Promise<Map<number, SavedCard>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db.selectFrom('report_card').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        name: row.name,
        type: row.type,
        database_id: row.database_id,
        dataset_query: parseJson(row.dataset_query, {}),
        result_metadata: parseJson(row.result_metadata, null),
        collection_id: row.collection_id,
        archived: bool(row.archived),
        parameters: parseJson(row.parameters, []),
      },
    ]),
  );
}

/** What the permission check needs to know about running `datasetQuery` ad hoc; null when it reads no database. */
function accessRequest(datasetQuery: Record<string, unknown>, known: Map<number, SavedCard>): QueryAccessRequest | null {
  const cards = sourceIds(datasetQuery).map((id) => known.get(id)).filter((c): c is SavedCard => c !== undefined);
  let databaseId = queryInfo(datasetQuery).databaseId;
  if (databaseId === null || databaseId === SAVED_QUESTIONS_DB_ID) databaseId = cards[0]?.database_id ?? null;
  if (databaseId === null) return null;
  let query: DatasetQuery | undefined;
  try {
    query = normalizeQuery(datasetQuery);
  } catch {
    query = undefined; // the engine reports what is wrong with it; permissions judge what can be read
  }
  return { databaseId, native: (query?.type ?? datasetQuery.type) === 'native', cards, query };
}

async function allowed(ctx: AppContext, caller: Caller, queries: Record<string, unknown>[]): Promise<boolean[]> {
  // each query normalized once here, not again by every reader of it (query-info.ts)
  const legacy = queries.map(legacyQuery);
  const known = await savedCards(ctx, legacy.flatMap(sourceIds));
  const requests = legacy.map((q) => accessRequest(q, known));
  const checked = requests.filter((r): r is QueryAccessRequest => r !== null);
  const answers = await canRunQueries(ctx, caller, checked);
  let next = 0;
  return requests.map((r) => (r === null ? true : answers[next++]));
}

export async function canQuery(ctx: AppContext, caller: Caller, datasetQuery: Record<string, unknown>): Promise<boolean> {
  if (caller.isSuperuser) return true;
  return (await allowed(ctx, caller, [datasetQuery]))[0];
}

/** 403 unless the caller may run `datasetQuery` ad hoc (needed to save it as a card). */
export async function checkCanQuery(ctx: AppContext, caller: Caller, datasetQuery: Record<string, unknown>): Promise<void> {
  if (!(await canQuery(ctx, caller, datasetQuery))) throw forbidden();
}

/** `can_run_adhoc_query` of many cards, with their source cards loaded in one query. */
export async function canRunAdhocQueries(ctx: AppContext, caller: Caller, rows: CardRow[]): Promise<boolean[]> {
  if (caller.isSuperuser) return rows.map(() => true);
  return allowed(ctx, caller, rows.map((row) => parseJson<Record<string, unknown>>(row.dataset_query, {})));
}
