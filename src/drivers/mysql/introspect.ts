// Tables, columns, primary and foreign keys of the connected MySQL/MariaDB database (information_schema).
// MySQL "databases" are what other engines call schemas; a connection covers one, so tables have a null schema.

import type { IntrospectedTable, Introspection } from '../driver.js';
import { mysqlBaseType, mysqlDatabaseType } from './types.js';

interface Queryable {
  query<T extends unknown[] = unknown[]>(sql: string, params?: unknown[]): Promise<T[]>;
}

export async function introspectMysql(db: Queryable): Promise<Introspection> {
  const tables = await db.query<[string, string, string | null, number | string | null]>(
    `select TABLE_NAME, TABLE_TYPE, TABLE_COMMENT, TABLE_ROWS from information_schema.TABLES
      where TABLE_SCHEMA = database() order by TABLE_NAME`,
  );
  const columns = await db.query<[string, string, number, string, string, string, string, string | null, string | null]>(
    `select TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE, EXTRA, COLUMN_COMMENT, COLUMN_DEFAULT
       from information_schema.COLUMNS where TABLE_SCHEMA = database() order by TABLE_NAME, ORDINAL_POSITION`,
  );
  const keys = await db.query<[string, string, string, string | null, string | null]>(
    `select TABLE_NAME, COLUMN_NAME, CONSTRAINT_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME
       from information_schema.KEY_COLUMN_USAGE where TABLE_SCHEMA = database()
        and (CONSTRAINT_NAME = 'PRIMARY' or REFERENCED_TABLE_NAME is not null)`,
  );
  const primary = new Set(keys.filter(([, , constraint]) => constraint === 'PRIMARY').map(([t, c]) => `${t}\u0000${c}`));
  const byName = new Map<string, IntrospectedTable>();
  for (const [name, type, comment, rows] of tables) {
    const description = comment && !(type === 'VIEW' && comment === 'VIEW') ? comment : null;
    byName.set(name, { schema: null, name, description, estimatedRowCount: type === 'VIEW' || rows === null ? null : Number(rows), fields: [] });
  }
  for (const [tableName, name, , dataType, columnType, nullable, extra, comment, defaultValue] of columns) {
    const table = byName.get(tableName);
    if (!table) continue;
    const autoIncrement = /auto_increment/i.test(extra ?? '');
    table.fields.push({
      name,
      databaseType: mysqlDatabaseType(dataType, columnType),
      baseType: mysqlBaseType(dataType, columnType),
      position: table.fields.length,
      required: nullable === 'NO' && !autoIncrement && defaultValue === null,
      autoIncrement,
      primaryKey: primary.has(`${tableName}\u0000${name}`),
      description: comment || null,
    });
  }
  const foreignKeys = keys
    .filter(([, , , referenced]) => referenced !== null)
    .map(([fromTable, fromColumn, , toTable, toColumn]) => ({
      fromSchema: null,
      fromTable,
      fromColumn,
      toSchema: null,
      toTable: toTable!,
      toColumn: toColumn!,
    }));
  return { tables: [...byName.values()], foreignKeys };
}
