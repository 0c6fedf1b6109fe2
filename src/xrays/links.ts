// The `related` block of an X-ray: where to go next — zoom in (narrower templates, segments, single fields), zoom
// out (the whole table), related tables (linked by foreign keys) and comparisons (with a segment, with the whole
// table). Only what the caller may see; deterministic (no random picks), at most eight entries.

import type { AppContext } from '../context.js';
import { bool } from '../appdb/portable.js';
import { isa } from '../databases/type-hierarchy.js';
import type { TableRow } from '../databases/database-row.js';
import type { Bindings } from './bind.js';
import { planCards, type PlanInput } from './cards.js';
import { fill } from './names.js';
import type { Root } from './roots.js';
import { encodeBase64Json } from './encoding.js';
import { tableTemplateFor, type Template } from './templates/index.js';

export interface Link {
  url: string;
  title: string;
  description: string;
}

export interface Related {
  'zoom-in'?: Link[];
  'zoom-out'?: Link[];
  related?: Link[];
  compare?: Link[];
}

export const MAX_RELATED = 8;

const tableLink = (t: Pick<TableRow, 'id' | 'display_name' | 'entity_type'>): Link => ({
  url: `/auto/dashboard/table/${t.id}`,
  title: t.display_name,
  description: fill(tableTemplateFor(t.entity_type).description, { this: t.display_name }),
});

async function segmentsOf(ctx: AppContext, tableId: number) {
  return ctx.db.selectFrom('segment').select(['id', 'name']).where('table_id', '=', tableId).where('archived', '=', false).orderBy('id').execute();
}

/** Tables the source's foreign keys point at, and tables whose keys point at it (readable, visible). */
async function linkedTables(ctx: AppContext, root: Root): Promise<TableRow[]> {
  const table = root.source.table;
  if (!table) return [];
  const to = [...new Set(root.source.fields.filter((f) => f.via !== null && f.tableId !== null).map((f) => f.tableId as number))];
  const from = await ctx.db
    .selectFrom('metabase_field as fk')
    .innerJoin('metabase_field as pk', 'pk.id', 'fk.fk_target_field_id')
    .select('fk.table_id')
    .where('pk.table_id', '=', table.id)
    .where('fk.table_id', '!=', table.id)
    .where('fk.active', '=', true)
    .execute();
  const ids = [...new Set([...to, ...from.map((r) => r.table_id)])];
  if (!ids.length) return [];
  const rows = await ctx.db.selectFrom('metabase_table').selectAll().where('id', 'in', ids).orderBy('id').execute();
  return rows.filter((t) => bool(t.active) && (t.visibility_type === null || t.visibility_type === 'normal') && (root.access.isSuperuser || root.access.canQueryTable(t)));
}

function drillDownFields(root: Root, bindings: Bindings): Link[] {
  const out: Link[] = [];
  for (const dimension of ['Timestamp', 'Category', 'Source', 'State', 'Country', 'Number']) {
    for (const { field } of bindings.get(dimension) ?? []) {
      if (field.via !== null || field.id === null || root.source.table === null) continue;
      if (root.field && root.field.id === field.id) continue;
      const kind = isa(field.effectiveType, 'type/Temporal') ? 'over time' : isa(field.effectiveType, 'type/Number') ? 'and how it is spread' : 'and its values';
      out.push({ url: `/auto/dashboard/field/${field.id}`, title: `${field.displayName} field`, description: `A closer look at ${field.displayName} ${kind}.` });
    }
  }
  return out;
}

function indepth(root: Root, template: Template, plan: PlanInput): Link[] {
  if (root.entity !== 'table' && root.entity !== 'segment') return [];
  return template.subTemplates
    .filter((sub) => planCards(template.cards.filter((c) => sub.groups.includes(c.group)), plan).length > 0)
    .map((sub) => ({ url: `${root.url}/rule/${template.name}/${sub.name}`, title: fill(sub.title, { this: root.shortName }), description: sub.description }));
}

/** Round-robin over pools, taking `n` from each turn in order, until `max` are taken. */
function take(pools: Link[][], max: number): Link[] {
  const out: Link[] = [];
  const queues = pools.map((p) => [...p]);
  while (out.length < max && queues.some((q) => q.length)) for (const q of queues) if (q.length && out.length < max) out.push(q.shift() as Link);
  return out;
}

/** The related block of the X-ray of `root` (`url`: the X-ray's own path, with its cell if any). */
export async function relatedBlock(ctx: AppContext, root: Root, template: Template, bindings: Bindings, plan: PlanInput, url: string): Promise<Related> {
  const tableId = root.tableId;
  const segments = tableId !== null && root.source.table ? await segmentsOf(ctx, tableId) : [];
  const linked = await linkedTables(ctx, root);
  const fields = drillDownFields(root, bindings);
  const zoomOut: Link[] = [];
  if (root.entity !== 'table' && root.source.table) zoomOut.push(tableLink(root.source.table));

  const segmentLinks = segments
    .filter((s) => s.id !== root.segmentId)
    .map((s) => ({ url: `/auto/dashboard/segment/${s.id}`, title: `${root.source.name} in the ${s.name} segment`, description: fill(template.description, { this: root.source.name }) }));
  const compare: Link[] = [];
  if (root.filter !== null || root.cell !== null) {
    const all = root.source.table
      ? `${url}/compare/table/${root.source.table.id}`
      : `${url}/compare/adhoc/${encodeBase64Json({ database: root.source.databaseId, type: 'query', query: { 'source-table': root.source.sourceTable } })}`;
    compare.push({ url: all, title: 'Compare with entire dataset', description: '' });
  }
  if (root.entity !== 'field') for (const s of segments.filter((s) => s.id !== root.segmentId)) compare.push({ url: `${url}/compare/segment/${s.id}`, title: `Compare with ${s.name} segment`, description: '' });

  const zoomIn = root.entity === 'field' ? [] : take([indepth(root, template, plan), segmentLinks, fields], root.entity === 'table' ? 4 : 3);
  const related = take([linked.map(tableLink), root.entity === 'field' ? fields.slice(0, 2) : []], root.entity === 'question' || root.entity === 'model' || root.entity === 'adhoc' ? 3 : 2);

  const block: Related = {};
  let room = MAX_RELATED;
  const put = (key: keyof Related, links: Link[], max: number) => {
    const kept = links.slice(0, Math.min(max, room));
    room -= kept.length;
    if (kept.length) block[key] = kept;
  };
  put('zoom-in', zoomIn, 4);
  put('zoom-out', zoomOut, 1);
  put('related', related, 3);
  put('compare', compare, 2);
  return block;
}
