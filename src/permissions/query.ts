// The data-permission check of the query pipeline (its "authorize" stage): may this caller run this query, and how
// many rows may a download of it have?
//
//   - Saved questions, models and metrics the query reads need read access to their collections.
//   - A saved card's own query (`cardId` set: the card module checked the card's collection) runs for anyone who can
//     read the card, as in Metabase, whatever the collections of the saved questions it is built on — unless
//     view-data is blocked on a table it reads (or anywhere in the database, for native SQL). Parameters that filter
//     on tables outside the card's own need query access there, unless a saved dashcard mapping wired them.
//   - An ad-hoc query needs the query builder on every table its own stages read (joins and implicit joins
//     included) and native access to the whole database for SQL; parts that come from saved questions need only
//     their collections (and no blocked table).
//   - Downloads: full, limited (10,000 rows) or none, the lowest over the tables read (native: the database).
//
// A database the caller can't see at all is a 403 for an ad-hoc query (as Metabase's read check on /api/dataset);
// finer refusals are failed results (`missing-required-permissions`), as Metabase's query processor answers.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError, forbidden, unauthenticated } from '../http/errors.js';
import type { SavedCard } from '../query/sources.js';
import type { DatasetQuery } from '../query/mbql/types.js';
import { QueryError } from '../query/errors.js';
import { checkCardsReadable, collectionAccess } from './collections.js';
import { dataAccess, lowestDownload, type DataAccess, type DownloadLevel } from './data-access.js';
import type { TableRef } from './data-store.js';
import { LIMITED_DOWNLOAD_ROWS } from './data-values.js';
import { queryReads, type QueryReads } from './query-tables.js';

export interface QueryAccessRequest {
  databaseId: number;
  /** Whether the query is native SQL (native access is a separate permission). */
  native: boolean;
  /** Saved questions/models/metrics the query reads (their collections need read access). */
  cards: SavedCard[];
  /** The resolved query (saved-question parts marked with `source-card-id`): which tables it reads. */
  query?: DatasetQuery;
  /** The saved card whose own query this is (its collection was checked by whoever runs it). */
  cardId?: number | null;
  /** The parameters' targets come from saved definitions (dashcard mappings), not from the caller. */
  savedParameterTargets?: boolean;
  /** A download (`csv`, `json`, `xlsx`, `api`): download permissions apply. */
  exportFormat?: string | null;
}

export interface QueryGrant {
  /** At most this many rows (a `limited` download), or null. */
  maxRows: number | null;
  /** What the caller may download of these results (reported as `data.download_perms`). */
  downloadPerms: DownloadLevel;
  /**
   * Everything about the caller's data access that can change this query's answer, as a stable string: the row cap,
   * the download level and the view-data value of each table read that isn't unrestricted. Callers who may see the
   * same data get the same string (admins and unrestricted users alike); the result cache keys results by it.
   */
  accessContext: string;
}

export const NO_QUERY_PERMISSION = 'You do not have permissions to run this query.';
export const NO_DOWNLOAD_PERMISSION = 'You do not have permissions to download the results of this query.';

const refuse = () => new QueryError('missing-required-permissions', NO_QUERY_PERMISSION);

interface Loaded {
  tables: Map<number, TableRef>;
  fieldTables: Map<number, number>;
}

/** The tables queries read, and the tables of the fields they reach through implicit joins and parameters. */
async function loadTables(ctx: AppContext, all: QueryReads[]): Promise<Loaded> {
  const fieldIds = [...new Set(all.flatMap((reads) => [...reads.allImplicitFields, ...reads.parameterFields, ...reads.namedFields]))];
  const fieldTables = new Map<number, number>();
  if (fieldIds.length) {
    for (const f of await ctx.db.selectFrom('metabase_field').select(['id', 'table_id']).where('id', 'in', fieldIds).execute()) fieldTables.set(f.id, f.table_id);
  }
  const tableIds = [...new Set([...all.flatMap((reads) => [...reads.allTables]), ...fieldTables.values()])];
  const tables = new Map<number, TableRef>();
  if (tableIds.length) {
    for (const t of await ctx.db.selectFrom('metabase_table').select(['id', 'db_id', 'schema']).where('id', 'in', tableIds).execute()) tables.set(t.id, t);
  }
  return { tables, fieldTables };
}

