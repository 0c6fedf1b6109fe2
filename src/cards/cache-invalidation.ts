// Cards' `cache_invalidated_at`: results cached before it are stale for every policy the card runs under
// (src/cache/policy.ts). Set for chosen cards by POST /api/cache/invalidate?include=overrides, and by edits that
// change what a card returns.

import type { Db } from '../appdb/portable.js';
import { nowIso } from '../appdb/portable.js';

/** Card fields whose change makes earlier results of the card stale. */
export const RESULT_CHANGING_FIELDS = ['dataset_query', 'result_metadata', 'type', 'parameters'] as const;

/** Stamps the cards' `cache_invalidated_at` with now; returns how many cards there were. */
export async function invalidateCardResults(db: Db, cardIds: number[]): Promise<number> {
  const ids = [...new Set(cardIds)];
  if (!ids.length) return 0;
  const result = await db.updateTable('report_card').set({ cache_invalidated_at: nowIso() }).where('id', 'in', ids).executeTakeFirst();
  return Number(result.numUpdatedRows);
}
