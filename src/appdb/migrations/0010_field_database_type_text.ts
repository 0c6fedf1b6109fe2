// metabase_field.database_type becomes text, as Metabase made it: engines spell structured types out in full
// (DuckDB's STRUCT of 20 VARCHARs is 500 characters, ClickHouse enums and Trino rows longer still), and a type
// longer than varchar(254) made PostgreSQL and MySQL refuse the field. SQLite never enforced the length.

import { sql, type Kysely } from 'kysely';
import type { AppDbDialect } from '../connect.js';

export async function up(db: Kysely<any>, dialect: AppDbDialect): Promise<void> {
  if (dialect === 'postgres') await sql`alter table metabase_field alter column database_type type text`.execute(db);
  else if (dialect === 'mysql') await sql`alter table metabase_field modify database_type longtext not null`.execute(db);
}
