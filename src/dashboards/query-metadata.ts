// GET /api/dashboard/:id/query_metadata: what the dashboard's cards need to be shown and filtered — the databases,
// tables and fields of every readable card's query (and series), the fields its filters are wired to, and the
// cards and dashboards its link cards and filter sources point at. Each distinct thing is listed once.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { parseJson } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { cardsByIds } from '../cards/store.js';
import { cardColumnsJson } from '../cards/json.js';
import { newMetadataMemo, prefetchQueryMetadata, queryMetadata } from '../query/query-metadata.js';
import { fieldJson } from '../databases/json.js';
import { readableDashboard } from './dashboards.js';
import { dashboardColumnsJson } from './json.js';
import { dashcardsOf, parametersOf, seriesOf } from './store.js';
import { parameterFieldIds } from './parameters.js';
import { linkEntityOf } from './link-cards.js';

type Obj = Record<string, unknown>;

function addUnique(into: Obj[], seen: Set<string>, items: Obj[]): void {
  for (const item of items) {
    const key = String(item.id);
    if (seen.has(key)) continue;
    seen.add(key);
    into.push(item);
  }
}

export async function dashboardQueryMetadata(ctx: AppContext, caller: Caller, id: number) {
  const access = await collectionAccess(ctx, caller);
  const dashboard = await readableDashboard(ctx, access, id);
  const dashcards = await dashcardsOf(ctx.db, [id]);
  const series = await seriesOf(ctx.db, dashcards.map((d) => d.id));
  const links = dashcards.map(linkEntityOf).filter((e): e is { model: string; id: number } => e !== null);
  const sourceCardIds = parametersOf(dashboard)
    .map((p) => (p.values_source_type === 'card' ? (p.values_source_config as Obj | undefined)?.card_id : null))
    .filter((v): v is number => typeof v === 'number');
  const shownIds = [...dashcards.map((d) => d.card_id).filter((c): c is number => c !== null), ...[...series.values()].flat()];
  const linkedCardIds = links.filter((l) => ['card', 'dataset', 'metric', 'question'].includes(l.model)).map((l) => l.id);
  const cards = await cardsByIds(ctx.db, [...shownIds, ...linkedCardIds, ...sourceCardIds]);

  const databases: Obj[] = [];
  const tables: Obj[] = [];
  const fields: Obj[] = [];
  const seen = { databases: new Set<string>(), tables: new Set<string>(), fields: new Set<string>() };
  const queries = new Set<string>();
  for (const cardId of new Set([...shownIds, ...sourceCardIds])) {
    const card = cards.get(cardId);
    if (card && access.canRead(card.collection_id)) queries.add(card.dataset_query);
  }
  const parsed = [...queries].map((q) => parseJson<Obj>(q, {}));
  const memo = newMetadataMemo();
  await prefetchQueryMetadata(ctx, caller, parsed, memo);
  for (const query of parsed) {
    const metadata = (await queryMetadata(ctx, caller, query, memo)) as { databases: Obj[]; tables: Obj[]; fields: Obj[] };
    addUnique(databases, seen.databases, metadata.databases);
    addUnique(tables, seen.tables, metadata.tables);
    addUnique(fields, seen.fields, metadata.fields);
  }
  // fields the filters are wired to, when their tables aren't described already
  const inTables = new Set(tables.flatMap((t) => (Array.isArray(t.fields) ? (t.fields as Obj[]).map((f) => String(f.id)) : [])));
  const wired = [...new Set([...parameterFieldIds(dashcards, cards).values()].flatMap((s) => [...s]))].filter((f) => !inTables.has(String(f)) && !seen.fields.has(String(f)));
  if (wired.length) {
    const rows = await ctx.db.selectFrom('metabase_field').selectAll().where('id', 'in', wired).execute();
    addUnique(fields, seen.fields, rows.map((r) => fieldJson(r)));
  }

  const linkedDashboardIds = links.filter((l) => l.model === 'dashboard').map((l) => l.id);
  const linkedDashboards = linkedDashboardIds.length ? await ctx.db.selectFrom('report_dashboard').selectAll().where('id', 'in', linkedDashboardIds).execute() : [];
  return {
    databases,
    tables,
    fields,
    cards: [...new Set([...linkedCardIds, ...sourceCardIds])]
      .map((cid) => cards.get(cid))
      .filter((c): c is NonNullable<typeof c> => c !== undefined && access.canRead(c.collection_id))
      .map((c) => cardColumnsJson(c)),
    dashboards: linkedDashboards.filter((d) => access.canRead(d.collection_id)).map((d) => dashboardColumnsJson(d)),
  };
}
