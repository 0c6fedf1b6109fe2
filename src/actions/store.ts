// Reading action rows and the JSON columns inside them.

import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { bool, parseJson, type Db } from '../appdb/portable.js';
import type { ActionTable } from './tables.js';

export type ActionRow = Selectable<ActionTable>;
type Obj = Record<string, unknown>;

/** The action, 404 when it doesn't exist (or is archived, unless `archived` is allowed). */
export async function requireAction(ctx: AppContext, id: number, options: { archivedToo?: boolean } = {}, db: Db = ctx.db): Promise<ActionRow> {
  const row = await db.selectFrom('action').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || (!options.archivedToo && bool(row.archived))) throw notFound();
  return row;
}

export const parametersOf = (row: ActionRow): Obj[] => parseJson<Obj[]>(row.parameters, []);
export const datasetQueryOf = (row: ActionRow): Obj | null => parseJson<Obj | null>(row.dataset_query, null);
export const templateOf = (row: ActionRow): Obj | null => parseJson<Obj | null>(row.template, null);
