// Executing an action — from its own endpoint, a dashboard button or a public link — and prefilling its form.
// Whoever may read the action's model may run it (Metabase's rule: actions run like the model's saved query); a
// public link runs it with the link as its only authorization. The database must have actions enabled.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, forbidden } from '../http/errors.js';
import { parseJson } from '../appdb/portable.js';
import { dataAccess } from '../permissions/data-access.js';
import { plainTableOf } from './model-table.js';
import { requireCard, type CardRow } from '../cards/store.js';
import { readableCard } from '../cards/cards.js';
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
  const model = caller ? await readableCard(ctx, await collectionAccess(ctx, caller), action.model_id) : await requireCard(ctx, action.model_id);
  // An implicit action reads and writes the model's table: as running the model, its data must not be blocked (a
  // query action's SQL gets the same check from the query engine).
  if (caller && action.type === 'implicit') await checkModelDataViewable(ctx, caller, model);
  const database = await checkActionsEnabled(ctx, action.type === 'query' ? action.database_id : model.database_id);
  return { action, model, database, caller, values, signal };
}

async function checkModelDataViewable(ctx: AppContext, caller: Caller, model: CardRow): Promise<void> {
  if (caller.isSuperuser) return;
  const tableId = plainTableOf(model);
  const table = tableId === null ? undefined : await ctx.db.selectFrom('metabase_table').select(['id', 'db_id', 'schema']).where('id', '=', tableId).executeTakeFirst();
  const access = await dataAccess(ctx, caller);
  if (!table || !access.canViewDatabase(table.db_id) || access.isBlocked(table)) throw forbidden();
}

interface FormField {
  hidden: boolean;
  defaultValue: unknown;
}

/** The form's settings per parameter (`visualization_settings.fields`): hidden fields and their default values. */
function formFieldsOf(action: ActionRow): Map<string, FormField> {
  const settings = parseJson<Obj>(action.visualization_settings, {});
  const fields = settings.fields && typeof settings.fields === 'object' ? (settings.fields as Record<string, Obj>) : {};
  const out = new Map<string, FormField>();
  for (const [id, field] of Object.entries(fields)) {
    if (field && typeof field === 'object') out.set(id, { hidden: field.hidden === true, defaultValue: field.defaultValue });
  }
  return out;
}

/**
 * The values an action runs with: a hidden field's default fills it when no value came for it. From a public form
 * (no caller) a hidden field can't be set at all — the form doesn't show it, so a value for it is someone going
 * around the form. Buttons on dashboards may fill hidden fields from the dashboard's filters.
 */
function formValues(action: ActionRow, caller: Caller | null, values: Obj): Obj {
  const out: Obj = { ...values };
  for (const [id, field] of formFieldsOf(action)) {
    if (!field.hidden) continue;
    if (caller === null && values[id] !== undefined && values[id] !== null) throw badRequest(`${JSON.stringify(id)} is a hidden field of this form.`);
    if ((out[id] === undefined || out[id] === null) && field.defaultValue !== undefined && field.defaultValue !== null) out[id] = field.defaultValue;
  }
  return out;
}

export async function executeAction(ctx: AppContext, caller: Caller | null, action: ActionRow, values: Obj, signal?: AbortSignal): Promise<unknown> {
  const run = await prepareRun(ctx, caller, action, formValues(action, caller, values), signal);
  switch (action.type) {
    case 'query':
      return executeQueryAction(ctx, run);
    case 'implicit':
      return executeImplicitAction(ctx, run);
    default:
      return executeHttpAction(ctx, run);
  }
}

/**
 * Values to prefill the action's form with: the row an implicit update or delete targets (without its hidden fields);
 * nothing for query and HTTP actions.
 */
export async function actionFormValues(ctx: AppContext, caller: Caller | null, action: ActionRow, values: Obj, signal?: AbortSignal): Promise<Obj> {
  if (action.type !== 'implicit') return {};
  if (!/\/(update|delete)$/.test(action.kind ?? '')) throw badRequest('Values can only be fetched for actions that require a Primary Key.');
  const run = await prepareRun(ctx, caller, action, values, signal);
  const row = await implicitRowValues(ctx, run);
  for (const [id, field] of formFieldsOf(action)) if (field.hidden) delete row[id];
  return row;
}
