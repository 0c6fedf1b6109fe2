// Timelines (/api/timeline) and the timelines shown with collections and cards. A timeline lives in a collection
// (or the root) and takes its permissions from there; archiving a timeline archives its events.

import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso, type Db } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { hydrateCollections } from '../collections/json.js';
import { requireCollection } from '../collections/store.js';
import { registerCollectable } from '../collections/collectables.js';
import { registerItemSource } from '../collections/items.js';
import { userInfos } from '../cards/creators.js';
import type { TimelineTable } from './tables.js';
import { eventsOf, eventJson, type EventFilter } from './events.js';

export const ICONS = ['star', 'cake', 'mail', 'warning', 'bell', 'cloud'] as const;
export type TimelineRow = Selectable<TimelineTable>;

export async function requireTimeline(ctx: AppContext, id: number, db: Db = ctx.db): Promise<TimelineRow> {
  const row = await db.selectFrom('timeline').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Reads a timeline with the caller's read (or write) access to its collection. */
export async function accessibleTimeline(ctx: AppContext, access: CollectionAccess, id: number, level: 'read' | 'write') {
  const row = await requireTimeline(ctx, id);
  if (level === 'read') access.checkRead(row.collection_id);
  else access.checkWrite(row.collection_id);
  return row;
}

export interface TimelineJsonOptions {
  events?: EventFilter | null;
  collection?: boolean;
}

/** Timelines shaped for the API, with creator, optional collection and optional events (batched). */
export async function timelinesJson(ctx: AppContext, access: CollectionAccess, rows: TimelineRow[], options: TimelineJsonOptions = {}) {
  const [creators, collections, events] = await Promise.all([
    userInfos(ctx.db, rows.map((r) => r.creator_id)),
    options.collection ? hydrateCollections(ctx, access, rows.map((r) => r.collection_id)) : Promise.resolve(null),
    options.events ? eventsOf(ctx.db, rows.map((r) => r.id), options.events) : Promise.resolve(null),
  ]);
  const eventCreators = events ? await userInfos(ctx.db, [...events.values()].flat().map((e) => e.creator_id)) : new Map();
  return rows.map((row) => ({
    id: row.id,
    entity_id: row.entity_id,
    name: row.name,
    description: row.description,
    icon: row.icon,
    collection_id: row.collection_id,
    default: bool(row.default),
    archived: bool(row.archived),
    creator_id: row.creator_id,
    creator: creators.get(row.creator_id) ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(collections ? { collection: collections.get(row.collection_id) ?? null } : {}),
    ...(events ? { events: (events.get(row.id) ?? []).map((e) => eventJson(e, eventCreators.get(e.creator_id) ?? null)) } : {}),
  }));
}

function byName(a: TimelineRow, b: TimelineRow) {
  return a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id;
}

export async function listTimelines(ctx: AppContext, caller: Caller, options: { includeEvents: boolean; archived: boolean }) {
  const access = await collectionAccess(ctx, caller);
  const rows = await ctx.db
    .selectFrom('timeline')
    .selectAll()
    .where('archived', '=', options.archived)
    .where((eb) => access.filter(eb, 'timeline.collection_id'))
    .execute();
  return timelinesJson(ctx, access, rows.sort(byName), {
    collection: true,
    events: options.includeEvents ? { archived: false, start: null, end: null } : null,
  });
}

export async function getTimeline(
  ctx: AppContext,
  caller: Caller,
  id: number,
  options: { includeEvents: boolean; archived: boolean; start: string | null; end: string | null },
) {
  const access = await collectionAccess(ctx, caller);
  const row = await accessibleTimeline(ctx, access, id, 'read');
  const [json] = await timelinesJson(ctx, access, [row], {
    collection: true,
    events: options.includeEvents ? { archived: options.archived, start: options.start, end: options.end } : null,
  });
  return json;
}

/** Timelines of a collection (null: the root), as GET /api/collection/:id/timelines lists them. */
export async function collectionTimelines(
  ctx: AppContext,
  caller: Caller,
  collectionId: number | null,
  options: { includeEvents: boolean; archived: boolean; start?: string | null; end?: string | null },
  access?: CollectionAccess,
) {
  const perms = access ?? (await collectionAccess(ctx, caller));
  if (collectionId !== null) await requireCollection(ctx, collectionId);
  perms.checkRead(collectionId);
  let query = ctx.db.selectFrom('timeline').selectAll().where('archived', '=', options.archived);
  query = collectionId === null ? query.where('collection_id', 'is', null) : query.where('collection_id', '=', collectionId);
  const rows = (await query.execute()).sort(byName);
  return timelinesJson(ctx, perms, rows, {
    collection: true,
    events: options.includeEvents ? { archived: options.archived, start: options.start ?? null, end: options.end ?? null } : null,
  });
}

export interface TimelineInput {
  name?: string | null;
  description?: string | null;
  icon?: string | null;
  collection_id?: number | null;
  default?: boolean | null;
  archived?: boolean | null;
}

export async function createTimeline(ctx: AppContext, caller: Caller, input: TimelineInput & { name: string }) {
  const access = await collectionAccess(ctx, caller);
  const collectionId = input.collection_id ?? null;
  if (collectionId !== null) {
    if (collectionId === access.trashId) throw badRequest('You cannot modify the Trash Collection.');
    await requireCollection(ctx, collectionId);
  }
  access.checkWrite(collectionId);
  const now = nowIso();
  const id = await insertReturningId(ctx.db, ctx.dialect, 'timeline', {
    entity_id: newEntityId(),
    name: input.name,
    description: input.description ?? null,
    icon: input.icon ?? 'star',
    collection_id: collectionId,
    default: input.default ?? false,
    archived: input.archived ?? false,
    creator_id: caller.user.id,
    created_at: now,
    updated_at: now,
  });
  const [json] = await timelinesJson(ctx, access, [await requireTimeline(ctx, id)], { collection: true });
  return json;
}

export async function updateTimeline(ctx: AppContext, caller: Caller, id: number, input: TimelineInput, present: Set<string>) {
  const access = await collectionAccess(ctx, caller);
  const before = await accessibleTimeline(ctx, access, id, 'write');
  const changes: Record<string, unknown> = {};
  if (present.has('name') && input.name) changes.name = input.name;
  if (present.has('description')) changes.description = input.description ?? null;
  if (present.has('icon') && input.icon) changes.icon = input.icon;
  if (present.has('default') && input.default !== null && input.default !== undefined) changes.default = input.default;
  if (present.has('collection_id') && (input.collection_id ?? null) !== before.collection_id) {
    const target = input.collection_id ?? null;
    if (target !== null) await requireCollection(ctx, target);
    access.checkWrite(target);
    changes.collection_id = target;
  }
  const archiving = present.has('archived') && input.archived !== null && input.archived !== undefined && input.archived !== bool(before.archived);
  if (archiving) changes.archived = input.archived;
  await ctx.db.transaction().execute(async (trx) => {
    if (Object.keys(changes).length > 0) {
      await trx.updateTable('timeline').set({ ...changes, updated_at: nowIso() }).where('id', '=', id).execute();
    }
    if (archiving) await trx.updateTable('timeline_event').set({ archived: input.archived! }).where('timeline_id', '=', id).execute();
  });
  const [json] = await timelinesJson(ctx, access, [await requireTimeline(ctx, id)], { collection: true });
  return json;
}

export async function deleteTimeline(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const access = await collectionAccess(ctx, caller);
  await accessibleTimeline(ctx, access, id, 'write');
  await ctx.db.deleteFrom('timeline').where('id', '=', id).execute();
}

// Timelines live in collections: they are archived with them and listed among their items.
registerCollectable({
  model: 'Timeline',
  async setArchivedWithCollections(db, collectionIds, archived) {
    await db.updateTable('timeline').set({ archived }).where('collection_id', 'in', collectionIds).execute();
  },
  async deleteWithCollections(db, collectionIds) {
    await db.deleteFrom('timeline').where('collection_id', 'in', collectionIds).execute();
  },
});

registerItemSource({
  models: ['timeline'],
  namespaces: [null],
  async items(query) {
    if (query.pinnedState === 'is_pinned' || query.isTrash) return [];
    let q = query.ctx.db.selectFrom('timeline').selectAll().where('archived', '=', query.archived);
    q = query.collection === null ? q.where('collection_id', 'is', null) : q.where('collection_id', '=', query.collection.id);
    const rows = await q.execute();
    return rows.map((row) => ({
      id: row.id,
      model: 'timeline',
      name: row.name,
      entity_id: row.entity_id,
      icon: row.icon,
      archived: bool(row.archived),
      collection_id: row.collection_id,
    }));
  },
});
