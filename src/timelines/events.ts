// Timeline events (/api/timeline-event): dated markers on a timeline, readable and writable with the timeline's
// collection permissions. Timestamps are stored as ISO-8601 UTC instants.

import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso, type Db } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { userInfos, type UserInfo } from '../cards/creators.js';
import { findCard } from '../cards/store.js';
import type { TimelineEventTable } from './tables.js';

export type EventRow = Selectable<TimelineEventTable>;

export interface EventFilter {
  archived: boolean;
  start: string | null;
  end: string | null;
}

/** "2024-01-15T10:30:00.000Z" → "2024-01-15T10:30:00Z" (milliseconds only when non-zero). */
export function isoInstant(date: Date): string {
  return date.toISOString().replace('.000Z', 'Z');
}

/** Parses a date string (date, date-time, with or without offset) into an ISO instant; null when unparseable. */
export function parseDateString(value: string): string | null {
  const text = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  return Number.isNaN(date.getTime()) ? null : isoInstant(date);
}

export async function eventsOf(db: Db, timelineIds: number[], filter: EventFilter): Promise<Map<number, EventRow[]>> {
  const out = new Map<number, EventRow[]>();
  if (timelineIds.length === 0) return out;
  let query = db.selectFrom('timeline_event').selectAll().where('timeline_id', 'in', timelineIds).where('archived', '=', filter.archived);
  if (filter.start) query = query.where('timestamp', '>=', filter.start);
  if (filter.end) query = query.where('timestamp', '<=', filter.end);
  const rows = await query.orderBy('timestamp').orderBy('id').execute();
  for (const row of rows) {
    const list = out.get(row.timeline_id) ?? [];
    list.push(row);
    out.set(row.timeline_id, list);
  }
  return out;
}

export function eventJson(row: EventRow, creator: UserInfo | null) {
  return {
    id: row.id,
    timeline_id: row.timeline_id,
    name: row.name,
    description: row.description,
    timestamp: row.timestamp,
    time_matters: bool(row.time_matters),
    timezone: row.timezone,
    icon: row.icon,
    archived: bool(row.archived),
    creator_id: row.creator_id,
    creator,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function timelineOrMissing(db: Db, timelineId: number) {
  const timeline = await db.selectFrom('timeline').selectAll().where('id', '=', timelineId).executeTakeFirst();
  if (!timeline) throw notFound(`Timeline with id ${timelineId} not found`);
  return timeline;
}

async function requireEvent(db: Db, id: number): Promise<EventRow> {
  const row = await db.selectFrom('timeline_event').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

async function withCreator(db: Db, row: EventRow) {
  const creators = await userInfos(db, [row.creator_id]);
  return eventJson(row, creators.get(row.creator_id) ?? null);
}

export async function getEvent(ctx: AppContext, caller: Caller, id: number) {
  const access = await collectionAccess(ctx, caller);
  const row = await requireEvent(ctx.db, id);
  const timeline = await timelineOrMissing(ctx.db, row.timeline_id);
  access.checkRead(timeline.collection_id);
  return withCreator(ctx.db, row);
}

export interface EventInput {
  name?: string | null;
  description?: string | null;
  timestamp?: string | null;
  time_matters?: boolean | null;
  timezone?: string | null;
  icon?: string | null;
  archived?: boolean | null;
  timeline_id?: number | null;
}

export async function createEvent(
  ctx: AppContext,
  caller: Caller,
  input: EventInput & { name: string; timestamp: string; timezone: string; timeline_id: number; question_id?: number | null },
) {
  const access = await collectionAccess(ctx, caller);
  const timeline = await timelineOrMissing(ctx.db, input.timeline_id);
  access.checkWrite(timeline.collection_id);
  // The question an event was made from (the web app says so; nothing is stored) must exist and be readable.
  if (input.question_id !== undefined && input.question_id !== null) {
    const question = await findCard(ctx.db, input.question_id);
    if (!question) throw notFound(`Card ${input.question_id} does not exist.`);
    access.checkRead(question.collection_id);
  }
  const now = nowIso();
  const id = await insertReturningId(ctx.db, ctx.dialect, 'timeline_event', {
    timeline_id: timeline.id,
    name: input.name,
    description: input.description ?? null,
    timestamp: input.timestamp,
    time_matters: input.time_matters ?? false,
    timezone: input.timezone,
    icon: input.icon ?? timeline.icon,
    archived: input.archived ?? false,
    creator_id: caller.user.id,
    created_at: now,
    updated_at: now,
  });
  return withCreator(ctx.db, await requireEvent(ctx.db, id));
}

export async function updateEvent(ctx: AppContext, caller: Caller, id: number, input: EventInput, present: Set<string>) {
  const access = await collectionAccess(ctx, caller);
  const row = await requireEvent(ctx.db, id);
  const timeline = await timelineOrMissing(ctx.db, row.timeline_id);
  access.checkWrite(timeline.collection_id);
  const changes: Record<string, unknown> = {};
  if (present.has('timeline_id') && input.timeline_id && input.timeline_id !== row.timeline_id) {
    const target = await timelineOrMissing(ctx.db, input.timeline_id);
    access.checkWrite(target.collection_id);
    changes.timeline_id = target.id;
  }
  for (const key of ['name', 'timestamp', 'timezone', 'icon'] as const) {
    if (present.has(key) && input[key]) changes[key] = input[key];
  }
  if (present.has('description')) changes.description = input.description ?? null;
  for (const key of ['time_matters', 'archived'] as const) {
    if (present.has(key) && input[key] !== null && input[key] !== undefined) changes[key] = input[key];
  }
  if (Object.keys(changes).length > 0) {
    await ctx.db.updateTable('timeline_event').set({ ...changes, updated_at: nowIso() }).where('id', '=', id).execute();
  }
  return withCreator(ctx.db, await requireEvent(ctx.db, id));
}

export async function deleteEvent(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const access = await collectionAccess(ctx, caller);
  const row = await requireEvent(ctx.db, id);
  const timeline = await timelineOrMissing(ctx.db, row.timeline_id);
  access.checkWrite(timeline.collection_id);
  await ctx.db.deleteFrom('timeline_event').where('id', '=', id).execute();
}
