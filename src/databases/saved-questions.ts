// The "Saved Questions" virtual database (id -1337): saved questions shown as tables, grouped into "schemas" by
// collection, so a question can start from another question. Models are listed apart, under /datasets (as Metabase
// does); `card__<id>` table metadata works for both. Reads cards (owned by src/cards)
// without writing them; only cards the caller may read, and only once their result metadata is known.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { bool, parseJson } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { notFound } from '../http/errors.js';

export const SAVED_QUESTIONS_ID = -1337;
export const ROOT_SCHEMA = 'Everything else';

const VIRTUAL_FEATURES = [
  'basic-aggregations', 'binning', 'case-sensitivity-string-filter-options', 'expression-aggregations', 'expressions',
  'foreign-keys', 'inner-join', 'left-join', 'native-parameters', 'nested-queries', 'right-join', 'standard-deviation-aggregations',
];

interface VirtualCard {
  id: number;
  name: string;
  description: string | null;
  type: string;
  databaseId: number | null;
  schema: string;
  resultMetadata: Array<Record<string, unknown>>;
  entityId: string;
}

async function readableCards(ctx: AppContext, caller: Caller, kind: 'question' | 'model' | 'any' = 'any'): Promise<VirtualCard[]> {
  let query = ctx.db
    .selectFrom('report_card as c')
    .leftJoin('collection as col', 'col.id', 'c.collection_id')
    .select(['c.id', 'c.name', 'c.description', 'c.type', 'c.database_id', 'c.collection_id', 'c.result_metadata', 'c.entity_id', 'c.archived', 'col.name as collection_name'])
    .where('c.archived', '=', false)
    .where('c.type', 'in', kind === 'any' ? ['question', 'model'] : [kind]);
  query = query.where('c.result_metadata', 'is not', null);
  const rows = await query.orderBy('c.name').execute();
  const access = await collectionAccess(ctx, caller);
  return rows
    .filter((r) => !bool(r.archived) && access.canRead(r.collection_id))
    .map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      type: r.type,
      databaseId: r.database_id,
      schema: r.collection_name ?? ROOT_SCHEMA,
      resultMetadata: parseJson<Array<Record<string, unknown>>>(r.result_metadata, []),
      entityId: r.entity_id,
    }))
    .filter((c) => c.resultMetadata.length > 0);
}

function virtualFields(card: VirtualCard): Record<string, unknown>[] {
  return card.resultMetadata.map((col) => {
    const name = String(col.name ?? '');
    const baseType = String(col.base_type ?? 'type/*');
    return {
      ...col,
      id: ['field', name, { 'base-type': baseType }],
      name,
      display_name: col.display_name ?? name,
      base_type: baseType,
      effective_type: col.effective_type ?? baseType,
      semantic_type: col.semantic_type ?? null,
      table_id: `card__${card.id}`,
      field_ref: col.field_ref ?? ['field', name, { 'base-type': baseType }],
    };
  });
}

export function virtualTableJson(card: VirtualCard, withFields = false): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: `card__${card.id}`,
    db_id: SAVED_QUESTIONS_ID,
    display_name: card.name,
    name: card.name,
    schema: card.schema,
    description: card.description,
    type: card.type,
    moderated_status: null,
    entity_id: card.entityId,
  };
  if (withFields) json.fields = virtualFields(card);
  return json;
}

export function savedQuestionsShell(): Record<string, unknown> {
  return { id: SAVED_QUESTIONS_ID, name: 'Saved Questions', is_saved_questions: true, features: VIRTUAL_FEATURES };
}

/** The virtual database for `GET /api/database?saved=true` (questions only), or null when there are no saved questions. */
export async function savedQuestionsDatabase(ctx: AppContext, caller: Caller, includeTables: boolean): Promise<Record<string, unknown> | null> {
  const cards = await readableCards(ctx, caller, 'question');
  if (!cards.length) return null;
  const json = savedQuestionsShell();
  if (includeTables) json.tables = cards.map((c) => virtualTableJson(c));
  return json;
}

export async function virtualSchemas(ctx: AppContext, caller: Caller, kind: 'question' | 'model' | 'any'): Promise<string[]> {
  const cards = await readableCards(ctx, caller, kind);
  return [...new Set(cards.map((c) => c.schema))].sort();
}

/** The questions (or models) of one collection ("schema"); a collection name that doesn't exist is a 404. */
export async function virtualSchemaTables(ctx: AppContext, caller: Caller, schema: string, kind: 'question' | 'model' | 'any') {
  if (schema !== ROOT_SCHEMA) {
    const collection = await ctx.db.selectFrom('collection').select('id').where('name', '=', schema).executeTakeFirst();
    if (!collection) throw notFound();
  }
  const cards = await readableCards(ctx, caller, kind);
  return cards.filter((c) => c.schema === schema).map((c) => virtualTableJson(c));
}

export async function virtualMetadata(ctx: AppContext, caller: Caller) {
  const cards = await readableCards(ctx, caller, 'question');
  return { ...savedQuestionsShell(), tables: cards.map((c) => virtualTableJson(c, true)) };
}

/** GET /api/table/card__:id/query_metadata: a saved question as a table. */
export async function virtualTableMetadata(ctx: AppContext, caller: Caller, cardId: number): Promise<Record<string, unknown> | null> {
  const cards = await readableCards(ctx, caller);
  const card = cards.find((c) => c.id === cardId);
  return card ? virtualTableJson(card, true) : null;
}
