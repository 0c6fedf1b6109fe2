// Where uploads go: the `uploads-settings` setting ({db_id, schema_name, table_prefix}), mirrored onto the
// database's `uploads_*` columns. Without one, uploads go to an embedded SQLite database ("Uploads", a file next to
// the sample database) made on the first upload. (The sample database itself is opened read-only.) A cluster of
// several instances should point uploads at a PostgreSQL or MySQL database instead, which every instance reaches.

import Database from '../util/better-sqlite3.js';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../context.js';
import { createDatabase } from '../databases/databases.js';
import { readDetails } from '../databases/details.js';
import { withLease } from '../tasks/lease.js';
import { defineSetting } from '../settings/definition.js';
import { badRequest } from '../http/errors.js';
import { parseJson } from '../appdb/portable.js';
import { NAME_MAX } from '../util/fit.js';

export interface UploadsSettings {
  db_id: number | null;
  schema_name: string | null;
  table_prefix: string | null;
}

const EMPTY: UploadsSettings = { db_id: null, schema_name: null, table_prefix: null };

function normalize(value: unknown): UploadsSettings {
  const v = (typeof value === 'string' ? parseJson<Record<string, unknown>>(value, {}) : value) as Record<string, unknown> | null;
  if (!v || typeof v !== 'object') throw badRequest('uploads-settings must be a map with db_id, schema_name and table_prefix.');
  const dbId = v.db_id === null || v.db_id === undefined ? null : Number(v.db_id);
  if (dbId !== null && (!Number.isInteger(dbId) || dbId <= 0)) throw badRequest('db_id must be a database id.');
  const text = (x: unknown) => (typeof x === 'string' && x.trim() !== '' ? x.trim() : null);
  const settings = { db_id: dbId, schema_name: text(v.schema_name), table_prefix: text(v.table_prefix) };
  // both are mirrored onto the database's varchar(254) uploads_* columns
  for (const key of ['schema_name', 'table_prefix'] as const) {
    const value = settings[key];
    if (value !== null && [...value].length > NAME_MAX) throw badRequest(`${key} must be at most ${NAME_MAX} characters.`);
  }
  return settings;
}

defineSetting({
  key: 'uploads-settings',
  type: 'json',
  visibility: 'authenticated',
  description: 'Upload settings',
  default: EMPTY,
  validate: (value) => normalize(value),
  onChange: async (ctx, value) => {
    const settings = value === null ? EMPTY : normalize(value);
    await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('metabase_database').set({ uploads_enabled: false, uploads_schema_name: null, uploads_table_prefix: null }).execute();
      if (settings.db_id !== null) {
        await trx
          .updateTable('metabase_database')
          .set({ uploads_enabled: true, uploads_schema_name: settings.schema_name, uploads_table_prefix: settings.table_prefix })
          .where('id', '=', settings.db_id)
          .execute();
      }
    });
  },
});

export const EMBEDDED_UPLOADS_FILE = 'uploads.sqlite';

async function enabledDatabase(ctx: AppContext): Promise<UploadsSettings | null> {
  const enabled = await ctx.db
    .selectFrom('metabase_database')
    .select(['id', 'engine', 'uploads_schema_name', 'uploads_table_prefix'])
    .where('uploads_enabled', '=', true)
    .orderBy('id')
    .executeTakeFirst();
  return enabled ? { db_id: enabled.id, schema_name: enabled.uploads_schema_name, table_prefix: enabled.uploads_table_prefix } : null;
}

/** Creates the embedded SQLite uploads database (once, even with several instances starting uploads together). */
async function createEmbeddedDatabase(ctx: AppContext): Promise<void> {
  await withLease(ctx, 'uploads:embedded-database', 60_000, async () => {
    if (await enabledDatabase(ctx)) return;
    mkdirSync(ctx.config.dataDir, { recursive: true });
    const file = join(ctx.config.dataDir, EMBEDDED_UPLOADS_FILE);
    if (!existsSync(file)) new Database(file).close();
    const sqlite = await ctx.db.selectFrom('metabase_database').select(['id', 'details']).where('engine', '=', 'sqlite').execute();
    const existing = sqlite.find((row) => {
      try {
        return readDetails(ctx, row.details).db === file;
      } catch {
        return false;
      }
    });
    const id = existing ? existing.id : Number((await createDatabase(ctx, null, { engine: 'sqlite', name: 'Uploads', details: { db: file } })).id);
    await ctx.db.updateTable('metabase_database').set({ uploads_enabled: true }).where('id', '=', id).execute();
  });
}

/** The database uploads go to: the one enabled for uploads, else the embedded SQLite one (made now if needed). */
export async function uploadsTarget(ctx: AppContext): Promise<UploadsSettings> {
  const enabled = await enabledDatabase(ctx);
  if (enabled) return enabled;
  await createEmbeddedDatabase(ctx);
  return (await enabledDatabase(ctx)) ?? EMPTY;
}
