// The table under a model, for implicit actions: a model qualifies when it is a plain table (structured query with a
// source table and no clauses that change which rows or columns it shows). Its writable fields become the implicit
// actions' parameters, one per column, identified by the column's slug.

import type { AppContext } from '../context.js';
import type { CardRow } from '../cards/store.js';
import { datasetQueryOf, resultMetadataOf } from '../cards/store.js';
import type { FieldRow, TableRow } from '../databases/database-row.js';
import { isa } from '../databases/type-hierarchy.js';
import { bool } from '../appdb/portable.js';
import { normalizeQuery } from '../query/index.js';
import { slugify } from '../util/slug.js';

type Obj = Record<string, unknown>;

const CLAUSES = ['expressions', 'filter', 'limit', 'breakout', 'aggregation', 'joins', 'order-by', 'source-query', 'page'];

/** The model's source table id when it is a plain table query, else null. */
export function plainTableOf(model: CardRow): number | null {
  let query: ReturnType<typeof normalizeQuery>;
  try {
    query = normalizeQuery(datasetQueryOf(model));
  } catch {
    return null;
  }
  const inner = query.type === 'query' ? (query.query as Obj | undefined) : undefined;
  if (!inner || typeof inner['source-table'] !== 'number') return null;
  if (CLAUSES.some((c) => inner[c] !== undefined && inner[c] !== null)) return null;
  return inner['source-table'];
}

export interface ImplicitField {
  id: number;
  /** The column's name in the database. */
  name: string;
  slug: string;
  displayName: string;
  baseType: string;
  required: boolean;
  autoIncrement: boolean;
  pk: boolean;
}

export interface ModelTable {
  table: TableRow;
  fields: ImplicitField[];
  /** False when two columns share a slug ("name" and "NAME"): implicit actions can't tell them apart. */
  slugsUnique: boolean;
}

function writable(field: FieldRow): boolean {
  if (field.nfc_path || field.parent_id !== null) return false; // unfolded JSON can't be written back column-wise
  const type = field.effective_type ?? field.base_type;
  return type !== 'type/*' && !isa(type, 'type/Structured');
}

/** The tables under each plain-table model (one query for tables, one for fields). */
export async function modelTables(ctx: AppContext, models: CardRow[]): Promise<Map<number, ModelTable>> {
  const tableIdByModel = new Map<number, number>();
  for (const model of models) {
    const tableId = plainTableOf(model);
    if (tableId !== null) tableIdByModel.set(model.id, tableId);
  }
  const tableIds = [...new Set(tableIdByModel.values())];
  const out = new Map<number, ModelTable>();
  if (!tableIds.length) return out;
  const [tables, fields] = await Promise.all([
    ctx.db.selectFrom('metabase_table').selectAll().where('id', 'in', tableIds).execute(),
    ctx.db.selectFrom('metabase_field').selectAll().where('table_id', 'in', tableIds).where('active', '=', true).orderBy('database_position').orderBy('id').execute(),
  ]);
  const tableById = new Map(tables.map((t) => [t.id, t]));
  for (const model of models) {
    const tableId = tableIdByModel.get(model.id);
    const table = tableId === undefined ? undefined : tableById.get(tableId);
    if (!table) continue;
    const displayNames = new Map<number, string>();
    for (const column of resultMetadataOf(model) ?? []) {
      if (typeof column.id === 'number' && typeof column.display_name === 'string') displayNames.set(column.id, column.display_name);
    }
    const own = fields.filter((f) => f.table_id === table.id && writable(f));
    const slugs = own.map((f) => slugify(f.name));
    out.set(model.id, {
      table,
      slugsUnique: new Set(slugs).size === slugs.length,
      fields: own.map((f, i) => ({
        id: f.id,
        name: f.name,
        slug: slugs[i],
        displayName: displayNames.get(f.id) ?? f.display_name,
        baseType: f.base_type,
        required: bool(f.database_required),
        autoIncrement: bool(f.database_is_auto_increment),
        pk: f.semantic_type === 'type/PK',
      })),
    });
  }
  return out;
}

/** The parameters of an implicit action of `kind` on this table (none when its column slugs are ambiguous). */
export function implicitParameters(modelTable: ModelTable | undefined, kind: string | null): Obj[] {
  if (!modelTable || !modelTable.slugsUnique) return [];
  let fields = modelTable.fields;
  if (kind === 'row/delete' || kind === 'bulk/delete') fields = fields.filter((f) => f.pk);
  else if (kind === 'row/create' || kind === 'bulk/create') fields = fields.filter((f) => !f.autoIncrement);
  return fields.map((f) => ({
    id: f.slug,
    target: ['dimension', ['field', f.id, null]],
    type: f.baseType,
    'display-name': f.displayName,
    slug: f.slug,
    required: f.required || (f.pk && kind !== 'row/create' && kind !== 'bulk/create'),
    'is-auto-increment': f.autoIncrement,
  }));
}
