// The table and field metadata a query needs (names, types, semantic types, FK targets, fingerprints), read from
// the app DB in batches: one query per kind of row, only for the tables and fields the query touches.

import type { AppContext } from '../context.js';
import { bool, parseJson } from '../appdb/portable.js';
import { invalidQuery } from './errors.js';

export interface TableMeta {
  id: number;
  db_id: number;
  schema: string | null;
  name: string;
  display_name: string;
  description: string | null;
  entity_type: string | null;
  visibility_type: string | null;
  field_order: string;
  active: boolean;
}

export interface FieldMeta {
  id: number;
  table_id: number;
  name: string;
  display_name: string;
  description: string | null;
  database_type: string;
  base_type: string;
  effective_type: string | null;
  semantic_type: string | null;
  coercion_strategy: string | null;
  visibility_type: string;
  position: number;
  database_position: number;
  custom_position: number;
  fk_target_field_id: number | null;
  parent_id: number | null;
  nfc_path: string[] | null;
  settings: Record<string, unknown> | null;
  fingerprint: Fingerprint | null;
  has_field_values: string | null;
  active: boolean;
}

export interface Fingerprint {
  global?: { 'distinct-count'?: number; 'nil%'?: number };
  type?: Record<string, Record<string, unknown>>;
}

const FIELD_COLUMNS = [
  'id', 'table_id', 'name', 'display_name', 'description', 'database_type', 'base_type', 'effective_type', 'semantic_type',
  'coercion_strategy', 'visibility_type', 'position', 'database_position', 'custom_position', 'fk_target_field_id',
  'parent_id', 'nfc_path', 'settings', 'fingerprint', 'has_field_values', 'active',
] as const;

const TABLE_COLUMNS = ['id', 'db_id', 'schema', 'name', 'display_name', 'description', 'entity_type', 'visibility_type', 'field_order', 'active'] as const;

function toField(row: Record<string, any>): FieldMeta {
  return {
    id: Number(row.id),
    table_id: Number(row.table_id),
    name: row.name,
    display_name: row.display_name,
    description: row.description ?? null,
    database_type: row.database_type,
    base_type: row.base_type,
    effective_type: row.effective_type ?? null,
    semantic_type: row.semantic_type ?? null,
    coercion_strategy: row.coercion_strategy ?? null,
    visibility_type: row.visibility_type ?? 'normal',
    position: Number(row.position ?? 0),
    database_position: Number(row.database_position ?? 0),
    custom_position: Number(row.custom_position ?? 0),
    fk_target_field_id: row.fk_target_field_id === null || row.fk_target_field_id === undefined ? null : Number(row.fk_target_field_id),
    parent_id: row.parent_id === null || row.parent_id === undefined ? null : Number(row.parent_id),
    nfc_path: parseJson<string[] | null>(row.nfc_path, null),
    settings: parseJson<Record<string, unknown> | null>(row.settings, null),
    fingerprint: parseJson<Fingerprint | null>(row.fingerprint, null),
    has_field_values: row.has_field_values ?? null,
    active: bool(row.active),
  };
}

function toTable(row: Record<string, any>): TableMeta {
  return {
    id: Number(row.id),
    db_id: Number(row.db_id),
    schema: row.schema ?? null,
    name: row.name,
    display_name: row.display_name,
    description: row.description ?? null,
    entity_type: row.entity_type ?? null,
    visibility_type: row.visibility_type ?? null,
    field_order: row.field_order ?? 'database',
    active: bool(row.active),
  };
}

/** Metadata loaded so far for one query; `load*` fetch what is missing in one round trip each. */
export class Metadata {
  readonly tables = new Map<number, TableMeta>();
  readonly fields = new Map<number, FieldMeta>();
  private readonly tablesWithAllFields = new Set<number>();

  constructor(private readonly ctx: AppContext | null) {}

