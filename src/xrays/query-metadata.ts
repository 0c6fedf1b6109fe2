// GET …/:entity/:id/query_metadata: what the web app needs to draw an X-ray's cards and filters — the databases,
// tables and fields of its cards' queries, each listed once (the shape of GET /api/dashboard/:id/query_metadata).

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { newMetadataMemo, queryMetadata } from '../query/query-metadata.js';

type Obj = Record<string, unknown>;

export async function xrayQueryMetadata(ctx: AppContext, caller: Caller, dashboard: Obj) {
  const out = { databases: [] as Obj[], tables: [] as Obj[], fields: [] as Obj[], cards: [] as Obj[], dashboards: [] as Obj[] };
  const seen = { databases: new Set<string>(), tables: new Set<string>(), fields: new Set<string>() };
  const memo = newMetadataMemo();
  const queries = new Set<string>();
  for (const dashcard of (dashboard.dashcards as Obj[]) ?? []) {
    const card = dashcard.card as Obj | null;
    if (!card || !card.dataset_query) continue;
    const text = JSON.stringify(card.dataset_query);
    if (queries.has(text)) continue;
    queries.add(text);
    const metadata = (await queryMetadata(ctx, caller, card.dataset_query as Obj, memo)) as { databases: Obj[]; tables: Obj[]; fields: Obj[] };
    for (const key of ['databases', 'tables', 'fields'] as const) {
      for (const item of metadata[key] ?? []) {
        const id = String(item.id);
        if (seen[key].has(id)) continue;
        seen[key].add(id);
        out[key].push(item);
      }
    }
  }
  out.tables.sort((a, b) => Number(a.id) - Number(b.id));
  return out;
}
