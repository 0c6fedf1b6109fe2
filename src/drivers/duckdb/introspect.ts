// Schemas, tables and views, columns, primary and foreign keys of the DuckDB file's own catalog.

import type { IntrospectedTable, Introspection } from '../driver.js';
import { duckdbBaseType } from './types.js';

interface Queryable {
  query<T extends unknown[] = unknown[]>(sql: string, params?: unknown[]): Promise<T[]>;
}

const OWN_CATALOG = 'database_name = current_database() and not internal';

export async function listDuckdbSchemas(db: Queryable): Promise<string[]> {
  const rows = await db.query<[string]>(
    `select schema_name from duckdb_schemas() where database_name = current_database() and schema_name not in ('information_schema', 'pg_catalog') order by schema_name`,
  );
  return rows.map(([s]) => s);
}

export async function introspectDuckdb(db: Queryable, keepSchema: (schema: string) => boolean): Promise<Introspection> {
  const relations = await db.query<[string, string, string | null, number | string | null]>(
    `select schema_name, table_name, comment, estimated_size from duckdb_tables() where ${OWN_CATALOG} and not temporary
     union all
     select schema_name, view_name, comment, null from duckdb_views() where ${OWN_CATALOG} and not temporary
     order by 1, 2`,
  );
  const columns = await db.query<[string, string, string, number, string, boolean, string | null, string | null]>(
    `select schema_name, table_name, column_name, column_index, data_type, is_nullable, comment, column_default
       from duckdb_columns() where ${OWN_CATALOG} order by schema_name, table_name, column_index`,
  );
  const constraints = await db.query<[string, string, string, string, string | null, string | null]>(
    `select schema_name, table_name, constraint_type, to_json(constraint_column_names)::varchar,
            referenced_table, to_json(referenced_column_names)::varchar
       from duckdb_constraints() where database_name = current_database()
        and constraint_type in ('PRIMARY KEY', 'FOREIGN KEY')`,
  );
  const key = (schema: string, table: string) => `${schema}\u0000${table}`;
  const primary = new Set<string>();
  const foreignKeys: Introspection['foreignKeys'] = [];
  for (const [schema, table, type, columnsJson, referencedTable, referencedJson] of constraints) {
    const cols = JSON.parse(columnsJson) as string[];
    if (type === 'PRIMARY KEY') for (const c of cols) primary.add(`${key(schema, table)}\u0000${c}`);
    else if (referencedTable && referencedJson) {
      const targets = JSON.parse(referencedJson) as string[];
      cols.forEach((c, i) => {
        if (targets[i]) foreignKeys.push({ fromSchema: schema, fromTable: table, fromColumn: c, toSchema: schema, toTable: referencedTable, toColumn: targets[i] });
      });
    }
  }
  const tables = new Map<string, IntrospectedTable>();
  for (const [schema, name, comment, estimate] of relations) {
    if (!keepSchema(schema)) continue;
    tables.set(key(schema, name), { schema, name, description: comment || null, estimatedRowCount: estimate === null ? null : Number(estimate), fields: [] });
  }
  for (const [schema, tableName, name, , dataType, nullable, comment, defaultValue] of columns) {
    const table = tables.get(key(schema, tableName));
    if (!table) continue;
    const autoIncrement = /^nextval\(/i.test(defaultValue ?? '');
    table.fields.push({
      name,
      databaseType: dataType,
      baseType: duckdbBaseType(dataType),
      position: table.fields.length,
      required: !nullable && !autoIncrement && defaultValue === null,
      autoIncrement,
      primaryKey: primary.has(`${key(schema, tableName)}\u0000${name}`),
      description: comment || null,
    });
  }
  return { tables: [...tables.values()], foreignKeys: foreignKeys.filter((fk) => keepSchema(fk.fromSchema ?? '')) };
}
