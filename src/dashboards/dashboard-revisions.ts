// Dashboards in the revision history: what is recorded (the dashboard's editable columns with its dashcards as
// `cards` and its `tabs`), how a revision is described ("added a card", "rearranged the tabs", …), and how a
// dashboard goes back to a revision — layout included.

import type { AppContext } from '../context.js';
import { bool, nowIso, parseJson, toJson, type Db } from '../appdb/portable.js';
import { collectionAccess } from '../permissions/collections.js';
import { registerRevisionable } from '../revisions/revisions.js';
import { dashcardsOf, mappingsOf, parametersOf, requireDashboard, seriesOf, tabsOf, vizSettingsOf } from './store.js';
import { applyLayout, type DashcardInput, type TabInput } from './layout.js';
import { followDashboard } from './dashboard-questions.js';

type Obj = Record<string, unknown>;

/** The recorded state of a dashboard, read through `db` (inside the saving transaction). */
export async function serializeDashboard(ctx: AppContext, db: Db, id: number): Promise<Obj> {
  const row = await requireDashboard(ctx, id, db);
  const [dashcards, tabs] = await Promise.all([dashcardsOf(db, [id]), tabsOf(db, [id])]);
  const series = await seriesOf(db, dashcards.map((d) => d.id));
  return {
    name: row.name,
    description: row.description,
    collection_id: row.collection_id,
    collection_position: row.collection_position,
    parameters: parametersOf(row),
    auto_apply_filters: bool(row.auto_apply_filters),
    width: row.width,
    position: row.position,
    caveats: row.caveats,
    points_of_interest: row.points_of_interest,
    show_in_getting_started: bool(row.show_in_getting_started),
    cache_ttl: row.cache_ttl,
    archived: bool(row.archived),
    enable_embedding: bool(row.enable_embedding),
    embedding_params: parseJson(row.embedding_params, null),
    cards: [...dashcards]
      .sort((a, b) => a.id - b.id)
      .map((d) => ({
        id: d.id,
        dashboard_id: d.dashboard_id,
        dashboard_tab_id: d.dashboard_tab_id,
        card_id: d.card_id,
        action_id: d.action_id,
        row: d.row,
        col: d.col,
        size_x: d.size_x,
        size_y: d.size_y,
        parameter_mappings: mappingsOf(d),
        visualization_settings: vizSettingsOf(d),
        inline_parameters: parseJson(d.inline_parameters, null),
        series: series.get(d.id) ?? [],
      })),
    tabs: tabs.map((t) => ({ id: t.id, dashboard_id: t.dashboard_id, name: t.name, position: t.position })),
  };
}

const COLUMNS = ['name', 'description', 'collection_position', 'width', 'position', 'caveats', 'points_of_interest', 'cache_ttl'] as const;
const BOOLEAN_COLUMNS = ['auto_apply_filters', 'show_in_getting_started', 'enable_embedding'] as const;

async function revertDashboard(ctx: AppContext, db: Db, id: number, object: Obj): Promise<void> {
  const before = await requireDashboard(ctx, id, db);
  const values: Obj = {};
  for (const key of COLUMNS) if (key in object) values[key] = object[key] ?? null;
  for (const key of BOOLEAN_COLUMNS) if (key in object) values[key] = Boolean(object[key]);
  if ('parameters' in object) values.parameters = JSON.stringify(Array.isArray(object.parameters) ? object.parameters : []);
  if ('embedding_params' in object) values.embedding_params = toJson(object.embedding_params);
  if (typeof values.name !== 'string' || !values.name) delete values.name;
  if ('collection_id' in object) {
    const target = typeof object.collection_id === 'number' ? object.collection_id : null;
    const exists = target === null || (await db.selectFrom('collection').select('id').where('id', '=', target).executeTakeFirst());
    if (exists) values.collection_id = target;
  }
  if ('archived' in object && Boolean(object.archived) !== bool(before.archived)) {
    values.archived = Boolean(object.archived);
    values.archived_directly = Boolean(object.archived);
  }
  await db.updateTable('report_dashboard').set({ ...values, updated_at: nowIso() }).where('id', '=', id).execute();
  const cards = Array.isArray(object.cards) ? (object.cards as DashcardInput[]) : [];
  const tabs = Array.isArray(object.tabs) ? (object.tabs as Array<TabInput & { position?: number }>) : [];
  const ordered = [...tabs].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  await applyLayout(ctx, db, id, { dashcards: cards, tabs: ordered }, 'restore');
  await followDashboard(db, id);
}

