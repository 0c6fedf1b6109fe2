// Every user has a personal collection, made when the user is made.

import type { AppContext } from '../context.js';
import { insertReturningId, nowIso, type Db } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';
import { slugify } from '../util/slug.js';
import { fitText, NAME_MAX } from '../util/fit.js';

const SUFFIX = "'s Personal Collection";

export function personalCollectionName(user: { first_name: string | null; last_name: string | null; email: string }): string {
  const full = [user.first_name, user.last_name].filter((p) => p && p.trim()).join(' ').trim() || user.email;
  // collection.name is a varchar(254): a long owner name is cut so that the whole name fits
  return `${fitText(full, NAME_MAX - SUFFIX.length).trimEnd()}${SUFFIX}`;
}

export async function createPersonalCollection(
  ctx: AppContext,
  db: Db,
  user: { id: number; first_name: string | null; last_name: string | null; email: string },
): Promise<number> {
  const name = personalCollectionName(user);
  return insertReturningId(db, ctx.dialect, 'collection', {
    name,
    entity_id: newEntityId(),
    slug: slugify(name),
    location: '/',
    personal_owner_id: user.id,
    archived: false,
    is_sample: false,
    created_at: nowIso(),
  });
}

/** Personal collection ids of the given users, keyed by user id (one query). */
export async function personalCollectionIds(ctx: AppContext, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('collection')
    .select(['id', 'personal_owner_id'])
    .where('personal_owner_id', 'in', userIds)
    .execute();
  return new Map(rows.map((r) => [r.personal_owner_id as number, r.id]));
}

/** Keeps a personal collection's name in step with its owner's name. */
export async function renamePersonalCollection(
  ctx: AppContext,
  db: Db,
  user: { id: number; first_name: string | null; last_name: string | null; email: string },
): Promise<void> {
  const name = personalCollectionName(user);
  await db.updateTable('collection').set({ name, slug: slugify(name) }).where('personal_owner_id', '=', user.id).execute();
}
