// Revision history for cards, dashboards and segments: every saved state is kept (the 15 newest per object), and
// listed with Metabase's human descriptions ("renamed this Card from "A" to "B" and modified the query.").
// A model plugs in with `registerRevisionable` (how to check access, and how to go back to an old state).

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso, parseJson, type Db } from '../appdb/portable.js';
import { METABASE_COMPATIBLE_VERSION } from '../version.js';
import { commonName } from '../users/user-json.js';
import { describeChange, diffMap, type KeyDescriber, type NameLookup } from './describe.js';

export const MAX_REVISIONS = 15;

export interface Revisionable {
  /** The `entity` of the API ('card', 'dashboard'). */
  entity: string;
  /** Metabase's model name stored in `revision.model` ('Card', 'Dashboard'). */
  model: string;
  checkRead(ctx: AppContext, caller: Caller, id: number): Promise<void>;
  checkWrite(ctx: AppContext, caller: Caller, id: number): Promise<void>;
  /** Puts the object back into a saved state (the object as `serialize` made it), inside `db`'s transaction. */
  revert(ctx: AppContext, db: Db, caller: Caller, id: number, object: Record<string, unknown>): Promise<void>;
  /** The model's own wording for some changed keys (see describe.ts). */
  describeKey?: KeyDescriber;
  /** The model's own `diff` of two recorded states (`before` null for the oldest); default `diffMap`, null first. */
  diff?: (before: Record<string, unknown> | null, after: Record<string, unknown>) => unknown;
}

const revisionables = new Map<string, Revisionable>();

export function registerRevisionable(r: Revisionable): void {
  revisionables.set(r.entity, r);
}

export function revisionableFor(entity: string): Revisionable {
  const r = revisionables.get(entity);
  if (!r) throw notFound();
  return r;
}

interface PushRevision {
  model: string;
  modelId: number;
  userId: number;
  object: Record<string, unknown>;
  isCreation?: boolean;
  isReversion?: boolean;
  message?: string | null;
}

