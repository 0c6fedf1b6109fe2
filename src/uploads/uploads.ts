// POST /api/card/from-csv: a CSV file becomes a table in the uploads database (types inferred from the values),
// the table is synced, and a model over it is saved in the chosen collection. Any failure undoes everything that
// was made: the table is dropped and its metadata removed, so nothing is left half-created.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError, badRequest, forbidden } from '../http/errors.js';
import { collectionAccess } from '../permissions/collections.js';
import { findCollection } from '../collections/store.js';
import { connectionFor } from '../databases/connections.js';
import { humanize } from '../databases/humanize.js';
import { runSync } from '../sync/runner.js';
import { canQuery } from '../cards/data-access.js';
import { createCard } from '../cards/cards.js';
import { parseCsv } from './csv.js';
import { columnTypes, parseValue } from './types.js';
import { AUTO_PK_COLUMN, createTable, dropTable, insertRows, isAlreadyExists, qualifiedName, supportsUploads, type UploadColumn } from './ddl.js';
import { uploadsTarget } from './settings.js';
import { fitText, NAME_MAX } from '../util/fit.js';
import { columnNamesOf, MAX_NAME_LENGTH, slug, uniqueNames } from './names.js';

export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

function timestampSuffix(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `_${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
}

export interface UploadInput {
  filename: string;
  bytes: Buffer;
  collectionId: number | null;
}

export interface UploadResult {
  modelId: number;
  tableId: number;
}

export async function uploadCsv(ctx: AppContext, caller: Caller, input: UploadInput): Promise<UploadResult> {
  // whether the caller may put it in the collection, and what the file holds — all before touching any database
  // (a rejected first upload must not even create the embedded uploads database)
  const access = await collectionAccess(ctx, caller);
  if (input.collectionId !== null) {
    const collection = await findCollection(ctx.db, input.collectionId);
    if (!collection) throw new ApiError(404, 'Not found.');
    if (collection.id === access.trashId) throw badRequest('You cannot modify the Trash Collection.');
  }
  access.checkWrite(input.collectionId);
  if (!/\.(csv|tsv|txt)$/i.test(input.filename) && /\.[a-z0-9]+$/i.test(input.filename)) {
    throw new ApiError(415, { message: 'Unsupported File Type' });
  }
  const csv = parseCsv(input.bytes, input.filename);
  const keep = csv.header.map((h, i) => ({ h, i })).filter(({ h }) => slug(h) !== AUTO_PK_COLUMN);
  const header = keep.map(({ h }) => h);
  const rows = csv.rows.map((row) => keep.map(({ i }) => row[i] ?? ''));
  const types = columnTypes(header.length, rows);
  const columnNames = columnNamesOf(header);
  // display names are varchar(254) columns: a long header is cut, leaving room for the " 2" that tells cut twins apart
  const displayNames = uniqueNames(header.map((h) => (h.trim() ? fitText(humanize(h.trim()), NAME_MAX - 10) : 'Unnamed column')), ' ');
  const columns: UploadColumn[] = columnNames.map((name, i) => ({ name, type: types[i] }));
  const values = rows.map((row) => row.map((v, i) => parseValue(v, types[i])));

  // where it goes (the embedded database is made now if none is set), and whether the caller may query it
  const target = await uploadsTarget(ctx);
  if (target.db_id === null) throw new ApiError(422, { message: 'The uploads database is not configured.' });
  const database = await ctx.db.selectFrom('metabase_database').selectAll().where('id', '=', target.db_id).executeTakeFirst();
  if (!database) throw new ApiError(422, { message: 'The uploads database does not exist.' });
  if (!supportsUploads(database.engine)) {
    throw new ApiError(422, { message: `Uploads are not supported on ${database.engine.charAt(0).toUpperCase()}${database.engine.slice(1)} databases.` });
  }
  if (!(await canQuery(ctx, caller, { database: database.id, type: 'query', query: {} }))) throw forbidden();

  const base = input.filename.replace(/\.(csv|tsv|txt)$/i, '');
  const displayName = fitText(humanize(base), NAME_MAX) || 'Upload'; // the table's display name and the model's name
  const tableName = `${target.table_prefix ?? ''}${slug(base).slice(0, MAX_NAME_LENGTH) || 'upload'}${timestampSuffix(new Date())}`.toLowerCase();
  const open = await connectionFor(ctx, database.id);
  const qualified = qualifiedName(open.driver, target.schema_name, tableName);

  // Set once the table name is known to be ours (CREATE TABLE didn't fail because it was taken): from then on any
  // failure drops it — even a failed CREATE, which may have made the table before its reply went wrong.
  let ours = false;
  try {
    try {
      await createTable(open.driver, open.connection, qualified, columns);
    } catch (error) {
      ours = !isAlreadyExists(error);
      throw error;
    }
    ours = true;
    await insertRows(open.driver, open.connection, qualified, columns, values);
    const outcome = await runSync(ctx, database.id, 'schema');
    if (outcome !== 'done') throw new Error(`the uploads database could not be synced (${outcome})`);
    let tableQuery = ctx.db.selectFrom('metabase_table').select('id').where('db_id', '=', database.id).where('name', '=', tableName);
    tableQuery = target.schema_name ? tableQuery.where('schema', '=', target.schema_name) : tableQuery;
    const table = await tableQuery.executeTakeFirst();
    if (!table) throw new Error('the uploaded table did not appear in the database metadata');
    await ctx.db.updateTable('metabase_table').set({ is_upload: true, display_name: displayName }).where('id', '=', table.id).execute();
    const fields = await ctx.db.selectFrom('metabase_field').select(['id', 'name']).where('table_id', '=', table.id).execute();
    for (const field of fields) {
      const index = columnNames.findIndex((n) => n.toLowerCase() === field.name.toLowerCase());
      const label = field.name.toLowerCase() === AUTO_PK_COLUMN ? field.name : index >= 0 ? displayNames[index] : null;
      if (label) await ctx.db.updateTable('metabase_field').set({ display_name: label }).where('id', '=', field.id).execute();
    }
    try {
      const model = await createCard(ctx, caller, {
        name: displayName,
        type: 'model',
        display: 'table',
        visualization_settings: {},
        dataset_query: { database: database.id, type: 'query', query: { 'source-table': table.id } },
        collection_id: input.collectionId,
      });
      return { modelId: model.id, tableId: table.id };
    } catch (error) {
      await ctx.db.deleteFrom('metabase_table').where('id', '=', table.id).execute();
      throw error;
    }
  } catch (error) {
    if (ours) await dropTable(open.driver, open.connection, qualified).catch((e) => ctx.log.warn({ err: e }, 'could not drop a failed upload'));
    if (error instanceof ApiError) throw error;
    throw badRequest(`The CSV file could not be uploaded: ${(error as Error).message}`);
  }
}
