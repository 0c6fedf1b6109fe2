// Who may wire a dashboard filter to a card: whoever may query the card ad hoc and every table the filter's target
// reads (the field it filters on, and the table an implicit join through `source-field` reaches). Checked when a
// mapping is added or changed — a dashboard's filter values are later served from its wired fields without asking
// data permissions again, so wiring a filter to a field must not be a way to read that field.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { forbidden } from '../http/errors.js';
import type { CardRow } from '../cards/store.js';
import { canRunAdhocQueries } from '../cards/data-access.js';
import { fieldIdOf } from '../cards/parameter-values.js';
import { dataAccess } from '../permissions/data-access.js';

type Obj = Record<string, unknown>;

export interface MappingCheck {
  card: CardRow;
  target: unknown;
}

const noPermission = (table: string) => forbidden(`You must have data permissions to add a parameter referencing the Table "${table}".`);

/** The fields a target reads: the filtered field (through a template tag too) and the `source-field` it joins through. */
function targetFieldIds(card: CardRow, target: unknown): number[] {
  const ids: number[] = [];
  const own = fieldIdOf(card, { target });
  if (own !== null) ids.push(own);
  if (Array.isArray(target) && Array.isArray(target[1])) {
    const options = (target[1] as unknown[])[2] as Obj | null | undefined;
    if (options && typeof options['source-field'] === 'number') ids.push(options['source-field']);
  }
  return ids;
}

export async function checkMappingAccess(ctx: AppContext, caller: Caller, checks: MappingCheck[]): Promise<void> {
  if (caller.isSuperuser || !checks.length) return;
  const fieldIds = [...new Set(checks.flatMap((c) => targetFieldIds(c.card, c.target)))];
  const fields = fieldIds.length
    ? await ctx.db
        .selectFrom('metabase_field')
        .innerJoin('metabase_table', 'metabase_table.id', 'metabase_field.table_id')
        .select(['metabase_field.id as id', 'metabase_table.id as table_id', 'metabase_table.db_id as db_id', 'metabase_table.schema as schema', 'metabase_table.name as table_name'])
        .where('metabase_field.id', 'in', fieldIds)
        .execute()
    : [];
  const access = await dataAccess(ctx, caller);
  for (const f of fields) {
    if (!access.canQueryTable({ id: f.table_id, db_id: f.db_id, schema: f.schema })) throw noPermission(f.table_name);
  }
  // (by row, not id: cards about to be saved all have id 0)
  const cards = [...new Set(checks.map((c) => c.card))];
  const allowed = await canRunAdhocQueries(ctx, caller, cards);
  const refused = cards.find((_, i) => !allowed[i]);
  if (!refused) return;
  if (refused.table_id === null) throw noPermission(refused.name);
  const table = await ctx.db.selectFrom('metabase_table').select('name').where('id', '=', refused.table_id).executeTakeFirst();
  throw noPermission(table?.name ?? String(refused.table_id));
}
