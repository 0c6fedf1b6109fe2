// A model as the assistant sees it: one table named after the model (Metabase's normalize-name: upper-case words
// joined by `_`), its result columns with their names, display names, types and — for columns that come from a
// field — that field's stored values.

import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { notFound } from '../http/errors.js';
import { collectionAccess } from '../permissions/collections.js';
import { readableCard } from '../cards/cards.js';
import { resultMetadataOf } from '../cards/store.js';
import { bool } from '../appdb/portable.js';
import { loadFieldValues } from '../databases/field-values.js';
import { listedValues, type ColumnInfo, type TableInfo } from './metadata.js';

export interface ModelSource {
  id: number;
  databaseId: number;
  table: TableInfo;
}

/** Metabase's normalize-name: `People - User → ID` → `PEOPLE_USER_ID`. */
export function sqlName(name: string): string {
  const normalized = name.toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim().replace(/ /g, '_');
  return normalized || 'MODEL';
}

/** The model the caller may read (404 for anything that isn't a model, 403 for a collection they can't read). */
export async function loadModel(ctx: AppContext, caller: Caller, modelId: number): Promise<ModelSource> {
  const row = await readableCard(ctx, await collectionAccess(ctx, caller), modelId);
  if (row.type !== 'model' || bool(row.archived) || row.database_id === null) throw notFound();
  const metadata = (resultMetadataOf(row) ?? []).filter((m) => typeof m.name === 'string');
  const fieldIds = metadata.map((m) => m.id).filter((id): id is number => typeof id === 'number');
  const values = await loadFieldValues(ctx, fieldIds);
  const columns: ColumnInfo[] = metadata.map((m, i) => {
    const stored = typeof m.id === 'number' ? values.get(m.id) : undefined;
    return {
      // a negative id for columns without a field (expressions, aggregations): never a field id
      id: typeof m.id === 'number' ? m.id : -(i + 1),
      name: String(m.name),
      displayName: typeof m.display_name === 'string' ? m.display_name : String(m.name),
      description: typeof m.description === 'string' ? m.description : null,
      databaseType: typeof m.database_type === 'string' ? m.database_type : String(m.base_type ?? ''),
      baseType: String(m.base_type ?? 'type/*'),
      semanticType: typeof m.semantic_type === 'string' ? m.semantic_type : null,
      fkTargetFieldId: null,
      values: listedValues(stored),
    };
  });
  return {
    id: row.id,
    databaseId: row.database_id,
    table: { id: -row.id, schema: null, name: sqlName(row.name), displayName: row.name, description: row.description ?? null, listed: true, columns },
  };
}

/** Metabase's native card over a model: `WITH <NAME> AS (SELECT * FROM {{#id}} AS INNER_QUERY) <sql>` and its card tag. */
export function modelCardQuery(model: ModelSource, sql: string) {
  const tag = `#${model.id}`;
  return {
    database: model.databaseId,
    type: 'native',
    native: {
      query: `WITH ${model.table.name} AS (SELECT * FROM {{${tag}}} AS INNER_QUERY)\n${sql}`,
      'template-tags': { [tag]: { type: 'card', name: tag, 'display-name': tag, id: randomUUID(), 'card-id': model.id } },
    },
  };
}
