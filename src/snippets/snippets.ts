// Native query snippets (/api/native-query-snippet): reusable SQL fragments used as {{snippet: Name}} in native
// queries. They live in snippet folders (collections of the `snippets` namespace) whose permissions apply.

import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { badRequest, notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso, parseJson, type Db } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';
import { collectionAccess } from '../permissions/collections.js';
import { snippetAccess, SNIPPETS_NAMESPACE, type SnippetAccess } from '../permissions/snippets.js';
import { findCollection } from '../collections/store.js';
import { registerCollectable } from '../collections/collectables.js';
import { registerItemSource } from '../collections/items.js';
import { userInfos } from '../cards/creators.js';
import type { NativeQuerySnippetTable } from './tables.js';
import type { TemplateTag } from '../query/mbql/types.js';
import { recognizeTemplateTags, setSnippetIds, snippetNames } from '../query/native/recognize-tags.js';

export const NAME_MESSAGE = "snippet names cannot include '}' or start with spaces";
export const DUPLICATE_MESSAGE = 'A snippet with that name already exists. Please pick a different name.';

export type SnippetRow = Selectable<NativeQuerySnippetTable>;

export function isValidSnippetName(value: unknown): boolean {
  return typeof value === 'string' && value.trim().length > 0 && !/^\s/.test(value) && !value.includes('}');
}

async function requireSnippet(db: Db, id: number): Promise<SnippetRow> {
  const row = await db.selectFrom('native_query_snippet').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** A snippet's stored template tags (`{}` when none). */
export function snippetTemplateTags(row: Pick<SnippetRow, 'template_tags'>): Record<string, TemplateTag> {
  return parseJson<Record<string, TemplateTag>>(row.template_tags, {}) ?? {};
}

/**
 * The template tags of a snippet's content: a `{{snippet: Name}}` names the snippet called so now, else keeps the
 * snippet it named before (one renamed since); tags it had keep their ids.
 */
async function contentTemplateTags(db: Db, content: string, previous: Record<string, TemplateTag>): Promise<string> {
  const tags = recognizeTemplateTags(content, previous);
  const names = snippetNames(tags);
  if (names.length > 0) {
    const found = await db.selectFrom('native_query_snippet').select(['id', 'name']).where('name', 'in', names).execute();
    setSnippetIds(tags, new Map(found.map((row) => [row.name, row.id])));
  }
  return JSON.stringify(tags);
}

async function snippetsJson(ctx: AppContext, rows: SnippetRow[]) {
  const creators = await userInfos(ctx.db, rows.map((r) => r.creator_id));
  return rows.map((row) => ({
    id: row.id,
    entity_id: row.entity_id,
    name: row.name,
    description: row.description,
    content: row.content,
    template_tags: snippetTemplateTags(row),
    collection_id: row.collection_id,
    archived: bool(row.archived),
    creator_id: row.creator_id,
    creator: creators.get(row.creator_id) ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }));
}

async function checkFolder(ctx: AppContext, access: SnippetAccess, collectionId: number | null) {
  if (collectionId !== null) {
    const folder = await findCollection(ctx.db, collectionId);
    if (!folder) throw notFound();
    if (folder.namespace !== SNIPPETS_NAMESPACE) throw badRequest('A NativeQuerySnippet can only go in Collections in the :snippets namespace.');
  }
  access.checkWrite(collectionId);
}

async function checkNameFree(db: Db, name: string, exceptId: number | null) {
  let q = db.selectFrom('native_query_snippet').select('id').where('name', '=', name);
  if (exceptId !== null) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw badRequest(DUPLICATE_MESSAGE);
}

export async function listSnippets(ctx: AppContext, caller: Caller, archived: boolean) {
  const access = await snippetAccess(ctx, caller);
  if (!access.nativeWriter) return snippetsJson(ctx, []);
  const rows = (await ctx.db.selectFrom('native_query_snippet').selectAll().where('archived', '=', archived).execute())
    .filter((r) => access.canRead(r.collection_id))
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id);
  return snippetsJson(ctx, rows);
}

export async function getSnippet(ctx: AppContext, caller: Caller, id: number) {
  const access = await snippetAccess(ctx, caller);
  access.checkNativeWriter();
  const row = await requireSnippet(ctx.db, id);
  access.checkRead(row.collection_id);
  return (await snippetsJson(ctx, [row]))[0];
}

