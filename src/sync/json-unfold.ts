// JSON columns unfolded into nested fields (engines with the `nested-field-columns` feature): the keys found in a
// sample of a column's documents become fields of their own, named "column → key", with `nfc_path`
// [column, key, …] and a type inferred from the values, so the query builder can filter and group by them.
// Unfolding is on for JSON fields by default and follows the field's `json_unfolding` switch. Keys that would make a
// name longer than the app DB's name column (254 characters) are left out, as over-long column names are.

import type { AppContext } from '../context.js';
import type { OpenDatabase } from '../databases/connections.js';
import type { FieldRow, TableRow } from '../databases/database-row.js';
import { bool, nowIso, parseJson } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';
import { humanize } from '../databases/humanize.js';
import { NAME_MAX, fitText } from '../util/fit.js';
import { fitsNameColumn, loggedName } from './names.js';
import { collectRows } from '../drivers/shared/row-stream.js';
import { tableSql } from './sql.js';

const SAMPLE = 500;
const MAX_DEPTH = 3;
const MAX_PATHS = 100;
const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/;

type Kind = 'integer' | 'float' | 'boolean' | 'timestamp' | 'text';
const TYPES: Record<Kind, [string, string]> = {
  integer: ['bigint', 'type/BigInteger'],
  float: ['decimal', 'type/Float'],
  boolean: ['boolean', 'type/Boolean'],
  timestamp: ['timestamp', 'type/DateTime'],
  text: ['text', 'type/Text'],
};

function kindOf(value: unknown): Kind | null {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'float';
  if (typeof value === 'string') return ISO_TIMESTAMP.test(value) ? 'timestamp' : 'text';
  return null;
}

function merge(a: Kind | undefined, b: Kind): Kind {
  if (!a || a === b) return b;
  if ((a === 'integer' && b === 'float') || (a === 'float' && b === 'integer')) return 'float';
  return 'text';
}

/** The leaf paths of the sampled documents and the kind of value at each. */
export function jsonPaths(documents: unknown[]): Map<string, Kind> {
  const paths = new Map<string, Kind>();
  const walk = (node: unknown, path: string[]) => {
    if (paths.size >= MAX_PATHS) return;
    if (node && typeof node === 'object' && !Array.isArray(node)) {
      if (path.length >= MAX_DEPTH) return;
      for (const [key, child] of Object.entries(node as Record<string, unknown>)) walk(child, [...path, key]);
      return;
    }
    const kind = kindOf(node);
    if (kind && path.length) {
      const key = JSON.stringify(path);
      paths.set(key, merge(paths.get(key), kind));
    }
  };
  for (const doc of documents) {
    const parsed = typeof doc === 'string' ? parseJson<unknown>(doc, null) : doc;
    walk(parsed, []);
  }
  return paths;
}

/** Creates, updates or retires the nested fields of the table's JSON columns. */
export async function unfoldJsonFields(ctx: AppContext, open: OpenDatabase, table: TableRow, fields: FieldRow[], signal?: AbortSignal): Promise<void> {
  const parents = fields.filter((f) => f.active && f.parent_id === null && f.nfc_path === null && f.base_type === 'type/JSON');
  const nested = fields.filter((f) => f.nfc_path !== null);
  const now = nowIso();
  const keep = new Set<number>();
  for (const parent of parents) {
    if (!bool(parent.json_unfolding)) continue;
    signal?.throwIfAborted();
    const column = open.driver.quoteIdentifier(parent.name);
    const rows = await collectRows(await open.connection.execute(`SELECT ${column} FROM ${tableSql(open.driver, table)} WHERE ${column} IS NOT NULL LIMIT ${SAMPLE}`, [], { signal, timeoutMs: 60_000 }));
    const paths = jsonPaths(rows.map((r) => r[0]));
    for (const [key, kind] of paths) {
      const path = [parent.name, ...(JSON.parse(key) as string[])];
      const name = path.join(' → ');
      if (!fitsNameColumn(name)) {
        ctx.log.warn({ db: open.database.id, table: table.name, column: parent.name, key: loggedName(name) }, `skipping a JSON key whose nested field name is longer than ${NAME_MAX} characters`);
        continue;
      }
      const nfc = JSON.stringify(path);
      const [databaseType, baseType] = TYPES[kind];
      const existing = nested.find((f) => f.nfc_path === nfc);
      if (existing) {
        keep.add(existing.id);
        if (!existing.active || existing.base_type !== baseType) {
          await ctx.db.updateTable('metabase_field').set({ active: true, base_type: baseType, effective_type: baseType, database_type: databaseType, updated_at: now }).where('id', '=', existing.id).execute();
        }
        continue;
      }
      await ctx.db
        .insertInto('metabase_field')
        .values({
          entity_id: newEntityId(), table_id: table.id, parent_id: null, name, display_name: fitText(path.map(humanize).join(' → '), NAME_MAX),
          description: null, database_type: databaseType, base_type: baseType, effective_type: baseType, semantic_type: null, coercion_strategy: null,
          active: true, visibility_type: 'normal', preview_display: true, position: parent.position, database_position: parent.database_position,
          custom_position: 0, database_is_auto_increment: false, database_required: false, database_indexed: null, nfc_path: nfc, json_unfolding: false,
          fk_target_field_id: null, has_field_values: null, settings: null, caveats: null, points_of_interest: null, fingerprint: null,
          fingerprint_version: 0, last_analyzed: null, admin_edited: null, created_at: now, updated_at: now,
        })
        .execute();
    }
  }
  const retired = nested.filter((f) => f.active && !keep.has(f.id)).map((f) => f.id);
  if (retired.length) await ctx.db.updateTable('metabase_field').set({ active: false, updated_at: now }).where('id', 'in', retired).execute();
}
