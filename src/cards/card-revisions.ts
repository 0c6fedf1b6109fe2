// Cards in the revision history: what of a card is recorded, and how a card goes back to a recorded state.

import type { AppContext } from '../context.js';
import { bool, nowIso, parseJson, toJson, type Db } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { registerRevisionable } from '../revisions/revisions.js';
import { requireCard, type CardRow } from './store.js';

/** The recorded state of a card: its editable columns (result metadata only for models, whose metadata is edited). */
export function serializeCard(row: CardRow): Record<string, unknown> {
  return {
    name: row.name,
    description: row.description,
    display: row.display,
    type: row.type,
    dataset_query: parseJson(row.dataset_query, {}),
    visualization_settings: parseJson(row.visualization_settings, {}),
    parameters: parseJson(row.parameters, []),
    parameter_mappings: parseJson(row.parameter_mappings, []),
    ...(row.type === 'model' ? { result_metadata: parseJson(row.result_metadata, null) } : {}),
    collection_id: row.collection_id,
    collection_position: row.collection_position,
    collection_preview: bool(row.collection_preview),
    dashboard_id: row.dashboard_id,
    archived: bool(row.archived),
    archived_directly: bool(row.archived_directly),
    enable_embedding: bool(row.enable_embedding),
    embedding_params: parseJson(row.embedding_params, null),
    cache_ttl: row.cache_ttl,
    database_id: row.database_id,
    table_id: row.table_id,
    query_type: row.query_type,
    source_card_id: row.source_card_id,
    card_schema: row.card_schema,
  };
}

const JSON_COLUMNS = new Set(['dataset_query', 'visualization_settings', 'parameters', 'parameter_mappings', 'result_metadata', 'embedding_params']);
const COLUMNS = new Set([
  'name', 'description', 'display', 'type', 'dataset_query', 'visualization_settings', 'parameters', 'parameter_mappings',
  'result_metadata', 'collection_id', 'collection_position', 'collection_preview', 'dashboard_id', 'archived',
  'archived_directly', 'enable_embedding', 'embedding_params', 'cache_ttl', 'database_id', 'table_id', 'query_type',
  'source_card_id', 'card_schema',
]);

async function revertCard(ctx: AppContext, db: Db, id: number, object: Record<string, unknown>) {
  await requireCard(ctx, id, db);
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (!COLUMNS.has(key)) continue;
    values[key] = JSON_COLUMNS.has(key) ? toJson(value) : value;
  }
  // ids of things that may have gone since the revision was taken
  if (typeof values.collection_id === 'number') {
    const exists = await db.selectFrom('collection').select('id').where('id', '=', values.collection_id as number).executeTakeFirst();
    if (!exists) values.collection_id = null;
  }
  if (typeof values.dashboard_id === 'number') {
    const exists = await db.selectFrom('report_dashboard').select('id').where('id', '=', values.dashboard_id as number).executeTakeFirst();
    if (!exists) values.dashboard_id = null;
  }
  await db.updateTable('report_card').set({ ...values, updated_at: nowIso() }).where('id', '=', id).execute();
}

registerRevisionable({
  entity: 'card',
  model: 'Card',
  async checkRead(ctx, caller, id) {
    const row = await requireCard(ctx, id);
    (await collectionAccess(ctx, caller)).checkRead(row.collection_id);
  },
  async checkWrite(ctx, caller, id) {
    const row = await requireCard(ctx, id);
    (await collectionAccess(ctx, caller)).checkWrite(row.collection_id);
  },
  revert: (ctx, db, _caller, id, object) => revertCard(ctx, db, id, object),
});