export async function createSnippet(
  ctx: AppContext,
  caller: Caller,
  input: { name: string; content: string; description: string | null; collection_id: number | null },
) {
  const access = await snippetAccess(ctx, caller);
  access.checkNativeWriter();
  await checkFolder(ctx, access, input.collection_id);
  await checkNameFree(ctx.db, input.name, null);
  const now = nowIso();
  const id = await insertReturningId(ctx.db, ctx.dialect, 'native_query_snippet', {
    entity_id: newEntityId(),
    name: input.name,
    description: input.description,
    content: input.content,
    template_tags: await contentTemplateTags(ctx.db, input.content, {}),
    collection_id: input.collection_id,
    creator_id: caller.user.id,
    archived: false,
    created_at: now,
    updated_at: now,
  });
  return (await snippetsJson(ctx, [await requireSnippet(ctx.db, id)]))[0];
}

export interface SnippetUpdate {
  name?: string | null;
  content?: string | null;
  description?: string | null;
  collection_id?: number | null;
  archived?: boolean | null;
}

export async function updateSnippet(ctx: AppContext, caller: Caller, id: number, input: SnippetUpdate, present: Set<string>) {
  const access = await snippetAccess(ctx, caller);
  access.checkNativeWriter();
  const before = await requireSnippet(ctx.db, id);
  access.checkWrite(before.collection_id);
  const changes: Record<string, unknown> = {};
  if (present.has('name') && input.name && input.name !== before.name) {
    await checkNameFree(ctx.db, input.name, id);
    changes.name = input.name;
  }
  if (present.has('content') && input.content !== null && input.content !== undefined && input.content !== before.content) {
    changes.content = input.content;
    changes.template_tags = await contentTemplateTags(ctx.db, input.content, snippetTemplateTags(before));
  }
  if (present.has('description')) changes.description = input.description ?? null;
  if (present.has('archived') && input.archived !== null && input.archived !== undefined) changes.archived = input.archived;
  if (present.has('collection_id') && (input.collection_id ?? null) !== before.collection_id) {
    await checkFolder(ctx, access, input.collection_id ?? null);
    changes.collection_id = input.collection_id ?? null;
  }
  if (Object.keys(changes).length > 0) {
    await ctx.db.updateTable('native_query_snippet').set({ ...changes, updated_at: nowIso() }).where('id', '=', id).execute();
  }
  return (await snippetsJson(ctx, [await requireSnippet(ctx.db, id)]))[0];
}

/** For native queries: the snippet called `name` (or with `id`), when the caller may read it. */
export async function snippetForQuery(ctx: AppContext, caller: Caller, ref: { id?: number | null; name?: string | null }) {
  let q = ctx.db.selectFrom('native_query_snippet').selectAll();
  if (ref.id) q = q.where('id', '=', ref.id);
  else if (ref.name) q = q.where('name', '=', ref.name);
  else return null;
  const row = await q.executeTakeFirst();
  if (!row) return null;
  const access = await collectionAccess(ctx, caller);
  return access.canRead(row.collection_id, SNIPPETS_NAMESPACE) ? row : null;
}

// Snippets live in snippet folders: archived with them and listed among their items.
registerCollectable({
  model: 'NativeQuerySnippet',
  async setArchivedWithCollections(db, collectionIds, archived) {
    await db.updateTable('native_query_snippet').set({ archived }).where('collection_id', 'in', collectionIds).execute();
  },
});

registerItemSource({
  models: ['snippet'],
  namespaces: [SNIPPETS_NAMESPACE],
  async items(query) {
    if (query.pinnedState === 'is_pinned') return [];
    // the folder itself was checked by the items endpoint; snippets also need native SQL somewhere
    const access = await snippetAccess(query.ctx, query.access.caller, query.access);
    if (!access.canRead(query.collection?.id ?? null)) return [];
    let q = query.ctx.db.selectFrom('native_query_snippet').selectAll().where('archived', '=', query.archived);
    q = query.collection === null ? q.where('collection_id', 'is', null) : q.where('collection_id', '=', query.collection.id);
    const rows = await q.execute();
    return rows.map((row) => ({ id: row.id, model: 'snippet', name: row.name, entity_id: row.entity_id, archived: bool(row.archived) }));
  },
});
