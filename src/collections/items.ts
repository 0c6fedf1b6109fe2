// GET /api/collection/:id/items and /root/items: the contents of a collection, of every kind, in one sorted and
// paged list — {data, total, models, limit, offset}.
//
// Each kind of content registers an item source (cards register card/dataset/metric, dashboards `dashboard`,
// snippets `snippet`, timelines `timeline`; collections are built in here). A source returns the caller-visible
// items of one collection already shaped for the API; sorting and paging happen here, once.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import type { Db } from '../appdb/portable.js';
import { bool } from '../appdb/portable.js';
import { collectionAccess, type CollectionAccess } from '../permissions/collections.js';
import { recordView } from '../activity/views.js';
import { readableCollection, inOtherUsersPersonalTree } from './collections.js';
import { locationIds, parentIdOf } from './locations.js';
import { canRestoreCollection, canWriteCollection, effectiveLocation } from './json.js';
import type { CollectionRow } from './store.js';

export type PinnedState = 'all' | 'is_pinned' | 'is_not_pinned';
export type SortColumn = 'name' | 'last_edited_at' | 'last_edited_by' | 'model';

export interface ItemQuery {
  ctx: AppContext;
  access: CollectionAccess;
  /** null: the root collection */
  collection: CollectionRow | null;
  namespace: string | null;
  isTrash: boolean;
  archived: boolean;
  pinnedState: PinnedState;
  showDashboardQuestions: boolean;
  /** Add `can_run_adhoc_query` to cards. */
  includeCanRunAdhocQuery?: boolean;
}

export type Item = Record<string, unknown> & { id: number; model: string; name: string };

export interface ItemSource {
  /** The item models this source answers for, e.g. ['card', 'dataset', 'metric']. */
  models: readonly string[];
  /** Namespaces whose collections hold these items (null = the default namespace). */
  namespaces: ReadonlyArray<string | null>;
  items(query: ItemQuery, models: ReadonlySet<string>): Promise<Item[]>;
  /**
   * For `here`/`below`: which item models exist (not archived) directly in each of `collectionIds`.
   * Optional; sources without one don't show up in here/below.
   */
  kinds?(db: Db, collectionIds: number[], options: { showDashboardQuestions: boolean }): Promise<Map<number, Set<string>>>;
}

const sources: ItemSource[] = [];

export function registerItemSource(source: ItemSource): void {
  if (!sources.some((s) => s.models.join() === source.models.join())) sources.push(source);
}

const MODEL_RANK: Record<string, number> = {
  dashboard: 1,
  pulse: 2,
  dataset: 3,
  metric: 4,
  card: 5,
  snippet: 6,
  collection: 7,
  timeline: 8,
};
/** Every model the items endpoints know, in Metabase's order of querying. */
const ALL_MODELS = ['collection', 'dataset', 'metric', 'card', 'dashboard', 'pulse', 'snippet', 'timeline'];
const NAMESPACES_OF: Record<string, ReadonlyArray<string | null>> = {
  collection: [null, 'snippets'],
  dataset: [null],
  metric: [null],
  card: [null],
  dashboard: [null],
  pulse: [null],
  snippet: ['snippets'],
  timeline: [null],
};

export interface ItemsOptions {
  models: string[];
  archived: boolean;
  pinnedState: PinnedState;
  sortColumn: SortColumn;
  sortDirection: 'asc' | 'desc';
  officialCollectionsFirst: boolean | null;
  showDashboardQuestions: boolean;
  includeCanRunAdhocQuery?: boolean;
  namespace: string | null;
  limit: number | null;
  offset: number | null;
}

/** Kinds present in every collection of `collectionIds`, from all sources plus child collections. */
export async function kindsByCollection(
  db: Db,
  collectionIds: number[],
  options: { showDashboardQuestions: boolean; only?: ReadonlySet<string> },
): Promise<Map<number, Set<string>>> {
  const out = new Map<number, Set<string>>();
  if (collectionIds.length === 0) return out;
  for (const source of sources) {
    if (!source.kinds) continue;
    if (options.only && !source.models.some((m) => options.only!.has(m))) continue;
    const found = await source.kinds(db, collectionIds, options);
    for (const [id, kinds] of found) {
      const set = out.get(id) ?? new Set<string>();
      for (const k of kinds) if (!options.only || options.only.has(k)) set.add(k);
      out.set(id, set);
    }
  }
  return out;
}

/**
 * The effective parent of each visible collection: its nearest ancestor the caller can read (null = root).
 */
export function effectiveParentId(access: CollectionAccess, row: CollectionRow): number | null {
  const ids = locationIds(row.location);
  for (let i = ids.length - 1; i >= 0; i--) if (access.canRead(ids[i], row.namespace)) return ids[i];
  return null;
}