function tablesOf(ids: Iterable<number>, tables: Map<number, TableRef>): TableRef[] {
  return [...ids].map((id) => tables.get(id)).filter((t): t is TableRef => t !== undefined);
}

function checkSavedCardRun(access: DataAccess, request: QueryAccessRequest, reads: QueryReads, tables: Map<number, TableRef>, fieldTables: Map<number, number>): void {
  const databaseId = request.databaseId;
  if (!access.canViewDatabase(databaseId)) throw refuse();
  const read = tableIdsRead(reads, fieldTables);
  for (const table of tablesOf(read, tables)) if (access.isBlocked(table)) throw refuse();
  if (reads.anyNative && access.blockedSomewhere(databaseId)) throw refuse();
  for (const field of reads.parameterFields) {
    const tableId = fieldTables.get(field);
    const table = tableId === undefined ? undefined : tables.get(tableId);
    if (!table || read.has(table.id)) continue;
    // Filters wired by whoever saved the dashboard are part of what it shows (only blocked data stays out);
    // targets the caller picked need query access, or filtering would reveal tables they can't query.
    if (request.savedParameterTargets ? access.isBlocked(table) : !access.canQueryTable(table)) throw refuse();
  }
}

function checkAdHoc(access: DataAccess, request: QueryAccessRequest, reads: QueryReads, tables: Map<number, TableRef>, fieldTables: Map<number, number>): void {
  const databaseId = request.databaseId;
  const own = new Set([...reads.tables, ...[...reads.implicitFields, ...reads.parameterFields].map((f) => fieldTables.get(f)).filter((t): t is number => t !== undefined)]);
  const onlySavedQuestions = own.size === 0 && !reads.native && request.cards.length > 0;
  if (onlySavedQuestions ? !access.canViewDatabase(databaseId) : !access.canSeeDatabase(databaseId)) throw forbidden();
  if (reads.native && !access.canNative(databaseId)) throw refuse();
  for (const table of tablesOf(own, tables)) if (!access.canQueryTable(table)) throw refuse();
  // a field named from a table the query doesn't read (and the caller can't query): refused here, before an error
  // message could describe it; columns of saved questions the query is built on are theirs to name
  for (const field of reads.namedFields) {
    const table = tables.get(fieldTables.get(field) ?? -1);
    if (table && !reads.allTables.has(table.id) && !access.canQueryTable(table)) throw refuse();
  }
  // what saved questions read: no blocked table
  const inherited = new Set([...reads.allTables, ...[...reads.allImplicitFields].map((f) => fieldTables.get(f)).filter((t): t is number => t !== undefined)]);
  for (const table of tablesOf(inherited, tables)) if (access.isBlocked(table)) throw refuse();
  if (reads.anyNative && !reads.native && access.blockedSomewhere(databaseId)) throw refuse();
}

/** Every table a query reads: its own and its saved questions' (implicit joins included). */
function tableIdsRead(reads: QueryReads, fieldTables: Map<number, number>): Set<number> {
  return new Set([...reads.allTables, ...[...reads.allImplicitFields].map((f) => fieldTables.get(f)).filter((t): t is number => t !== undefined)]);
}

function downloadLevel(access: DataAccess, databaseId: number, reads: QueryReads, tables: Map<number, TableRef>, fieldTables: Map<number, number>): DownloadLevel {
  let level: DownloadLevel = 'full';
  const read = tableIdsRead(reads, fieldTables);
  for (const table of tablesOf(read, tables)) level = lowestDownload(level, access.download(table));
  if (reads.anyNative || read.size === 0) level = lowestDownload(level, access.nativeDownload(databaseId));
  return level;
}

