// Reading collection rows: one at a time for checks, in batches for hydration.

import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { CollectionTable } from './tables.js';
import type { Db } from '../appdb/portable.js';
import { notFound } from '../http/errors.js';
import { locationIds } from './locations.js';

export type CollectionRow = Selectable<CollectionTable>;

export async function findCollection(db: Db, id: number): Promise<CollectionRow | undefined> {
  return db.selectFrom('collection').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function requireCollection(ctx: AppContext, id: number, db: Db = ctx.db): Promise<CollectionRow> {
  const row = await findCollection(db, id);
  if (!row) throw notFound();
  return row;
}

export async function collectionsByIds(db: Db, ids: Iterable<number>): Promise<Map<number, CollectionRow>> {
  const unique = [...new Set(ids)].filter((id) => Number.isInteger(id));
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('collection').selectAll().where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Every descendant of a collection (by location prefix). */
export async function descendantsOf(db: Db, collection: { id: number; location: string }): Promise<CollectionRow[]> {
  return db.selectFrom('collection').selectAll().where('location', 'like', `${collection.location}${collection.id}/%`).execute();
}

export async function isPersonalLocation(db: Db, location: string): Promise<boolean> {
  const top = locationIds(location)[0];
  if (top === undefined) return false;
  const row = await db.selectFrom('collection').select('personal_owner_id').where('id', '=', top).executeTakeFirst();
  return row?.personal_owner_id != null;
}