/** `here` and `below` for `rows`, computed over `universe` (all visible collections of the namespace). */
export async function annotateHereBelow(
  db: Db,
  access: CollectionAccess,
  rows: CollectionRow[],
  universe: CollectionRow[],
  options: { showDashboardQuestions: boolean; only?: ReadonlySet<string>; includeCollections: boolean },
): Promise<Map<number, { here: string[]; below: string[] }>> {
  const ids = universe.filter((c) => !bool(c.archived)).map((c) => c.id);
  const kinds = await kindsByCollection(db, ids, options);
  if (options.includeCollections) {
    for (const c of universe) {
      if (bool(c.archived) || c.personal_owner_id !== null) continue;
      const parent = effectiveParentId(access, c);
      if (parent === null) continue;
      const set = kinds.get(parent) ?? new Set<string>();
      set.add('collection');
      kinds.set(parent, set);
    }
  }
  const byId = new Map(universe.map((c) => [c.id, c]));
  const below = new Map<number, Set<string>>();
  for (const [id, set] of kinds) {
    const row = byId.get(id);
    if (!row) continue;
    for (const ancestor of locationIds(row.location)) {
      const target = below.get(ancestor) ?? new Set<string>();
      for (const k of set) target.add(k);
      below.set(ancestor, target);
    }
  }
  const out = new Map<number, { here: string[]; below: string[] }>();
  for (const row of rows) {
    out.set(row.id, { here: [...(kinds.get(row.id) ?? [])].sort(), below: [...(below.get(row.id) ?? [])].sort() });
  }
  return out;
}

async function collectionItems(query: ItemQuery): Promise<Item[]> {
  const { ctx, access, collection, namespace, isTrash, archived } = query;
  if (query.pinnedState === 'is_pinned') return []; // collections are never pinned
  let q = ctx.db.selectFrom('collection').selectAll();
  q = namespace === null ? q.where('namespace', 'is', null) : q.where('namespace', '=', namespace);
  const universe = (await q.execute()).filter((r) => r.type !== 'trash' && access.canRead(r.id, r.namespace));
  const others = new Set(universe.filter((r) => r.personal_owner_id !== null && r.personal_owner_id !== access.caller.user.id).map((r) => r.id));
  let children: CollectionRow[];
  if (isTrash) {
    children = universe.filter((r) => bool(r.archived) && bool(r.archived_directly) && canWriteCollection(access, r));
  } else {
    children = universe.filter(
      (r) =>
        r.personal_owner_id === null &&
        bool(r.archived) === archived &&
        effectiveParentId(access, r) === (collection?.id ?? null) &&
        // an archived collection lists what was archived with it
        (!archived || !collection || r.archive_operation_id === collection.archive_operation_id),
    );
  }
  if (!access.isSuperuser) children = children.filter((r) => !inOtherUsersPersonalTree(r, others));
  const annotations = await annotateHereBelow(ctx.db, access, children, universe, {
    showDashboardQuestions: query.showDashboardQuestions,
    includeCollections: true,
  });
  const parents = new Map(universe.map((r) => [r.id, r]));
  return children.map((row) => {
    const parentId = parentIdOf(row.location);
    return {
      id: row.id,
      model: 'collection',
      name: row.name,
      description: row.description,
      entity_id: row.entity_id,
      collection_id: collection?.id ?? null,
      location: row.location,
      effective_location: effectiveLocation(access, row.location),
      authority_level: row.authority_level,
      type: row.type,
      archived: bool(row.archived),
      can_write: canWriteCollection(access, row),
      can_restore: canRestoreCollection(access, row, parentId === null ? undefined : parents.get(parentId)),
      can_delete: false,
      dashboard_id: null,
      database_id: null,
      last_used_at: null,
      moderated_status: null,
      ...(annotations.get(row.id) ?? { here: [], below: [] }),
    } as Item;
  });
}

function compareText(a: unknown, b: unknown): number {
  return String(a ?? '').toLowerCase().localeCompare(String(b ?? '').toLowerCase());
}

function lastEdit(item: Item): { timestamp?: string; first_name?: string | null; last_name?: string | null } | undefined {
  return item['last-edit-info'] as { timestamp?: string; first_name?: string | null; last_name?: string | null } | undefined;
}

/** Nulls last regardless of direction, as Metabase orders on PostgreSQL. */
function compareNullable(a: string | null | undefined, b: string | null | undefined, direction: 1 | -1): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  return direction * compareText(a, b);
}

