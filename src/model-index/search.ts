// Indexed entities for GET /api/search: the indexed records whose text matches, of models the caller may read
// (not archived), each with its model and the model's collection. Only with a search text (a model may index 25,000
// records), at most `limit` per request, best matches first.

import { sql, type SqlBool } from 'kysely';
import type { AppContext } from '../context.js';
import { ilike, parseJson } from '../appdb/portable.js';
import type { CollectionAccess } from '../permissions/collections.js';

export interface IndexedEntityRow {
  model_pk: number;
  name: string;
  model_index_id: number;
  pk_ref: unknown;
  model_id: number;
  model_name: string;
  collection_id: number | null;
  database_id: number | null;
}

function words(text: string): string[] {
  return [...new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean))];
}

export async function indexedEntitySearchRows(
  ctx: AppContext,
  access: CollectionAccess,
  options: { q: string | null; tableDbId: number | null; limit: number },
): Promise<IndexedEntityRow[]> {
  const text = (options.q ?? '').trim();
  if (!text) return [];
  const terms = words(text);
  if (!terms.length) return [];
  let query = ctx.db
    .selectFrom('model_index_value')
    .innerJoin('model_index', 'model_index.id', 'model_index_value.model_index_id')
    .innerJoin('report_card', 'report_card.id', 'model_index.model_id')
    .select([
      'model_index_value.model_pk as model_pk',
      'model_index_value.name as name',
      'model_index.id as model_index_id',
      'model_index.pk_ref as pk_ref',
      'report_card.id as model_id',
      'report_card.name as model_name',
      'report_card.collection_id as collection_id',
      'report_card.database_id as database_id',
    ])
    .where('report_card.type', '=', 'model')
    .where('report_card.archived', '=', false)
    .where((eb) => access.filter(eb, 'report_card.collection_id'))
    .where(sql<SqlBool>`(${sql.join(terms.map((t) => ilike('model_index_value.name', t)), sql` or `)})`);
  if (options.tableDbId !== null) query = query.where('report_card.database_id', '=', options.tableDbId);
  // the whole text first, then the rest
  const rows = await query
    .orderBy(sql`case when ${ilike('model_index_value.name', text)} then 0 else 1 end`)
    .orderBy('model_index_value.id')
    .limit(options.limit)
    .execute();
  return rows.map((r) => ({ ...r, model_pk: Number(r.model_pk), pk_ref: parseJson(r.pk_ref, null) }));
}
