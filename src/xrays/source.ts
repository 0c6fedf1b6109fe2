// What an X-ray looks at, read from the synced metadata in the app DB (never from the data source): a table with its
// fields and the fields of the tables its foreign keys point at (one hop, readable tables only), or a saved
// question/model read as a table of its result columns. Fingerprints (computed at sync from a bounded sample) stand in
// for statistics, so building an X-ray costs a handful of app-DB reads whatever the table's size.

import type { AppContext } from '../context.js';
import { bool, parseJson } from '../appdb/portable.js';
import type { DataAccess } from '../databases/access.js';
import type { FieldRow, TableRow } from '../databases/database-row.js';
import { humanize } from './names.js';

type Obj = Record<string, unknown>;

export interface Fingerprint {
  global?: { 'distinct-count'?: number; 'nil%'?: number };
  type?: { 'type/Number'?: { min?: number | null; max?: number | null }; 'type/DateTime'?: { earliest?: string | null; latest?: string | null } };
}

export interface XField {
  /** The app-DB field id; null for columns of a native question or model without one. */
  id: number | null;
  name: string;
  displayName: string;
  baseType: string;
  effectiveType: string;
  semanticType: string | null;
  fingerprint: Fingerprint | null;
  tableId: number | null;
  fkTargetFieldId: number | null;
  /** The root table's foreign key this field is reached through, and that key's name without " ID". */
  via: number | null;
  viaName: string | null;
  /** The entity type of the table the field lives on, when reached through a foreign key. */
  linkedEntityType: string | null;
  /** How a query of the source refers to the field (no options). */
  ref: unknown[];
}

export interface XSource {
  databaseId: number;
  table: TableRow | null;
  /** The saved question or model the source is, for `card__<id>` sources. */
  cardId: number | null;
  sourceTable: number | string;
  name: string;
  entityType: string;
  fields: XField[];
}

export const distinctCount = (f: XField): number | null => f.fingerprint?.global?.['distinct-count'] ?? null;

function isVisible(row: FieldRow): boolean {
  return bool(row.active) && row.visibility_type === 'normal' && bool(row.preview_display) && row.parent_id === null;
}

/** A synced field as an X-ray sees it (`via`: the root table's foreign key it is reached through). */
export function fieldOf(row: FieldRow, via: FieldRow | null = null, linkedEntityType: string | null = null): XField {
  return {
    id: row.id,
    name: row.name,
    displayName: row.display_name,
    baseType: row.base_type,
    effectiveType: row.effective_type ?? row.base_type,
    semanticType: row.semantic_type,
    fingerprint: parseJson<Fingerprint | null>(row.fingerprint, null),
    tableId: row.table_id,
    fkTargetFieldId: row.fk_target_field_id,
    via: via?.id ?? null,
    viaName: via ? via.display_name.replace(/ ?id$/i, '') || via.display_name : null,
    linkedEntityType,
    ref: via ? ['field', row.id, { 'source-field': via.id }] : ['field', row.id, null],
  };
}

function readable(access: DataAccess, t: TableRow): boolean {
  return bool(t.active) && (t.visibility_type === null || t.visibility_type === 'normal') && (access.isSuperuser || access.canQueryTable(t));
}

/** A table as an X-ray source: its visible fields, then those of the readable tables its foreign keys point at. */
export async function tableSource(ctx: AppContext, access: DataAccess, table: TableRow): Promise<XSource> {
  const own = (await ctx.db.selectFrom('metabase_field').selectAll().where('table_id', '=', table.id).orderBy('position').orderBy('id').execute()).filter(isVisible);
  const fks = own.filter((f) => f.semantic_type === 'type/FK' && f.fk_target_field_id !== null);
  const fields = own.map((f) => fieldOf(f, null, null));
  if (fks.length) {
    const targets = [...new Set(fks.map((f) => f.fk_target_field_id as number))];
    const rows = await ctx.db
      .selectFrom('metabase_field as target')
      .innerJoin('metabase_table as t', 't.id', 'target.table_id')
      .innerJoin('metabase_field as f', 'f.table_id', 't.id')
      .selectAll('f')
      .select(['target.id as target_id', 't.entity_type as t_entity_type', 't.active as t_active', 't.visibility_type as t_visibility', 't.db_id as t_db_id', 't.schema as t_schema'])
      .where('target.id', 'in', targets)
      .orderBy('f.position')
      .orderBy('f.id')
      .execute();
    for (const fk of fks) {
      for (const row of rows) {
        if (row.target_id !== fk.fk_target_field_id || row.table_id === table.id) continue;
        const t = { id: row.table_id, db_id: row.t_db_id, schema: row.t_schema, active: row.t_active, visibility_type: row.t_visibility } as TableRow;
        if (!readable(access, t) || !isVisible(row)) continue;
        if (row.semantic_type === 'type/PK' || row.semantic_type === 'type/FK') continue;
        fields.push(fieldOf(row, fk, row.t_entity_type));
      }
    }
  }
  return { databaseId: table.db_id, table, cardId: null, sourceTable: table.id, name: table.display_name, entityType: table.entity_type ?? 'entity/GenericTable', fields };
}

/** A saved question or model read as a table of its result columns (`card__<id>`, refs by column name). */
export function cardSource(card: { id: number; name: string; database_id: number | null; result_metadata: string | null }): XSource {
  const columns = parseJson<Obj[] | null>(card.result_metadata, null) ?? [];
  const fields: XField[] = columns
    .filter((c) => typeof c.name === 'string' && (c.visibility_type === undefined || c.visibility_type === null || c.visibility_type === 'normal'))
    .map((c) => {
      const baseType = typeof c.base_type === 'string' ? c.base_type : 'type/*';
      return {
        id: typeof c.id === 'number' ? c.id : null,
        name: String(c.name),
        displayName: typeof c.display_name === 'string' ? c.display_name : humanize(String(c.name)),
        baseType,
        effectiveType: typeof c.effective_type === 'string' ? c.effective_type : baseType,
        semanticType: typeof c.semantic_type === 'string' ? c.semantic_type : null,
        fingerprint: (c.fingerprint as Fingerprint | null) ?? null,
        tableId: null,
        fkTargetFieldId: typeof c.fk_target_field_id === 'number' ? c.fk_target_field_id : null,
        via: null,
        viaName: null,
        linkedEntityType: null,
        ref: ['field', String(c.name), { 'base-type': baseType }],
      };
    });
  return {
    databaseId: card.database_id ?? 0,
    table: null,
    cardId: card.id,
    sourceTable: `card__${card.id}`,
    name: card.name,
    entityType: 'entity/GenericTable',
    fields,
  };
}

/** A field ref with options added (temporal unit, binning), for id refs and name refs alike. */
export function refWith(field: XField, options: Obj): unknown[] {
  const [, key, existing] = field.ref as [string, number | string, Obj | null];
  return ['field', key, { ...(existing ?? {}), ...options }];
}
