// /api/action (spec §4.1): actions on models — CRUD, listing, running them and prefilling their forms. Public links
// to actions are in ./public.ts with the other public links.

import { Respond, type Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { badRequest } from '../http/errors.js';
import { clientGoneSignal } from '../http/client-gone.js';
import { createAction, deleteAction, getAction, listActions, readableAction, updateAction, type ActionInput } from '../actions/actions.js';
import { actionFormValues, executeAction } from '../actions/run.js';
import { requireAction } from '../actions/store.js';
import { actionSchemas } from '../actions/validate.js';

type Obj = Record<string, unknown>;


const optionalFields = {
  description: s.maybe(s.str()),
  type: s.maybe(actionSchemas.type),
  kind: s.maybe(actionSchemas.kind),
  database_id: s.maybe(s.posInt()),
  dataset_query: s.maybe(actionSchemas.map),
  template: s.maybe(actionSchemas.template),
  response_handle: s.maybe(actionSchemas.jsonQuery),
  error_handle: s.maybe(actionSchemas.jsonQuery),
  parameters: s.maybe(actionSchemas.parameters),
  parameter_mappings: s.maybe(actionSchemas.map),
  visualization_settings: s.maybe(actionSchemas.map),
};

/** `?parameters=` of the prefill endpoints: a JSON map. */
export function formValuesParam(value: unknown): Obj {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest('parameters must be a JSON map of parameter ids to values.');
  return value as Obj;
}

/** A value the action answered with, as JSON even when it is null (an HTTP action's handle may pick nothing). */
export const actionResult = (value: unknown) => Respond.json(value === undefined ? null : value);

export function actionRoutes(r: Routes) {
  r.get('/api/action', { query: { 'model-id': s.maybe(s.posInt()) } }, ({ ctx, caller, query }) => listActions(ctx, caller, query['model-id']));

  r.get('/api/action/:action-id', { params: { 'action-id': s.posInt() } }, ({ ctx, caller, params }) => getAction(ctx, caller, params['action-id']));

  r.post('/api/action', { body: { name: s.name(), model_id: s.posInt(), ...optionalFields } }, ({ ctx, caller, body }) =>
    createAction(ctx, caller, body as ActionInput),
  );

  r.put(
    '/api/action/:id',
    { params: { id: s.posInt() }, body: { name: s.maybe(s.name()), model_id: s.maybe(s.posInt()), archived: s.maybe(s.bool()), ...optionalFields } },
    ({ ctx, caller, params, body, bodyKeys }) => updateAction(ctx, caller, params.id, body as ActionInput, bodyKeys),
  );

  r.delete('/api/action/:action-id', { params: { 'action-id': s.posInt() } }, async ({ ctx, caller, params }) => {
    await deleteAction(ctx, caller, params['action-id']);
  });

  r.get(
    '/api/action/:action-id/execute',
    { params: { 'action-id': s.posInt() }, query: { parameters: s.jsonstr() } },
    async ({ ctx, caller, params, query, reply }) => {
      // checked here: query and HTTP actions have nothing to prefill and return before the run's own check
      const action = await readableAction(ctx, caller, params['action-id']);
      return actionFormValues(ctx, caller, action, formValuesParam(query.parameters), clientGoneSignal(reply));
    },
  );

  r.post(
    '/api/action/:id/execute',
    { params: { id: s.posInt() }, body: { parameters: s.maybe(s.map()) } },
    async ({ ctx, caller, params, body, reply }) => {
      // executeAction checks that the caller may run it
      const action = await requireAction(ctx, params.id);
      return actionResult(await executeAction(ctx, caller, action, body.parameters ?? {}, clientGoneSignal(reply)));
    },
  );
}
