// A database's model-persistence switch (`settings.persist-models-enabled`), written here for src/persistence,
// which decides when it may be turned on.

import type { Db } from '../appdb/portable.js';
import { nowIso, parseJson } from '../appdb/portable.js';

export const PERSIST_SETTING = 'persist-models-enabled';

export async function writePersistFlag(db: Db, id: number, enabled: boolean): Promise<void> {
  const row = await db.selectFrom('metabase_database').select('settings').where('id', '=', id).executeTakeFirst();
  if (!row) return;
  const settings = parseJson<Record<string, unknown>>(row.settings, {});
  if (enabled) settings[PERSIST_SETTING] = true;
  else delete settings[PERSIST_SETTING];
  await db
    .updateTable('metabase_database')
    .set({ settings: Object.keys(settings).length ? JSON.stringify(settings) : null, updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
}

/** The databases that have persistence switched on. */
export async function persistingDatabaseIds(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('metabase_database').select(['id', 'settings']).where('settings', 'is not', null).execute();
  return rows.filter((r) => parseJson<Record<string, unknown>>(r.settings, {})[PERSIST_SETTING] === true).map((r) => r.id);
}
