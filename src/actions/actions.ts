// Actions (spec §4.1, reference §13): create, read, update, delete and list the actions of models. An action belongs
// to a model: reading it needs read access to the model's collection, changing it needs write access; a query
// action's SQL also needs native query permission on its database (it writes arbitrary SQL), and the databases it
// touches must have actions enabled.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, fieldError, forbidden, messageError } from '../http/errors.js';
import { insertReturningId, nowIso, toJson } from '../appdb/portable.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { dataAccess } from '../permissions/data-access.js';
import { readableCard, writableCard } from '../cards/cards.js';
import type { CardRow } from '../cards/store.js';
import { newEntityId } from '../util/entity-id.js';
import { deleteActionDashcards } from '../dashboards/action-dashcards.js';
import { checkActionsEnabled } from './enabled.js';
import { actionJson, actionsJson } from './json.js';
import { plainTableOf } from './model-table.js';
import { datasetQueryOf, requireAction, templateOf, type ActionRow } from './store.js';
import { IMPLICIT_KINDS, type ActionType, type ImplicitKind } from './validate.js';

type Obj = Record<string, unknown>;

export interface ActionInput {
  name?: string | null;
  description?: string | null;
  type?: ActionType | null;
  kind?: ImplicitKind | null;
  model_id?: number | null;
  database_id?: number | null;
  dataset_query?: Obj | null;
  template?: Obj | null;
  response_handle?: string | null;
  error_handle?: string | null;
  parameters?: Obj[] | null;
  parameter_mappings?: Obj | null;
  visualization_settings?: Obj | null;
  archived?: boolean | null;
}

/** The action as it will be stored: what the checks below look at, for a new action or an edited one. */
interface Definition {
  type: ActionType;
  modelId: number;
  databaseId: number | null;
  kind: string | null;
  datasetQuery: Obj | null;
  template: Obj | null;
  responseHandle: string | null;
  errorHandle: string | null;
}

/** The columns a definition sets (those of other action types null). */
function definitionColumns(d: Definition) {
  return {
    type: d.type,
    model_id: d.modelId,
    database_id: d.databaseId,
    dataset_query: storedQuery(d.datasetQuery, d.databaseId),
    kind: d.kind,
    template: toJson(d.template),
    response_handle: d.responseHandle,
    error_handle: d.errorHandle,
  };
}

async function writableModel(ctx: AppContext, access: CollectionAccess, modelId: number): Promise<CardRow> {
  const model = await writableCard(ctx, access, modelId);
  if (model.type !== 'model') throw badRequest('Actions can only be added to models.');
  return model;
}

/** The rules every action obeys, checked on create and on every update (against the action as it will be). */
async function checkDefinition(ctx: AppContext, caller: Caller, model: CardRow, d: Definition, datasetQueryChanged: boolean): Promise<void> {
  if (d.type === 'query') {
    if (d.databaseId === null) throw messageError(400, 'Must provide a database_id for query actions', { type: d.type, database_id: null });
    const query = d.datasetQuery;
    if (!query || query.type !== 'native' || typeof (query.native as Obj | undefined)?.query !== 'string') {
      throw fieldError('dataset_query', 'Query actions need a native dataset_query with its SQL in native.query.');
    }
    // Writing SQL that changes data needs the right to write SQL there (Metabase's "native query editing").
    if (datasetQueryChanged && !(await dataAccess(ctx, caller)).canNative(d.databaseId)) throw forbidden();
  }
  if (d.type === 'implicit') {
    if (!d.kind || !(IMPLICIT_KINDS as readonly string[]).includes(d.kind)) throw fieldError('kind', 'Unsupported implicit action kind');
    if (plainTableOf(model) === null) throw badRequest('Implicit actions are not supported for models with clauses.');
  }
  if (d.type === 'http' && !d.template) throw fieldError('template', 'HTTP actions need a request template.');
  await checkActionsEnabled(ctx, model.database_id);
  if (d.type === 'query' && d.databaseId !== model.database_id) await checkActionsEnabled(ctx, d.databaseId);
}

/** The native query stored for a query action, pointed at the action's database. */
function storedQuery(query: Obj | null, databaseId: number | null): string | null {
  if (!query) return null;
  return JSON.stringify({ ...query, database: databaseId ?? query.database });
}

/** GET /api/action: actions of models the caller can read (one model with `model-id`). */
export async function listActions(ctx: AppContext, caller: Caller, modelId: number | null) {
  const access = await collectionAccess(ctx, caller);
  let modelIds: number[];
  if (modelId !== null) {
    await readableCard(ctx, access, modelId);
    modelIds = [modelId];
  } else {
    const models = await ctx.db
      .selectFrom('report_card')
      .select('id')
      .where('type', '=', 'model')
      .where('archived', '=', false)
      .where((eb) => access.filter(eb, 'report_card.collection_id'))
      .execute();
    modelIds = models.map((m) => m.id);
  }
  if (!modelIds.length) return [];
  const rows = await ctx.db.selectFrom('action').selectAll().where('model_id', 'in', modelIds).where('archived', '=', false).orderBy('id').execute();
  return actionsJson(ctx, rows);
}

