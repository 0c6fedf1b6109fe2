// Tells the query engine which models to read from their tables (src/query/persisted.ts): a model whose row is
// active, whose table was built from the model's current query in the current report time zone (query hash) and
// current columns (definition), in a database that still has persistence on, with persistence on for the site.
// Anything else runs live — so editing a model's query, or the report time zone, falls back to live queries until
// the next refresh.

import type { AppContext } from '../context.js';
import { parseJson } from '../appdb/portable.js';
import { querySettings, registerPersistedModelSource, type PersistedModel } from '../query/index.js';
import { datasetQueryHash, definitionOf, isActive, type Definition } from './store.js';
import { schemaName } from './naming.js';
import { siteUuid } from './site.js';

const READABLE_STATES = ['persisted', 'refreshing'];

registerPersistedModelSource(async (ctx: AppContext, models) => {
  if (!(await ctx.settings.getBoolean('persisted-models-enabled'))) return new Map();
  const rows = await ctx.db
    .selectFrom('persisted_info')
    .innerJoin('metabase_database', 'metabase_database.id', 'persisted_info.database_id')
    .select(['persisted_info.card_id', 'persisted_info.database_id', 'persisted_info.table_name', 'persisted_info.definition', 'persisted_info.query_hash', 'persisted_info.active', 'persisted_info.state', 'metabase_database.settings'])
    .where('persisted_info.card_id', 'in', models.map((m) => m.id))
    .where('persisted_info.state', 'in', READABLE_STATES)
    .execute();
  const uuid = await siteUuid(ctx);
  const { reportTimezone } = await querySettings(ctx);
  const out = new Map<number, PersistedModel>();
  for (const row of rows) {
    const model = models.find((m) => m.id === row.card_id);
    if (!model || !isActive(row) || row.database_id !== model.database_id) continue;
    if (!parseJson<Record<string, unknown>>(row.settings, {})['persist-models-enabled']) continue;
    if (row.query_hash !== datasetQueryHash(model.dataset_query, reportTimezone)) continue;
    const built = parseJson<Definition | null>(row.definition, null);
    const current = definitionOf({ id: model.id, name: model.name, result_metadata: JSON.stringify(model.result_metadata ?? []) });
    const names = (d: Definition | null) => (d?.['field-definitions'] ?? []).map((f) => f['field-name']).join('\u0000');
    if (!built || names(built) !== names(current)) continue;
    out.set(model.id, { cardId: model.id, schema: schemaName(uuid, row.database_id), table: row.table_name, columns: built['field-definitions'].map((f) => f['field-name']) });
  }
  return out;
});
