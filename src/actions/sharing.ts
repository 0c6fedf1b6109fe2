// Actions shared by public link: what may be shared, finding one by its UUID, and what an anonymous viewer sees of
// it (enough to draw its form — no SQL, template, model or database).

import type { AppContext } from '../context.js';
import { archivedError } from '../http/errors.js';
import { bool } from '../appdb/portable.js';
import { sharedRowByUuid } from '../public/links.js';
import { requireCard } from '../cards/store.js';
import { checkActionsEnabled } from './enabled.js';
import { actionJson } from './json.js';
import { requireAction, type ActionRow } from './store.js';

/** Only an action that could run can be shared: not archived, on a database with actions enabled. */
export async function checkActionShareable(ctx: AppContext, id: number): Promise<void> {
  const action = await requireAction(ctx, id, { archivedToo: true });
  if (bool(action.archived)) throw archivedError();
  await checkActionsEnabled(ctx, await databaseOf(ctx, action));
}

async function databaseOf(ctx: AppContext, action: ActionRow): Promise<number | null> {
  return action.type === 'query' ? action.database_id : (await requireCard(ctx, action.model_id)).database_id;
}

/** The shared, non-archived action with this UUID (404 otherwise; 400 while public sharing is off). */
export function actionByUuid(ctx: AppContext, uuid: string): Promise<ActionRow> {
  return sharedRowByUuid(ctx, 'action', uuid);
}

/** GET /api/public/action/:uuid. */
export async function sharedActionJson(ctx: AppContext, action: ActionRow) {
  await checkActionsEnabled(ctx, await databaseOf(ctx, action));
  const full = await actionJson(ctx, action);
  return {
    id: full.id,
    name: full.name,
    description: full.description,
    type: full.type,
    parameters: full.parameters,
    visualization_settings: full.visualization_settings,
  };
}
