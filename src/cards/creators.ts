// The "UserInfo" hydration (`creator`, `last-edit-info` users…) for any of this area's objects, in one query.

import type { Db } from '../appdb/portable.js';
import { userInfoJson } from '../users/user-json.js';

export type UserInfo = ReturnType<typeof userInfoJson>;

export async function userInfos(db: Db, ids: Iterable<number | null | undefined>): Promise<Map<number, UserInfo>> {
  const unique = [...new Set([...ids].filter((id): id is number => typeof id === 'number'))];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('core_user').selectAll().where('id', 'in', unique).execute();
  return new Map(rows.map((row) => [row.id, userInfoJson(row)]));
}