export function sortItems(items: Item[], options: Pick<ItemsOptions, 'sortColumn' | 'sortDirection'> & { officialFirst: boolean }): Item[] {
  const dir: 1 | -1 = options.sortDirection === 'desc' ? -1 : 1;
  return [...items].sort((a, b) => {
    if (options.officialFirst) {
      const oa = a.authority_level === 'official' ? 0 : 1;
      const ob = b.authority_level === 'official' ? 0 : 1;
      if (oa !== ob) return oa - ob;
    }
    const ta = a.model === 'collection' && a.type ? 1 : 0;
    const tb = b.model === 'collection' && b.type ? 1 : 0;
    if (ta !== tb) return ta - tb;
    let c = 0;
    switch (options.sortColumn) {
      case 'name':
        c = dir * compareText(a.name, b.name);
        break;
      case 'last_edited_at':
        c = compareNullable(lastEdit(a)?.timestamp, lastEdit(b)?.timestamp, dir) || compareText(a.name, b.name);
        break;
      case 'last_edited_by':
        c =
          compareNullable(lastEdit(a)?.last_name, lastEdit(b)?.last_name, dir) ||
          compareNullable(lastEdit(a)?.first_name, lastEdit(b)?.first_name, dir) ||
          compareText(a.name, b.name);
        break;
      case 'model':
        c = dir * ((MODEL_RANK[a.model] ?? 100) - (MODEL_RANK[b.model] ?? 100)) || compareText(a.name, b.name);
        break;
    }
    return c || a.id - b.id;
  });
}

async function listItems(query: ItemQuery, requested: Set<string>, options: ItemsOptions) {
  const valid = ALL_MODELS.filter(
    (m) => (requested.size === 0 || requested.has(m)) && (NAMESPACES_OF[m] ?? []).includes(query.namespace),
  );
  const models = [...valid].sort();
  const paging = { limit: options.limit, offset: options.offset };
  if (valid.length === 0) return { total: 0, data: [], ...paging, models };
  const wanted = new Set(valid);
  const found: Item[] = [];
  if (wanted.has('collection')) found.push(...(await collectionItems(query)));
  for (const source of sources) {
    const asked = source.models.filter((m) => wanted.has(m));
    if (asked.length === 0 || !source.namespaces.includes(query.namespace)) continue;
    found.push(...(await source.items(query, new Set(asked))));
  }
  const officialFirst = options.officialCollectionsFirst ?? !query.isTrash;
  const sorted = sortItems(found, { sortColumn: options.sortColumn, sortDirection: options.sortDirection, officialFirst });
  // Snippet folders and the snippets root are neither paged nor say limit/offset: Metabase never paged the snippets
  // namespace (its web app lists a folder whole), and clients expect that envelope.
  const snippetsNamespace = query.namespace === 'snippets';
  const paged =
    options.limit !== null && options.offset !== null && !snippetsNamespace
      ? sorted.slice(options.offset, options.offset + options.limit)
      : sorted;
  const data = paged.map((item) => ({ ...item, collection_id: query.collection?.id ?? null }));
  if (snippetsNamespace) return { total: sorted.length, data, models };
  return { total: sorted.length, data, models, ...paging };
}

export async function collectionItemsFor(ctx: AppContext, caller: Caller, id: number, options: ItemsOptions) {
  const access = await collectionAccess(ctx, caller);
  const collection = await readableCollection(ctx, access, id);
  const isTrash = collection.id === access.trashId;
  const query: ItemQuery = {
    ctx,
    access,
    collection,
    namespace: collection.namespace ?? null,
    isTrash,
    archived: options.archived || bool(collection.archived) || isTrash,
    pinnedState: options.pinnedState,
    showDashboardQuestions: options.showDashboardQuestions,
    includeCanRunAdhocQuery: options.includeCanRunAdhocQuery,
  };
  const result = await listItems(query, new Set(options.models), options);
  if (!isTrash) await recordView(ctx, caller, 'collection', collection.id);
  return result;
}

export async function rootItemsFor(ctx: AppContext, caller: Caller, options: ItemsOptions) {
  const access = await collectionAccess(ctx, caller);
  const namespace = options.namespace;
  let requested = new Set(options.models);
  // Without access to the root itself, only the collections that appear at the top for this user are listed.
  if (!access.canRead(null, namespace)) {
    requested = requested.size === 0 || requested.has('collection') ? new Set(['collection']) : new Set(['no_models']);
  }
  const query: ItemQuery = {
    ctx,
    access,
    collection: null,
    namespace,
    isTrash: false,
    archived: options.archived,
    pinnedState: options.pinnedState,
    showDashboardQuestions: options.showDashboardQuestions,
    includeCanRunAdhocQuery: options.includeCanRunAdhocQuery,
  };
  return listItems(query, requested, options);
}