/** An action the caller may read (404 for archived or missing actions). */
export async function readableAction(ctx: AppContext, caller: Caller, id: number): Promise<ActionRow> {
  const action = await requireAction(ctx, id);
  await readableCard(ctx, await collectionAccess(ctx, caller), action.model_id);
  return action;
}

export async function getAction(ctx: AppContext, caller: Caller, id: number) {
  return actionJson(ctx, await readableAction(ctx, caller, id), { creator: true });
}

export async function createAction(ctx: AppContext, caller: Caller, input: ActionInput) {
  const type = input.type ?? 'query';
  if (type === 'query' && !input.database_id) throw messageError(400, 'Must provide a database_id for query actions', { type, database_id: null });
  const access = await collectionAccess(ctx, caller);
  const model = await writableModel(ctx, access, input.model_id!);
  const definition: Definition = {
    type,
    modelId: model.id,
    databaseId: type === 'query' ? (input.database_id ?? null) : null,
    kind: type === 'implicit' ? (input.kind ?? null) : null,
    datasetQuery: type === 'query' ? (input.dataset_query ?? null) : null,
    template: type === 'http' ? (input.template ?? null) : null,
    responseHandle: type === 'http' ? (input.response_handle ?? null) : null,
    errorHandle: type === 'http' ? (input.error_handle ?? null) : null,
  };
  await checkDefinition(ctx, caller, model, definition, true);
  const now = nowIso();
  const id = await insertReturningId(ctx.db, ctx.dialect, 'action', {
    entity_id: newEntityId(),
    name: input.name,
    description: input.description ?? null,
    ...definitionColumns(definition),
    parameters: type === 'implicit' ? null : toJson(input.parameters ?? []),
    parameter_mappings: toJson(input.parameter_mappings ?? null),
    visualization_settings: toJson(input.visualization_settings ?? {}),
    archived: false,
    creator_id: caller.user.id,
    created_at: now,
    updated_at: now,
  });
  return actionJson(ctx, await requireAction(ctx, id), { creator: true });
}

export async function updateAction(ctx: AppContext, caller: Caller, id: number, input: ActionInput, present: Set<string>) {
  const before = await requireAction(ctx, id, { archivedToo: true });
  const access = await collectionAccess(ctx, caller);
  const has = (key: keyof ActionInput) => present.has(key) && input[key] !== null && input[key] !== undefined;
  const modelId = has('model_id') ? input.model_id! : before.model_id;
  // moving an action needs write access to the model it leaves as well as to the one it joins
  if (modelId !== before.model_id) await writableCard(ctx, access, before.model_id);
  const model = await writableModel(ctx, access, modelId);
  const type = has('type') ? input.type! : (before.type as ActionType);
  const datasetQueryChanged = has('dataset_query') || (type === 'query' && before.type !== 'query') || (has('database_id') && input.database_id !== before.database_id);
  const definition: Definition = {
    type,
    modelId: model.id,
    databaseId: type === 'query' ? (has('database_id') ? input.database_id! : before.database_id) : null,
    kind: type === 'implicit' ? (has('kind') ? input.kind! : before.kind) : null,
    datasetQuery: type === 'query' ? (has('dataset_query') ? input.dataset_query! : datasetQueryOf(before)) : null,
    template: type === 'http' ? (has('template') ? input.template! : templateOf(before)) : null,
    responseHandle: type === 'http' ? (present.has('response_handle') ? (input.response_handle ?? null) : before.response_handle) : null,
    errorHandle: type === 'http' ? (present.has('error_handle') ? (input.error_handle ?? null) : before.error_handle) : null,
  };
  await checkDefinition(ctx, caller, model, definition, datasetQueryChanged);
  const changes: Obj = { ...definitionColumns(definition), updated_at: nowIso() };
  if (has('name')) changes.name = input.name;
  if (present.has('description')) changes.description = input.description ?? null;
  if (type === 'implicit') changes.parameters = null;
  else if (present.has('parameters')) changes.parameters = toJson(input.parameters ?? []);
  if (present.has('parameter_mappings')) changes.parameter_mappings = toJson(input.parameter_mappings ?? null);
  if (present.has('visualization_settings')) changes.visualization_settings = toJson(input.visualization_settings ?? {});
  if (has('archived')) changes.archived = input.archived;
  await ctx.db.updateTable('action').set(changes).where('id', '=', id).execute();
  return actionJson(ctx, await requireAction(ctx, id, { archivedToo: true }), { creator: true });
}

export async function deleteAction(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const action = await requireAction(ctx, id, { archivedToo: true });
  await writableCard(ctx, await collectionAccess(ctx, caller), action.model_id);
  await ctx.db.transaction().execute(async (trx) => {
    await deleteActionDashcards(trx, id);
    await trx.deleteFrom('action').where('id', '=', id).execute();
  });
}

/** GET /api/action/public: the shared actions. */
export async function publicActions(ctx: AppContext) {
  return ctx.db
    .selectFrom('action')
    .select(['id', 'name', 'public_uuid', 'model_id'])
    .where('public_uuid', 'is not', null)
    .where('archived', '=', false)
    .orderBy('name')
    .execute();
}
