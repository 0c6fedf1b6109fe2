// The data side of card permissions: saving or running a card needs query permission on the data it reads. The rule
// itself lives with data permissions (src/permissions/query.ts); this file is the one place cards ask it.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { forbidden } from '../http/errors.js';
import { parseJson } from '../appdb/portable.js';
import type { CardRow } from './store.js';

type QueryAuthorizer = (ctx: AppContext, caller: Caller, datasetQuery: Record<string, unknown>) => Promise<boolean>;

let authorizer: QueryAuthorizer = async () => true;

/** Data permissions plug their rule in here (default: everyone may query, Metabase's fresh-install state). */
export function setQueryAuthorizer(fn: QueryAuthorizer): void {
  authorizer = fn;
}

export async function canQuery(ctx: AppContext, caller: Caller, datasetQuery: Record<string, unknown>): Promise<boolean> {
  if (caller.isSuperuser) return true;
  return authorizer(ctx, caller, datasetQuery);
}

/** 403 unless the caller may run `datasetQuery` ad hoc (needed to save it as a card). */
export async function checkCanQuery(ctx: AppContext, caller: Caller, datasetQuery: Record<string, unknown>): Promise<void> {
  if (!(await canQuery(ctx, caller, datasetQuery))) throw forbidden();
}

export async function canRunAdhocQuery(ctx: AppContext, caller: Caller, row: CardRow): Promise<boolean> {
  return canQuery(ctx, caller, parseJson<Record<string, unknown>>(row.dataset_query, {}));
}