/** Records a revision when the object differs from its last one; returns the new revision id (or null). */
export async function pushRevision(ctx: AppContext, db: Db, input: PushRevision): Promise<number | null> {
  // A creation is an entity's first revision (ids are never reused): there is nothing to compare with or prune.
  const last = input.isCreation ? undefined : await db
    .selectFrom('revision')
    .select(['id', 'object'])
    .where('model', '=', input.model)
    .where('model_id', '=', input.modelId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const text = JSON.stringify(input.object);
  if (!input.isReversion && last && last.object === text) return null;
  const id = await insertReturningId(db, ctx.dialect, 'revision', {
    model: input.model,
    model_id: input.modelId,
    user_id: input.userId,
    timestamp: nowIso(),
    object: text,
    is_creation: input.isCreation ?? false,
    is_reversion: input.isReversion ?? false,
    message: input.message ?? null,
    most_recent: true,
    metabase_version: METABASE_COMPATIBLE_VERSION.tag,
  });
  await db
    .updateTable('revision')
    .set({ most_recent: false })
    .where('model', '=', input.model)
    .where('model_id', '=', input.modelId)
    .where('id', '!=', id)
    .execute();
  if (input.isCreation) return id;
  const old = await db
    .selectFrom('revision')
    .select('id')
    .where('model', '=', input.model)
    .where('model_id', '=', input.modelId)
    .orderBy('id', 'desc')
    .offset(MAX_REVISIONS)
    .limit(1000)
    .execute();
  if (old.length > 0) await db.deleteFrom('revision').where('id', 'in', old.map((r) => r.id)).execute();
  return id;
}

export async function deleteRevisions(db: Db, model: string, modelId: number): Promise<void> {
  await db.deleteFrom('revision').where('model', '=', model).where('model_id', '=', modelId).execute();
}

type RevisionRow = {
  id: number;
  model: string;
  model_id: number;
  user_id: number;
  timestamp: string;
  object: string;
  is_reversion: boolean | number;
  is_creation: boolean | number;
  message: string | null;
  most_recent: boolean | number;
  metabase_version: string | null;
};

/** Collection and dashboard names used by descriptions ("moved this Card from A to B"), loaded in two queries. */
async function nameLookup(db: Db, objects: Array<Record<string, unknown>>): Promise<NameLookup> {
  const collectionIds = new Set<number>();
  const dashboardIds = new Set<number>();
  for (const o of objects) {
    if (typeof o.collection_id === 'number') collectionIds.add(o.collection_id);
    if (typeof o.dashboard_id === 'number') dashboardIds.add(o.dashboard_id);
  }
  const [collections, dashboards] = await Promise.all([
    collectionIds.size ? db.selectFrom('collection').select(['id', 'name']).where('id', 'in', [...collectionIds]).execute() : [],
    dashboardIds.size ? db.selectFrom('report_dashboard').select(['id', 'name']).where('id', 'in', [...dashboardIds]).execute() : [],
  ]);
  const c = new Map(collections.map((r) => [r.id, r.name]));
  const d = new Map(dashboards.map((r) => [r.id, r.name]));
  return { collection: (id) => c.get(id) ?? null, dashboard: (id) => d.get(id) ?? null };
}

async function detailed(db: Db, model: string, rows: RevisionRow[], describeKey?: KeyDescriber, diff?: Revisionable['diff']) {
  // rows newest first; each is described against the one before it
  const objects = rows.map((r) => parseJson<Record<string, unknown>>(r.object, {}));
  const names = await nameLookup(db, objects);
  const users = await db
    .selectFrom('core_user')
    .select(['id', 'first_name', 'last_name', 'email'])
    .where('id', 'in', rows.length ? [...new Set(rows.map((r) => r.user_id))] : [0])
    .execute();
  const userById = new Map(users.map((u) => [u.id, u]));
  return rows.map((row, i) => {
    const previous = i + 1 < rows.length ? objects[i + 1] : null;
    const object = objects[i];
    const change = describeChange(model, {
      isCreation: bool(row.is_creation),
      isReversion: bool(row.is_reversion),
      before: previous,
      after: object,
      names,
      describeKey,
    });
    const user = userById.get(row.user_id);
    return {
      id: row.id,
      is_reversion: bool(row.is_reversion),
      is_creation: bool(row.is_creation),
      message: row.message,
      metabase_version: row.metabase_version,
      most_recent: bool(row.most_recent),
      timestamp: row.timestamp,
      user: user
        ? { id: user.id, first_name: user.first_name, last_name: user.last_name, common_name: commonName(user) }
        : null,
      diff: diff ? diff(previous, object) : previous ? diffMap(previous, object) : null,
      description: change.description,
      has_multiple_changes: change.hasMultipleChanges,
    };
  });
}

export async function listRevisions(ctx: AppContext, caller: Caller, entity: string, id: number) {
  const r = revisionableFor(entity);
  await r.checkRead(ctx, caller, id);
  const rows = (await ctx.db
    .selectFrom('revision')
    .selectAll()
    .where('model', '=', r.model)
    .where('model_id', '=', id)
    .orderBy('id', 'desc')
    .execute()) as RevisionRow[];
  return detailed(ctx.db, r.model, rows, r.describeKey, r.diff);
}

/** Goes back to a revision and records that as a new (reversion) revision, which is returned. */
export async function revertRevision(ctx: AppContext, caller: Caller, entity: string, id: number, revisionId: number) {
  const r = revisionableFor(entity);
  await r.checkWrite(ctx, caller, id);
  const target = (await ctx.db
    .selectFrom('revision')
    .selectAll()
    .where('model', '=', r.model)
    .where('model_id', '=', id)
    .where('id', '=', revisionId)
    .executeTakeFirst()) as RevisionRow | undefined;
  if (!target) throw notFound();
  const object = parseJson<Record<string, unknown>>(target.object, {});
  const newId = await ctx.db.transaction().execute(async (trx) => {
    await r.revert(ctx, trx, caller, id, object);
    return pushRevision(ctx, trx, { model: r.model, modelId: id, userId: caller.user.id, object, isReversion: true });
  });
  const rows = (await ctx.db
    .selectFrom('revision')
    .selectAll()
    .where('model', '=', r.model)
    .where('model_id', '=', id)
    .where('id', '<=', newId ?? 0)
    .orderBy('id', 'desc')
    .limit(2)
    .execute()) as RevisionRow[];
  return (await detailed(ctx.db, r.model, rows, r.describeKey, r.diff))[0];
}

export interface LastEditInfo {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  timestamp: string;
}

/** `last-edit-info` of many objects of one model: the author and time of each one's latest revision. */
export async function lastEditInfo(db: Db, model: string, ids: number[]): Promise<Map<number, LastEditInfo>> {
  const out = new Map<number, LastEditInfo>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('revision')
    .innerJoin('core_user', 'core_user.id', 'revision.user_id')
    .select(['revision.model_id', 'revision.timestamp', 'core_user.id', 'core_user.email', 'core_user.first_name', 'core_user.last_name'])
    .where('revision.model', '=', model)
    .where('revision.most_recent', '=', true)
    .where('revision.model_id', 'in', [...new Set(ids)])
    .execute();
  for (const row of rows) {
    out.set(row.model_id, { id: row.id, email: row.email, first_name: row.first_name, last_name: row.last_name, timestamp: row.timestamp });
  }
  return out;
}

/** Ids of the objects of one model a user revised, most recently revised first (each once). */
export async function recentlyRevisedIds(db: Db, model: string, userId: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('revision')
    .select(['model_id', (eb) => eb.fn.max('timestamp').as('latest')])
    .where('model', '=', model)
    .where('user_id', '=', userId)
    .groupBy('model_id')
    .orderBy('latest', 'desc')
    .orderBy('model_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.model_id);
}
