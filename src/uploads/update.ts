// POST /api/table/:id/append-csv and /replace-csv: more rows for a table that an upload made, or new contents for
// it. The CSV's columns are matched to the table's by name (as a new upload would name them); a column the table
// lacks is added to it, a column the CSV lacks is refused, and every value must fit its column's type — all checked
// before the table is touched. Replacing deletes the old rows and inserts the new ones in one transaction on
// PostgreSQL and MySQL/MariaDB. The table is synced afterwards (new columns, fingerprints).

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError, forbidden, notFound } from '../http/errors.js';
import { dataAccess } from '../permissions/data-access.js';
import { connectionFor } from '../databases/connections.js';
import { collectRows } from '../drivers/shared/row-stream.js';
import { runSync } from '../sync/runner.js';
import { bool } from '../appdb/portable.js';
import { parseCsv } from './csv.js';
import { columnTypes, commonType, parseValue, valueType, type UploadType } from './types.js';
import { columnNamesOf, slug } from './names.js';
import {
  addColumnStatement, AUTO_PK_COLUMN, deleteAllStatement, insertStatements, qualifiedName, writeStatements, type Statement, type UploadColumn,
} from './ddl.js';

export type UpdateAction = 'append' | 'replace';

const unprocessable = (message: string) => new ApiError(422, { message });

/** The upload type a synced column holds. */
function typeOfField(field: { base_type: string; database_type: string }): UploadType {
  switch (field.base_type) {
    case 'type/Boolean':
      return 'boolean';
    case 'type/BigInteger':
    case 'type/Integer':
      return 'int';
    case 'type/Float':
    case 'type/Decimal':
      return 'float';
    case 'type/Date':
      return 'date';
    case 'type/DateTime':
      return 'datetime';
    case 'type/DateTimeWithLocalTZ':
    case 'type/DateTimeWithTZ':
    case 'type/DateTimeWithZoneOffset':
      return 'offset_datetime';
    default:
      return /char\s*\(\s*255\s*\)|^varchar$/i.test(field.database_type) && !/duckdb/i.test(field.database_type) ? 'varchar_255' : 'text';
  }
}

export async function updateUploadedTable(ctx: AppContext, caller: Caller, tableId: number, action: UpdateAction, file: { filename: string; bytes: Buffer }): Promise<void> {
  const table = await ctx.db.selectFrom('metabase_table').selectAll().where('id', '=', tableId).executeTakeFirst();
  if (!table) throw notFound();
  const access = await dataAccess(ctx, caller);
  if (!access.canQueryTable(table)) throw forbidden();
  if (!bool(table.is_upload)) throw unprocessable('The table must be an uploaded table.');
  const database = await ctx.db.selectFrom('metabase_database').select(['id', 'engine', 'uploads_enabled']).where('id', '=', table.db_id).executeTakeFirstOrThrow();
  if (!bool(database.uploads_enabled)) throw unprocessable('Uploads are not enabled.');

  const csv = parseCsv(file.bytes, file.filename);
  const names = columnNamesOf(csv.header);
  const keep = names.map((name, i) => ({ name, i })).filter(({ name }) => slug(name) !== AUTO_PK_COLUMN);
  const fields = await ctx.db
    .selectFrom('metabase_field')
    .select(['name', 'base_type', 'database_type'])
    .where('table_id', '=', tableId)
    .where('active', '=', true)
    .where('parent_id', 'is', null)
    .execute();
  const existing = new Map(fields.filter((f) => f.name.toLowerCase() !== AUTO_PK_COLUMN).map((f) => [f.name.toLowerCase(), f]));
  const missing = [...existing.values()].filter((f) => !keep.some((k) => k.name === f.name.toLowerCase())).map((f) => f.name);
  if (missing.length) throw unprocessable(`The CSV file is missing columns that are in the table:\n${missing.map((m) => `- ${m}`).join('\n')}`);

  const rows = csv.rows.map((row) => keep.map(({ i }) => row[i] ?? ''));
  const newTypes = columnTypes(keep.length, rows);
  const columns: UploadColumn[] = keep.map(({ name }, c) => {
    const field = existing.get(name);
    return { name: field?.name ?? name, type: field ? typeOfField(field) : newTypes[c] };
  });
  // every value must fit the column it goes to (an existing column keeps its type)
  for (const [c, column] of columns.entries()) {
    if (!existing.has(column.name.toLowerCase())) continue;
    for (const row of rows) {
      const value = row[c];
      if (value.trim() === '') continue;
      if (commonType(column.type, valueType(value)) !== column.type) {
        throw unprocessable(`There's a value with the wrong type ('${value.slice(0, 100)}') in the '${column.name}' column`);
      }
    }
  }
  const values = rows.map((row) => row.map((v, c) => parseValue(v, columns[c].type)));

  const open = await connectionFor(ctx, database.id);
  const qualified = qualifiedName(open.driver, table.schema, table.name);
  const added = columns.filter((c) => !existing.has(c.name.toLowerCase()));
  try {
    // DDL first, on its own: MySQL commits a transaction at ALTER TABLE
    if (added.length) await writeStatements(open.driver, open.connection, added.map((c) => addColumnStatement(open.driver, qualified, c)));
    let firstId = 1;
    if (action === 'append') {
      const stream = await open.connection.execute(`SELECT MAX(${open.driver.quoteIdentifier(AUTO_PK_COLUMN)}) FROM ${qualified}`, []);
      const [[max]] = await collectRows(stream);
      firstId = Number(max ?? 0) + 1;
    }
    const statements: Statement[] = [
      ...(action === 'replace' ? [deleteAllStatement(qualified)] : []),
      ...insertStatements(open.driver, qualified, columns, values, firstId),
    ];
    await writeStatements(open.driver, open.connection, statements);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw unprocessable(`The CSV file could not be uploaded: ${(error as Error).message}`);
  }
  await runSync(ctx, database.id, 'schema');
}
