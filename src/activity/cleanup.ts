// When an item is deleted for good, its activity and bookmarks go with it.

import type { Db } from '../appdb/portable.js';

/** `models` are the names the item may be stored under (cards: 'card', 'dataset', 'metric'). */
export async function forgetItem(db: Db, models: string[], id: number): Promise<void> {
  await db.deleteFrom('recent_views').where('model', 'in', models).where('model_id', '=', id).execute();
  await db.deleteFrom('view_log').where('model', 'in', models).where('model_id', '=', id).execute();
  await db.deleteFrom('bookmark').where('model', 'in', models).where('model_id', '=', id).execute();
}