/** The grant's `accessContext` (see QueryGrant). */
export function accessContextOf(maxRows: number | null, downloadPerms: DownloadLevel, restrictedViews: Array<[number, string]>): string {
  return JSON.stringify({ rows: maxRows, download: downloadPerms, view: [...restrictedViews].sort((a, b) => a[0] - b[0]) });
}

/** View-data values short of unrestricted on the tables read (native SQL: anywhere in the database). */
function restrictedViews(access: DataAccess, request: QueryAccessRequest, reads: QueryReads, tables: Map<number, TableRef>, fieldTables: Map<number, number>): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  for (const table of tablesOf(tableIdsRead(reads, fieldTables), tables)) {
    const value = access.tableValue('view-data', table);
    if (value !== 'unrestricted') out.push([table.id, value]);
  }
  if (reads.anyNative) {
    const value = access.databaseValue('view-data', request.databaseId, 'min');
    if (value !== 'unrestricted') out.push([-request.databaseId, value ?? 'none']);
  }
  return out;
}

function readsOf(request: QueryAccessRequest): QueryReads {
  return request.query
    ? queryReads(request.query)
    : { tables: new Set(), implicitFields: new Set(), native: request.native, allTables: new Set(), allImplicitFields: new Set(), anyNative: request.native, parameterFields: new Set(), namedFields: new Set() };
}

/** The data side of the check, once everything is loaded. */
function evaluate(access: DataAccess, request: QueryAccessRequest, reads: QueryReads, loaded: Loaded): QueryGrant {
  const { tables, fieldTables } = loaded;
  if (request.cardId !== undefined && request.cardId !== null) checkSavedCardRun(access, request, reads, tables, fieldTables);
  else checkAdHoc(access, request, reads, tables, fieldTables);
  const level = downloadLevel(access, request.databaseId, reads, tables, fieldTables);
  const views = restrictedViews(access, request, reads, tables, fieldTables);
  if (!request.exportFormat) return { maxRows: null, downloadPerms: level, accessContext: accessContextOf(null, level, views) };
  if (level === 'none') throw forbidden(NO_DOWNLOAD_PERMISSION);
  const maxRows = level === 'limited' ? LIMITED_DOWNLOAD_ROWS : null;
  return { maxRows, downloadPerms: level, accessContext: accessContextOf(maxRows, level, views) };
}

/**
 * Throws when the caller may not run the query: an ApiError (401; 403 for a database they can't see) or a failed
 * result (`missing-required-permissions`). Returns the row cap of a limited download.
 */
export async function checkQueryAllowed(ctx: AppContext, caller: Caller | null, request: QueryAccessRequest): Promise<QueryGrant> {
  if (!caller) throw unauthenticated();
  if (caller.isSuperuser) return { maxRows: null, downloadPerms: 'full', accessContext: accessContextOf(null, 'full', []) };
  // Saved questions, models and metrics an ad-hoc query reads: their collections must be readable. A saved card's
  // own query runs for whoever may read the card, whatever its sources' collections (as in Metabase).
  if (request.cardId === undefined || request.cardId === null) await checkCardsReadable(ctx, caller, request.cards);
  const reads = readsOf(request);
  const [access, loaded] = await Promise.all([dataAccess(ctx, caller), loadTables(ctx, [reads])]);
  return evaluate(access, request, reads, loaded);
}

/** Whether the caller may run each of these queries ad hoc (card lists' `can_run_adhoc_query`), in a few queries. */
export async function canRunQueries(ctx: AppContext, caller: Caller, requests: QueryAccessRequest[]): Promise<boolean[]> {
  if (caller.isSuperuser) return requests.map(() => true);
  const all = requests.map(readsOf);
  const [access, collections, loaded] = await Promise.all([dataAccess(ctx, caller), collectionAccess(ctx, caller), loadTables(ctx, all)]);
  return requests.map((request, i) => {
    if (!request.cards.every((card) => collections.canRead(card.collection_id))) return false;
    try {
      evaluate(access, request, all[i], loaded);
      return true;
    } catch (error) {
      if (error instanceof ApiError || (error instanceof QueryError && error.type === 'missing-required-permissions')) return false;
      throw error;
    }
  });
}
