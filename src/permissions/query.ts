// The data-permission check of the query pipeline (its "authorize" stage): may this caller run this query?
// It is the single place the data-permissions issue extends (view-data, create-queries, native access per group,
// database, schema and table, and collection read access on the saved questions a query uses).
//
// Today it enforces what exists: an authenticated caller, an existing database (checked by the pipeline before this
// is called), and read access to the collections of the saved cards the query reads. On a fresh Metabase every
// group has unrestricted data access, so no data rule is checked yet.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { unauthenticated } from '../http/errors.js';
import type { SavedCard } from '../query/sources.js';
import { checkCardsReadable } from './collections.js';

export interface QueryAccessRequest {
  databaseId: number;
  /** Whether the query is native SQL (native access is a separate permission). */
  native: boolean;
  /** Saved questions/models/metrics the query reads (their collections need read access). */
  cards: SavedCard[];
}

/** Throws an ApiError (401/403) when the caller may not run the query. */
export async function checkQueryAllowed(ctx: AppContext, caller: Caller | null, request: QueryAccessRequest): Promise<void> {
  if (!caller) throw unauthenticated();
  if (caller.isSuperuser) return;
  // Saved questions, models and metrics the query reads: their collections must be readable.
  await checkCardsReadable(ctx, caller, request.cards);
  // Data permissions (view-data / create-queries / native per database, schema, table) go here.
}
