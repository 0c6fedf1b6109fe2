// Schemas, tables (tables, views, materialized views, foreign and partitioned tables), columns, primary and
// foreign keys of a PostgreSQL database from pg_catalog — only what the connected user may read.

import type { IntrospectedForeignKey, IntrospectedTable, Introspection } from '../driver.js';
import { postgresBaseType } from './types.js';

interface Queryable {
  query<T extends unknown[] = unknown[]>(sql: string, params?: unknown[]): Promise<T[]>;
}

const SYSTEM_SCHEMA = `n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp\\_%'`;

export async function listPostgresSchemas(db: Queryable): Promise<string[]> {
  const rows = await db.query<[string]>(
    `select n.nspname from pg_namespace n where ${SYSTEM_SCHEMA} and has_schema_privilege(n.oid, 'USAGE') order by n.nspname`,
  );
  return rows.map(([name]) => name);
}

export async function introspectPostgres(db: Queryable, keepSchema: (schema: string) => boolean): Promise<Introspection> {
  const relations = await db.query<[number, string, string, string | null, number | string | null]>(
    `select c.oid::int, n.nspname, c.relname, obj_description(c.oid, 'pg_class'), c.reltuples::bigint
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'f') and not c.relispartition and ${SYSTEM_SCHEMA}
        and has_schema_privilege(n.oid, 'USAGE') and has_table_privilege(c.oid, 'SELECT')
      order by n.nspname, c.relname`,
  );
  const kept = relations.filter(([, schema]) => keepSchema(schema));
  if (!kept.length) return { tables: [], foreignKeys: [] };
  const oids = kept.map(([oid]) => oid);
  const columns = await db.query<[number, string, number, string, string, boolean, string, string | null, string | null, string]>(
    `select a.attrelid::int, a.attname, a.attnum::int, t.typname, t.typtype, a.attnotnull, a.attidentity,
            pg_get_expr(d.adbin, d.adrelid), col_description(a.attrelid, a.attnum), a.attgenerated
       from pg_attribute a
       join pg_type t on t.oid = a.atttypid
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = any($1) and a.attnum > 0 and not a.attisdropped
      order by a.attrelid, a.attnum`,
    [oids],
  );
  const primaryKeys = await db.query<[number, number]>(
    `select con.conrelid::int, k.attnum::int from pg_constraint con, unnest(con.conkey) as k(attnum)
      where con.contype = 'p' and con.conrelid = any($1)`,
    [oids],
  );
  const foreign = await db.query<[string, string, string, string, string, string]>(
    `select fn.nspname, fc.relname, fa.attname, tn.nspname, tc.relname, ta.attname
       from pg_constraint con
       join lateral unnest(con.conkey, con.confkey) as k(fromnum, tonum) on true
       join pg_class fc on fc.oid = con.conrelid join pg_namespace fn on fn.oid = fc.relnamespace
       join pg_attribute fa on fa.attrelid = con.conrelid and fa.attnum = k.fromnum
       join pg_class tc on tc.oid = con.confrelid join pg_namespace tn on tn.oid = tc.relnamespace
       join pg_attribute ta on ta.attrelid = con.confrelid and ta.attnum = k.tonum
      where con.contype = 'f' and con.conrelid = any($1)`,
    [oids],
  );
  const pkSet = new Set(primaryKeys.map(([rel, num]) => `${rel}:${num}`));
  const byTable = new Map<number, IntrospectedTable>();
  for (const [oid, schema, name, description, estimate] of kept) {
    const n = estimate === null ? null : Number(estimate);
    byTable.set(oid, { schema, name, description, estimatedRowCount: n !== null && n >= 0 ? n : null, fields: [] });
  }
  for (const [rel, name, attnum, typname, typtype, notNull, identity, defaultExpr, description] of columns) {
    const table = byTable.get(rel);
    if (!table) continue;
    const serial = /^nextval\(/.test(defaultExpr ?? '');
    const autoIncrement = serial || identity === 'a' || identity === 'd';
    const databaseType = serial ? ({ int8: 'bigserial', int4: 'serial', int2: 'smallserial' } as Record<string, string>)[typname] ?? typname : typname;
    table.fields.push({
      name,
      databaseType,
      baseType: postgresBaseType(typname, typtype),
      position: table.fields.length,
      required: notNull && !autoIncrement && defaultExpr === null,
      autoIncrement,
      primaryKey: pkSet.has(`${rel}:${attnum}`),
      description,
    });
  }
  const foreignKeys: IntrospectedForeignKey[] = foreign.map(([fromSchema, fromTable, fromColumn, toSchema, toTable, toColumn]) => ({
    fromSchema, fromTable, fromColumn, toSchema, toTable, toColumn,
  }));
  return { tables: [...byTable.values()], foreignKeys };
}
