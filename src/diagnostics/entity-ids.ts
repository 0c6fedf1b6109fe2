// POST /api/eid-translation/translate (0.55's name; /api/util/entity_id before): entity ids (21-character NanoIDs,
// stable across instances) → numeric ids, per model, as Metabase answers embedding and serialization clients:
// `{"entity_ids": {"<eid>": {"id": 1, "type": "card", "status": "ok"} | {"type": "card", "status": "not-found"}}}`.

import type { AppContext } from '../context.js';
import { badRequest, validationError } from '../http/errors.js';

/**
 * The model names Metabase's API accepts (its API names, not its model names: `dataset` and `metric` are cards), and
 * the app-DB table each reads. Database, table and field ids are kept for older Quarry clients.
 */
const TABLES = {
  action: 'action',
  card: 'report_card',
  dataset: 'report_card',
  metric: 'report_card',
  collection: 'collection',
  dashboard: 'report_dashboard',
  'dashboard-card': 'report_dashboardcard',
  'dashboard-tab': 'dashboard_tab',
  dimension: 'dimension',
  'permissions-group': 'permissions_group',
  pulse: 'pulse',
  'pulse-card': 'pulse_card',
  'pulse-channel': 'pulse_channel',
  segment: 'segment',
  snippet: 'native_query_snippet',
  timeline: 'timeline',
  database: 'metabase_database',
  table: 'metabase_table',
  field: 'metabase_field',
} as const;

const MODELS = Object.keys(TABLES);

/** Metabase's validation 400 for a model name it doesn't know (the `entity_ids` map's keys are an enum). */
function unknownModel(model: string) {
  return validationError(
    { entity_ids: `map from one of ${MODELS.join(', ')} to a sequence of entity ids` },
    { entity_ids: { [model]: [`should be either ${MODELS.join(', ')}, received: ${JSON.stringify(model)}`] } },
  );
}

type Model = keyof typeof TABLES;

export async function translateEntityIds(ctx: AppContext, request: Record<string, unknown>) {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [model, ids] of Object.entries(request)) {
    if (!Object.hasOwn(TABLES, model)) throw unknownModel(model);
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