  async loadFields(ids: Iterable<number>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => Number.isInteger(id) && !this.fields.has(id));
    if (missing.length && this.ctx) {
      const rows = await this.ctx.db.selectFrom('metabase_field').select([...FIELD_COLUMNS]).where('id', 'in', missing).execute();
      for (const row of rows) this.fields.set(Number(row.id), toField(row));
    }
    await this.loadTables([...this.fields.values()].map((f) => f.table_id));
  }

  async loadTables(ids: Iterable<number>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => Number.isInteger(id) && !this.tables.has(id));
    if (!missing.length || !this.ctx) return;
    const rows = await this.ctx.db.selectFrom('metabase_table').select([...TABLE_COLUMNS]).where('id', 'in', missing).execute();
    for (const row of rows) this.tables.set(Number(row.id), toTable(row));
  }

  /** The tables and every one of their fields (for default `fields`, joins with `fields: "all"`). */
  async loadTablesWithFields(ids: Iterable<number>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => Number.isInteger(id) && !this.tablesWithAllFields.has(id));
    if (!missing.length) return;
    await this.loadTables(missing);
    if (this.ctx) {
      const rows = await this.ctx.db.selectFrom('metabase_field').select([...FIELD_COLUMNS]).where('table_id', 'in', missing).execute();
      for (const row of rows) if (!this.fields.has(Number(row.id))) this.fields.set(Number(row.id), toField(row));
    }
    for (const id of missing) this.tablesWithAllFields.add(id);
  }

  /**
   * What a query needs, in two round trips: the fields it names, every field of `tableIds` (source and joined
   * tables), the FK targets of `fkFieldIds` (implicit joins), then the tables of all those fields.
   */
  async loadForQuery(request: { tableIds: number[]; fieldIds: number[]; fkFieldIds: number[] }): Promise<void> {
    const tableIds = [...new Set(request.tableIds)].filter((id) => !this.tablesWithAllFields.has(id));
    const fieldIds = [...new Set([...request.fieldIds, ...request.fkFieldIds])].filter((id) => !this.fields.has(id));
    const fkIds = [...new Set(request.fkFieldIds)];
    if (this.ctx && (tableIds.length || fieldIds.length || fkIds.length)) {
      const rows = await this.ctx.db
        .selectFrom('metabase_field')
        .select([...FIELD_COLUMNS])
        .where((eb) =>
          eb.or([
            ...(tableIds.length ? [eb('table_id', 'in', tableIds)] : []),
            ...(fieldIds.length ? [eb('id', 'in', fieldIds)] : []),
            ...(fkIds.length ? [eb('id', 'in', eb.selectFrom('metabase_field as fk').select('fk.fk_target_field_id').where('fk.id', 'in', fkIds))] : []),
          ]),
        )
        .execute();
      for (const row of rows) if (!this.fields.has(Number(row.id))) this.fields.set(Number(row.id), toField(row));
    }
    for (const id of tableIds) this.tablesWithAllFields.add(id);
    await this.loadTables([...tableIds, ...[...this.fields.values()].map((f) => f.table_id)]);
  }

  /** Adds metadata directly (tests, and callers that already hold it). */
  add(tables: TableMeta[], fields: FieldMeta[]): void {
    for (const t of tables) this.tables.set(t.id, t);
    for (const f of fields) this.fields.set(f.id, f);
    for (const t of tables) this.tablesWithAllFields.add(t.id);
  }

  table(id: number): TableMeta {
    const t = this.tables.get(id);
    if (!t) throw invalidQuery(`Table ${id} does not exist.`, { 'table-id': id });
    return t;
  }

  field(id: number): FieldMeta {
    const f = this.fields.get(id);
    if (!f) throw invalidQuery(`Field ${id} does not exist.`, { 'field-id': id });
    return f;
  }

  /** The fields a query shows by default: active, not sensitive or retired, top-level, in the table's order. */
  defaultFields(tableId: number): FieldMeta[] {
    const table = this.table(tableId);
    const list = [...this.fields.values()].filter(
      (f) => f.table_id === tableId && f.active && f.parent_id === null && f.visibility_type !== 'sensitive' && f.visibility_type !== 'retired',
    );
    const key = (f: FieldMeta) =>
      table.field_order === 'custom' ? f.custom_position : table.field_order === 'alphabetical' ? 0 : table.field_order === 'smart' ? f.position : f.database_position;
    return list.sort((a, b) => {
      if (table.field_order === 'alphabetical') return a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0;
      return key(a) - key(b) || a.id - b.id;
    });
  }

  primaryKeyOf(tableId: number): FieldMeta | undefined {
    return [...this.fields.values()].find((f) => f.table_id === tableId && f.semantic_type === 'type/PK');
  }
}
