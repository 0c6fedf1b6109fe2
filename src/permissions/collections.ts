// The collection-permission checker: who may read ("view") or curate ("write") a collection and everything in it.
// Every read and write of cards, collections, snippets, timelines (and dashboards) asks here.
//
// Rules (Metabase's):
//   - admins may do everything;
//   - a user curates their own personal collection and everything below it; nobody else (bar admins) sees it;
//   - otherwise a user gets the best level any of their groups has on the collection (rows of
//     `collection_permission`); the root collection of each namespace has its own rows (collection_id null);
//   - the Trash is readable by all and writable by none (what shows in it is filtered by the items' own rules).
//
// `collectionAccess(ctx, caller)` loads what is needed for one caller in three small queries; keep the object for the
// rest of a request instead of loading it again.

import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import type { DB } from '../appdb/schema.js';
import { forbidden } from '../http/errors.js';

export type CollectionPerm = 'write' | 'read' | 'none';

const RANK: Record<CollectionPerm, number> = { none: 0, read: 1, write: 2 };

export function bestPerm(a: CollectionPerm, b: CollectionPerm): CollectionPerm {
  return RANK[a] >= RANK[b] ? a : b;
}

/** A collection is named by its id; `null` is the root collection (of the given namespace). */
export type CollectionRef = number | null;

export class CollectionAccess {
  constructor(
    readonly caller: Caller,
    readonly trashId: number | null,
    /** The caller's personal collection and its descendants. */
    readonly personalIds: ReadonlySet<number>,
    /** Best level per collection id from the caller's groups. */
    readonly levels: ReadonlyMap<number, CollectionPerm>,
    /** Best level on the root collection, per namespace ('' = default). */
    readonly rootLevels: ReadonlyMap<string, CollectionPerm>,
  ) {}

  get isSuperuser(): boolean {
    return this.caller.isSuperuser;
  }

  level(collectionId: CollectionRef, namespace: string | null = null): CollectionPerm {
    if (collectionId !== null && collectionId === this.trashId) return 'read';
    if (this.caller.isSuperuser) return 'write';
    if (collectionId === null) return this.rootLevels.get(namespace ?? '') ?? 'none';
    if (this.personalIds.has(collectionId)) return 'write';
    return this.levels.get(collectionId) ?? 'none';
  }

  canRead(collectionId: CollectionRef, namespace: string | null = null): boolean {
    return this.level(collectionId, namespace) !== 'none';
  }

  canWrite(collectionId: CollectionRef, namespace: string | null = null): boolean {
    return this.level(collectionId, namespace) === 'write';
  }

  checkRead(collectionId: CollectionRef, namespace: string | null = null): void {
    if (!this.canRead(collectionId, namespace)) throw forbidden();
  }

  checkWrite(collectionId: CollectionRef, namespace: string | null = null): void {
    if (!this.canWrite(collectionId, namespace)) throw forbidden();
  }

  /** Ids of every collection (of any namespace) the caller reaches through groups or ownership; null for admins. */
  explicitIds(minimum: CollectionPerm = 'read'): Set<number> | null {
    if (this.caller.isSuperuser) return null;
    const out = new Set<number>(this.personalIds);
    for (const [id, perm] of this.levels) if (RANK[perm] >= RANK[minimum]) out.add(id);
    return out;
  }

  /**
   * A WHERE condition on a `collection_id` column keeping only rows the caller may see (or curate, with 'write'),
   * for use inside Kysely queries: `.where((eb) => access.filter(eb, 'report_card.collection_id'))`.
   */
  filter<T extends keyof DB>(
    eb: ExpressionBuilder<DB, T>,
    column: string,
    minimum: Exclude<CollectionPerm, 'none'> = 'read',
    namespace: string | null = null,
  ): Expression<SqlBool> {
    if (this.caller.isSuperuser) return sql<SqlBool>`1 = 1`;
    const ref = sql.ref(column);
    const ids = [...(this.explicitIds(minimum) ?? [])];
    if (minimum === 'read' && this.trashId !== null) ids.push(this.trashId);
    const parts: Expression<SqlBool>[] = [];
    if (ids.length > 0) parts.push(sql<SqlBool>`${ref} in (${sql.join(ids)})`);
    const root = this.level(null, namespace);
    if (RANK[root] >= RANK[minimum]) parts.push(sql<SqlBool>`${ref} is null`);
    void eb;
    if (parts.length === 0) return sql<SqlBool>`1 = 0`;
    return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
  }
}

const trashIds = new WeakMap<AppContext, number | null>();

/** The id of the (hidden, single) Trash collection. */
export async function trashCollectionId(ctx: AppContext): Promise<number | null> {
  if (trashIds.has(ctx)) return trashIds.get(ctx)!;
  const row = await ctx.db.selectFrom('collection').select('id').where('type', '=', 'trash').orderBy('id').executeTakeFirst();
  const id = row?.id ?? null;
  trashIds.set(ctx, id);
  return id;
}

/** Loads the caller's collection permissions. */
export async function collectionAccess(ctx: AppContext, caller: Caller): Promise<CollectionAccess> {
  const trashId = await trashCollectionId(ctx);
  if (caller.isSuperuser) return new CollectionAccess(caller, trashId, new Set(), new Map(), new Map());
  const [rows, personal] = await Promise.all([
    caller.groupIds.length === 0
      ? Promise.resolve([])
      : ctx.db
          .selectFrom('collection_permission')
          .select(['collection_id', 'namespace', 'perm'])
          .where('group_id', 'in', caller.groupIds)
          .execute(),
    ctx.db.selectFrom('collection').select('id').where('personal_owner_id', '=', caller.user.id).executeTakeFirst(),
  ]);
  const levels = new Map<number, CollectionPerm>();
  const rootLevels = new Map<string, CollectionPerm>();
  for (const row of rows) {
    const perm = row.perm === 'write' ? 'write' : 'read';
    if (row.collection_id === null) {
      const key = row.namespace ?? '';
      rootLevels.set(key, bestPerm(rootLevels.get(key) ?? 'none', perm));
    } else {
      levels.set(row.collection_id, bestPerm(levels.get(row.collection_id) ?? 'none', perm));
    }
  }
  const personalIds = new Set<number>();
  if (personal) {
    personalIds.add(personal.id);
    const below = await ctx.db.selectFrom('collection').select('id').where('location', 'like', `/${personal.id}/%`).execute();
    for (const row of below) personalIds.add(row.id);
  }
  return new CollectionAccess(caller, trashId, personalIds, levels, rootLevels);
}

/**
 * 403 unless the caller may read the collections of all these saved questions, models or metrics — for queries that
 * read saved cards (`card__N` sources, `{{#N}}` tags, metrics): the query authorize stage calls this.
 */
export async function checkCardsReadable(
  ctx: AppContext,
  caller: Caller | null,
  cards: ReadonlyArray<{ collection_id: number | null }>,
): Promise<void> {
  if (!caller || caller.isSuperuser || cards.length === 0) return;
  const access = await collectionAccess(ctx, caller);
  for (const card of cards) access.checkRead(card.collection_id);
}
