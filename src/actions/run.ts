// Executing an action — from its own endpoint, a dashboard button or a public link — and prefilling its form.
// Whoever may read the action's model may run it (Metabase's rule: actions run like the model's saved query); a
// public link runs it with the link as its only authorization. The database must have actions enabled.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { notFound } from '../http/errors.js';
import { requireCard, type CardRow } from '../cards/store.js';
import { collectionAccess } from '../permissions/collections.js';
import type { DatabaseRow } from '../databases/database-row.js';
import { checkActionsEnabled } from './enabled.js';
import { executeQueryAction } from './execute-query.js';
import { executeImplicitAction, implicitRowValues } from './execute-implicit.js';
import { executeHttpAction } from './execute-http.js';
import type { ActionRow } from './store.js';

type Obj = Record<string, unknown>;

export interface ActionRun {
  action: ActionRow;
  model: CardRow;
  /** Where the action writes: a query action's database, else the model's. */
  database: DatabaseRow;
  /** Null for public links. */
  caller: Caller | null;
  /** The form's values, by parameter id (or slug). */
  values: Obj;
  signal?: AbortSignal;
}

async function prepareRun(ctx: AppContext, caller: Caller | null, action: ActionRow, values: Obj, signal?: AbortSignal): Promise<ActionRun> {
  const model = await requireCard(ctx, action.model_id).catch(() => {
    throw notFound();
  });
  if (caller) (await collectionAccess(ctx, caller)).checkRead(model.collection_id);
  const database = await checkActionsEnabled(ctx, action.type === 'query' ? action.database_id : model.database_id);
  return { action, model, database, caller, values, signal };
}

export async function executeAction(ctx: AppContext, caller: Caller | null, action: ActionRow, values: Obj, signal?: AbortSignal): Promise<unknown> {
  const run = await prepareRun(ctx, caller, action, values, signal);
  switch (action.type) {
    case 'query':
      return executeQueryAction(ctx, run);
    case 'implicit':
      return executeImplicitAction(ctx, run);
    default:
      return executeHttpAction(ctx, run);
  }
}

/** Values to prefill the action's form with: the row an implicit action targets; nothing for other types. */
export async function actionFormValues(ctx: AppContext, caller: Caller | null, action: ActionRow, values: Obj, signal?: AbortSignal): Promise<Obj> {
  const run = await prepareRun(ctx, caller, action, values, signal);
  return action.type === 'implicit' ? implicitRowValues(ctx, run) : {};
}