registerRevisionable({
  entity: 'dashboard',
  model: 'Dashboard',
  async checkRead(ctx, caller, id) {
    const row = await requireDashboard(ctx, id);
    (await collectionAccess(ctx, caller)).checkRead(row.collection_id);
  },
  async checkWrite(ctx, caller, id) {
    const row = await requireDashboard(ctx, id);
    (await collectionAccess(ctx, caller)).checkWrite(row.collection_id);
  },
  revert: (ctx, db, _caller, id, object) => revertDashboard(ctx, db, id, object),
  describeKey: (key, before, after) => describeDashboardKey(key, before, after),
});

// ----- descriptions ----------------------------------------------------------------------------------------------

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many.replace('{0}', String(n)));

type SavedCard = { id: number; card_id?: number | null; series?: number[] } & Obj;
type SavedTab = { id: number; position?: number } & Obj;

function cardsFragment(before: SavedCard[], after: SavedCard[]): string | null {
  if (same(before, after)) return null;
  const prevIds = new Set(before.map((c) => c.id));
  const nextIds = new Set(after.map((c) => c.id));
  const diff = Math.abs(prevIds.size - nextIds.size);
  if ([...prevIds].every((id) => nextIds.has(id)) && prevIds.size < nextIds.size) return plural(diff, 'added a card', 'added {0} cards');
  if ([...nextIds].every((id) => prevIds.has(id)) && prevIds.size > nextIds.size) return plural(diff, 'removed a card', 'removed {0} cards');
  const prevById = new Map(before.map((c) => [c.id, c]));
  const changedKeys = new Set<string>();
  for (const card of after) {
    const old = prevById.get(card.id);
    if (!old) {
      changedKeys.add('id');
      continue;
    }
    for (const key of new Set([...Object.keys(old), ...Object.keys(card)])) if (!same(old[key], card[key])) changedKeys.add(key);
  }
  if (prevIds.size !== nextIds.size) changedKeys.add('id');
  const layoutOnly = [...changedKeys].every((k) => ['row', 'col', 'size_x', 'size_y'].includes(k));
  if (layoutOnly) return 'rearranged the cards';
  // a change to nothing but one card's series is told on its own ("added some series to card N")
  const seriesOnly = [...changedKeys].every((k) => k === 'series');
  return seriesOnly ? null : 'modified the cards';
}

function seriesFragments(before: SavedCard[], after: SavedCard[]): string[] {
  const prevById = new Map(before.map((c) => [c.id, c]));
  const out: string[] = [];
  for (const card of after) {
    const old = prevById.get(card.id);
    if (!old) continue;
    const keys = new Set([...Object.keys(old), ...Object.keys(card)]);
    const changed = [...keys].filter((k) => !same(old[k], card[k]));
    if (changed.length !== 1 || changed[0] !== 'series') continue;
    const n1 = (old.series ?? []).length;
    const n2 = (card.series ?? []).length;
    if (n1 < n2) out.push(`added some series to card ${old.card_id}`);
    else if (n1 > n2) out.push(`removed some series from card ${old.card_id}`);
    else out.push(`modified the series on card ${old.card_id}`);
  }
  return out;
}

function tabsFragment(before: SavedTab[], after: SavedTab[]): string | null {
  if (same(before, after)) return null;
  const prevIds = new Set(before.map((t) => t.id));
  const nextIds = new Set(after.map((t) => t.id));
  const added = [...nextIds].filter((id) => !prevIds.has(id)).length;
  const removed = [...prevIds].filter((id) => !nextIds.has(id)).length;
  if (added) return plural(added, 'added a tab', 'added {0} tabs');
  if (removed) return plural(removed, 'removed a tab', 'removed {0} tabs');
  const withoutPosition = (tabs: SavedTab[]) => JSON.stringify(tabs.map(({ position: _p, ...rest }) => rest).sort((a, b) => a.id - b.id));
  return withoutPosition(before) === withoutPosition(after) ? 'rearranged the tabs' : 'modified the tabs';
}

/** Dashboards' own wording for the keys the common fragments don't know (undefined: use the common wording). */
function describeDashboardKey(key: string, before: unknown, after: unknown): string | null | undefined {
  switch (key) {
    case 'cache_ttl':
      if (before === null || before === undefined) return 'added a cache ttl';
      if (after === null || after === undefined) return 'removed the cache ttl';
      return `changed the cache ttl from "${before}" to "${after}"`;
    case 'auto_apply_filters':
      return `set auto apply filters to ${Boolean(after)}`;
    case 'cards': {
      const prev = (Array.isArray(before) ? before : []) as SavedCard[];
      const next = (Array.isArray(after) ? after : []) as SavedCard[];
      return cardsFragment(prev, next) ?? seriesFragments(prev, next)[0] ?? null;
    }
    case 'tabs':
      return tabsFragment((Array.isArray(before) ? before : []) as SavedTab[], (Array.isArray(after) ? after : []) as SavedTab[]);
    default:
      return undefined;
  }
}
