// GET /api/automagic-dashboards/model_index/:model-index-id/primary_key/:pk-id: a look at one indexed record of a
// model — an X-ray of every readable table whose foreign key points at the model's primary key column, filtered to
// that record (one tab per table when there are several), each tab opening with a link to the model.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { notFound } from '../http/errors.js';
import { bool, parseJson } from '../appdb/portable.js';
import { dataAccess } from '../databases/access.js';
import { readableCard } from '../cards/cards.js';
import { collectionAccess } from '../permissions/collections.js';
import { buildXray } from './dashboard.js';
import { textDashcard } from './layout.js';
import type { Root } from './roots.js';
import { tableSource } from './source.js';

type Obj = Record<string, unknown>;

export const NOTHING_TO_SHOW = "# Unfortunately, there's not much else to show right now...";

function linkDashcard(id: string, model: { id: number; name: string; description: string | null }, width: number, tabId: number | null): Obj {
  return {
    id,
    dashboard_tab_id: tabId,
    row: 0,
    col: 0,
    size_x: width,
    size_y: 1,
    card: null,
    card_id: null,
    series: [],
    parameter_mappings: [],
    visualization_settings: {
      virtual_card: { display: 'link', archived: false },
      link: { entity: { id: model.id, name: model.name, model: 'dataset', display: 'table', description: model.description } },
    },
  };
}

export async function modelIndexXray(ctx: AppContext, caller: Caller, indexId: number, pk: number) {
  const index = await ctx.db.selectFrom('model_index').selectAll().where('id', '=', indexId).executeTakeFirst();
  if (!index) throw notFound();
  const model = await readableCard(ctx, await collectionAccess(ctx, caller), index.model_id);
  const value = await ctx.db.selectFrom('model_index_value').select('name').where('model_index_id', '=', indexId).where('model_pk', '=', pk).executeTakeFirst();
  if (!value) throw notFound();
  const pkRef = parseJson<unknown[] | null>(index.pk_ref, null);
  const pkFieldId = Array.isArray(pkRef) && typeof pkRef[1] === 'number' ? pkRef[1] : null;

  const access = await dataAccess(ctx, caller);
  const fks = pkFieldId === null ? [] : await ctx.db.selectFrom('metabase_field').select(['id', 'table_id']).where('fk_target_field_id', '=', pkFieldId).where('active', '=', true).orderBy('id').execute();
  const tables = fks.length ? await ctx.db.selectFrom('metabase_table').selectAll().where('id', 'in', [...new Set(fks.map((f) => f.table_id))]).orderBy('id').execute() : [];
  const readable = tables.filter((t) => bool(t.active) && (t.visibility_type === null || t.visibility_type === 'normal') && (access.isSuperuser || access.canQueryTable(t)));

  const name = `Here's a look at "${value.name}" from "${model.name}"`;
  const base = { name, transient_name: name, description: `A dashboard focusing on information linked to ${value.name}`, creator_id: caller.user.id, parameters: [], param_fields: {}, auto_apply_filters: true, width: 'fixed', related: {}, more: null, transient_filters: null };
  const modelInfo = { id: model.id, name: model.name, description: model.description };
  if (!readable.length) {
    return { ...base, dashcards: [linkDashcard('G__1', modelInfo, 18, null), textDashcard('G__2', NOTHING_TO_SHOW, { row: 1, col: 0, sizeX: 18, sizeY: 2 })] };
  }
  const tabs: Obj[] = [];
  const dashcards: Obj[] = [];
  for (const [i, table] of readable.entries()) {
    const fk = fks.find((f) => f.table_id === table.id) as { id: number };
    const source = await tableSource(ctx, access, table);
    const root: Root = {
      entity: 'table',
      url: `/auto/dashboard/table/${table.id}`,
      fullName: table.display_name,
      shortName: table.display_name,
      source,
      filter: ['=', ['field', fk.id, null], pk],
      cell: null,
      field: null,
      metrics: null,
      breakouts: [],
      segmentId: null,
      tableId: table.id,
      access,
    };
    const xray = await buildXray(ctx, caller, root, { show: 'all', forced: null }, root.url);
    const tabId = readable.length > 1 ? -(i + 1) : null;
    if (tabId !== null) tabs.push({ id: tabId, name: `A look at ${table.display_name}`, position: i });
    const own = (xray.dashcards as Obj[]).map((d): Obj => {
      const prefix = `T${i + 1}_`;
      const cardId = d.card_id ? `${prefix}${d.card_id}` : null;
      return {
        ...d,
        id: `${prefix}${d.id}`,
        dashboard_tab_id: tabId,
        card_id: cardId,
        card: d.card ? { ...(d.card as Obj), id: cardId } : null,
        parameter_mappings: [],
        row: (d.row as number) + 1,
      };
    });
    const width = Math.max(4, ...own.map((d) => (d.col as number) + (d.size_x as number)));
    dashcards.push(linkDashcard(`T${i + 1}_link`, modelInfo, width, tabId), ...own);
  }
  return { ...base, ...(tabs.length ? { tabs } : {}), dashcards };
}
