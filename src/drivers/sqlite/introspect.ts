// Tables (and views), columns, primary and foreign keys of a SQLite file, from sqlite_master and the pragma
// table functions. SQLite has no schemas: every table's schema is null.

import type Database from 'better-sqlite3';
import type { IntrospectedForeignKey, IntrospectedTable, Introspection } from '../driver.js';
import { sqliteBaseType } from './types.js';

interface ColumnInfo {
  cid: number;
  name: string;
  type: string;
  notnull: number;
  pk: number;
  hidden: number;
}

interface ForeignKeyInfo {
  table: string;
  from: string;
  to: string | null;
}

/** Row counts ANALYZE recorded in sqlite_stat1 (the first number of each entry), when the file has them. */
function estimatedRowCounts(db: Database.Database): Map<string, number> {
  const counts = new Map<string, number>();
  const hasStats = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'").get();
  if (!hasStats) return counts;
  for (const row of db.prepare('select tbl, stat from sqlite_stat1').all() as Array<{ tbl: string; stat: string | null }>) {
    const n = Number.parseInt(String(row.stat ?? '').split(' ')[0], 10);
    if (Number.isFinite(n)) counts.set(row.tbl, Math.max(counts.get(row.tbl) ?? 0, n));
  }
  return counts;
}

export function introspectSqlite(db: Database.Database): Introspection {
  const objects = db
    .prepare("select name, type, sql from sqlite_master where type in ('table', 'view') and name not like 'sqlite\\_%' escape '\\' order by name")
    .all() as Array<{ name: string; type: string; sql: string | null }>;
  const tableInfo = db.prepare('select * from pragma_table_xinfo(?)');
  const rowCounts = estimatedRowCounts(db);
  const fkList = db.prepare('select "table", "from", "to" from pragma_foreign_key_list(?)');
  const tables: IntrospectedTable[] = [];
  const foreignKeys: IntrospectedForeignKey[] = [];
  const primaryKeys = new Map<string, string[]>();
  for (const object of objects) {
    const columns = (tableInfo.all(object.name) as ColumnInfo[]).filter((c) => c.hidden === 0 || c.hidden === 2 || c.hidden === 3);
    const pkColumns = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    primaryKeys.set(object.name, pkColumns.map((c) => c.name));
    // A single INTEGER PRIMARY KEY column is an alias of the rowid: SQLite assigns it automatically.
    const rowidAlias = pkColumns.length === 1 && pkColumns[0].type.toUpperCase() === 'INTEGER';
    const autoIncrement = rowidAlias || /\bAUTOINCREMENT\b/i.test(object.sql ?? '');
    tables.push({
      schema: null,
      name: object.name,
      description: null,
      estimatedRowCount: rowCounts.get(object.name) ?? null,
      fields: columns.map((c, position) => ({
        name: c.name,
        databaseType: c.type || 'BLOB',
        baseType: sqliteBaseType(c.type),
        position,
        required: c.notnull === 1 && !(c.pk > 0 && autoIncrement),
        autoIncrement: c.pk > 0 && autoIncrement,
        primaryKey: c.pk > 0,
      })),
    });
  }
  for (const object of objects) {
    if (object.type !== 'table') continue;
    for (const fk of fkList.all(object.name) as ForeignKeyInfo[]) {
      // `REFERENCES t` without a column means t's primary key.
      const toColumn = fk.to ?? primaryKeys.get(fk.table)?.[0];
      if (!toColumn) continue;
      foreignKeys.push({ fromSchema: null, fromTable: object.name, fromColumn: fk.from, toSchema: null, toTable: fk.table, toColumn });
    }
  }
  return { tables, foreignKeys };
}
