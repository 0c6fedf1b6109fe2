// Fields with their relations, loaded in batches (one query per kind of related row, never one per field):
// `target` (the field an FK points to), `dimensions` (remappings), `name_field` (for a PK: its table's name
// field), `values` (stored field values) and `table`.

import type { AppContext } from '../context.js';
import type { FieldRow, TableRow } from './database-row.js';
import { dimensionJson, fieldJson, tableJson } from './json.js';
import { dimensionsOf, type DimensionRow } from './dimensions.js';
import { loadFieldValues, valuePairs, effectiveHasFieldValues } from './field-values.js';

export interface HydrateOptions {
  target?: boolean;
  dimensions?: boolean;
  nameField?: boolean;
  values?: boolean;
  /** Adds `table` (the field's table) from these rows, loading any that are missing. */
  table?: boolean;
  tables?: Map<number, TableRow>;
}

async function fieldsById(ctx: AppContext, ids: number[]): Promise<Map<number, FieldRow>> {
  if (!ids.length) return new Map();
  const rows = await ctx.db.selectFrom('metabase_field').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** The field shown for a table's rows: its Name field, else its Title. */
export function pickNameField(fields: FieldRow[]): FieldRow | null {
  const active = fields.filter((f) => f.active);
  return active.find((f) => f.semantic_type === 'type/Name') ?? active.find((f) => f.semantic_type === 'type/Title') ?? null;
}

export async function hydrateFields(ctx: AppContext, fields: FieldRow[], options: HydrateOptions): Promise<Record<string, unknown>[]> {
  const ids = fields.map((f) => f.id);
  const targets = options.target ? await fieldsById(ctx, [...new Set(fields.map((f) => f.fk_target_field_id).filter((id): id is number => id !== null))]) : new Map<number, FieldRow>();
  const dimensions = options.dimensions ? await dimensionsOf(ctx, ids) : new Map<number, DimensionRow[]>();
  const humanReadableIds = [...dimensions.values()].flat().map((d) => d.human_readable_field_id).filter((id): id is number => id !== null);
  const humanReadable = await fieldsById(ctx, [...new Set(humanReadableIds)]);
  const values = options.values ? await loadFieldValues(ctx, fields.filter((f) => effectiveHasFieldValues(f) === 'list').map((f) => f.id)) : new Map();
  let nameFields = new Map<number, FieldRow | null>();
  if (options.nameField) {
    const pkTables = [...new Set(fields.filter((f) => f.semantic_type === 'type/PK').map((f) => f.table_id))];
    if (pkTables.length) {
      const siblings = await ctx.db.selectFrom('metabase_field').selectAll().where('table_id', 'in', pkTables).where('active', '=', true).execute();
      nameFields = new Map(pkTables.map((t) => [t, pickNameField(siblings.filter((f) => f.table_id === t))]));
    }
  }
  let tables = options.tables ?? new Map<number, TableRow>();
  if (options.table) {
    const missing = [...new Set(fields.map((f) => f.table_id))].filter((id) => !tables.has(id));
    if (missing.length) {
      const rows = await ctx.db.selectFrom('metabase_table').selectAll().where('id', 'in', missing).execute();
      tables = new Map([...tables, ...rows.map((r) => [r.id, r] as const)]);
    }
  }
  return fields.map((f) => {
    const json = fieldJson(f);
    if (options.target) {
      const target = f.fk_target_field_id !== null ? targets.get(f.fk_target_field_id) : undefined;
      json.target = target ? fieldJson(target) : null;
    }
    if (options.dimensions) {
      json.dimensions = (dimensions.get(f.id) ?? []).map((d) => {
        const hr = d.human_readable_field_id !== null ? humanReadable.get(d.human_readable_field_id) : undefined;
        return dimensionJson(d, d.type === 'external' ? (hr ? fieldJson(hr) : null) : undefined);
      });
    }
    if (options.nameField) {
      const nameField = f.semantic_type === 'type/PK' ? nameFields.get(f.table_id) : null;
      json.name_field = nameField ? fieldJson(nameField) : null;
    }
    if (options.values && json.has_field_values === 'list') {
      json.values = valuePairs(values.get(f.id));
    }
    if (options.table) {
      const table = tables.get(f.table_id);
      json.table = table ? tableJson(table) : null;
    }
    return json;
  });
}
