// POST /api/eid-translation/translate (0.55's name; /api/util/entity_id before): entity ids (21-character NanoIDs,
// stable across instances) → numeric ids, per model, as Metabase answers embedding and serialization clients:
// `{"entity_ids": {"<eid>": {"id": 1, "type": "card", "status": "ok"} | {"type": "card", "status": "not-found"}}}`.

import type { AppContext } from '../context.js';
import { badRequest } from '../http/errors.js';

const TABLES = {
  action: 'action',
  card: 'report_card',
  collection: 'collection',
  dashboard: 'report_dashboard',
  'dashboard-card': 'report_dashboardcard',
  'dashboard-tab': 'dashboard_tab',
  database: 'metabase_database',
  table: 'metabase_table',
  field: 'metabase_field',
  segment: 'segment',
  snippet: 'native_query_snippet',
  timeline: 'timeline',
  'permissions-group': 'permissions_group',
} as const;

type Model = keyof typeof TABLES;

export async function translateEntityIds(ctx: AppContext, request: Record<string, unknown>) {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [model, ids] of Object.entries(request)) {
    if (!Object.hasOwn(TABLES, model)) throw badRequest(`Unknown model: ${model}. Use one of: ${Object.keys(TABLES).join(', ')}.`);
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) throw badRequest(`The entity ids of ${model} must be a list of strings.`);
    const wanted = [...new Set(ids as string[])];
    const rows = wanted.length
      ? await (ctx.db as any).selectFrom(TABLES[model as Model]).select(['id', 'entity_id']).where('entity_id', 'in', wanted).execute()
      : [];
    const found = new Map<string, number>(rows.map((r: { id: number; entity_id: string }) => [r.entity_id, r.id]));
    for (const eid of wanted) {
      const id = found.get(eid);
      out[eid] = id === undefined ? { type: model, status: 'not-found' } : { id, type: model, status: 'ok' };
    }
  }
  return { entity_ids: out };
}
