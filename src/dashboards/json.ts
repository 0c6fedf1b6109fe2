// How dashboards look in API responses (reference §3.2, §3.3): the row's columns with JSON parsed, and for a full
// dashboard its dashcards (with `card`, `series`, link-card entities), tabs, `param_fields`, `param_values`,
// `last_used_param_values`, `collection`, permission flags and `last-edit-info` — loaded with one query per kind.

import type { AppContext } from '../context.js';
import type { CollectionAccess } from '../permissions/collections.js';
import { bool, parseJson, type Db } from '../appdb/portable.js';
import { hydrateCollections } from '../collections/json.js';
import { lastEditInfo } from '../revisions/revisions.js';
import { cardsByIds, type CardRow } from '../cards/store.js';
import { cardColumnsJson, canWriteCard } from '../cards/json.js';
import { userInfos } from '../cards/creators.js';
import { hydrateFields } from '../databases/hydrate.js';
import { fieldValuesJson, loadFieldValues } from '../databases/field-values.js';
import { dashcardsOf, mappingsOf, parametersOf, seriesOf, tabsOf, vizSettingsOf, type DashboardRow, type DashcardRow, type TabRow } from './store.js';
import { lastUsedParameterValues, parameterFieldIds } from './parameters.js';
import { linkEntities, withLinkEntity } from './link-cards.js';
import { actionsJson } from '../actions/json.js';
import { viewableFieldIds } from '../permissions/data-access.js';
import type { Caller } from '../http/caller.js';

type Obj = Record<string, unknown>;

/** The columns of a dashboard row, JSON parsed. */
export function dashboardColumnsJson(row: DashboardRow) {
  return {
    id: row.id,
    entity_id: row.entity_id,
    name: row.name,
    description: row.description,
    collection_id: row.collection_id,
    collection_position: row.collection_position,
    creator_id: row.creator_id,
    made_public_by_id: row.made_public_by_id,
    public_uuid: row.public_uuid,
    enable_embedding: bool(row.enable_embedding),
    embedding_params: parseJson<Obj | null>(row.embedding_params, null),
    initially_published_at: row.initially_published_at,
    parameters: parametersOf(row),
    auto_apply_filters: bool(row.auto_apply_filters),
    width: row.width,
    position: row.position,
    caveats: row.caveats,
    points_of_interest: row.points_of_interest,
    show_in_getting_started: bool(row.show_in_getting_started),
    cache_ttl: row.cache_ttl,
    archived: bool(row.archived),
    archived_directly: bool(row.archived_directly),
    view_count: row.view_count,
    last_viewed_at: row.last_viewed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function tabJson(row: TabRow) {
  return {
    id: row.id,
    entity_id: row.entity_id,
    dashboard_id: row.dashboard_id,
    name: row.name,
    position: row.position,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A card as it sits in a dashcard or its series: its columns, or only `{id}` when the caller may not read it. */
function dashcardCardJson(access: CollectionAccess, card: CardRow | undefined, id: number): Obj {
  if (!card || !access.canRead(card.collection_id)) return { id };
  return { ...cardColumnsJson(card), can_write: canWriteCard(access, card), moderation_reviews: [], query_average_duration: null };
}

export interface DashcardContext {
  access: CollectionAccess;
  cards: Map<number, CardRow>;
  series: Map<number, number[]>;
  links: Map<string, Obj>;
  /** Actions of action buttons the caller may see, by id. */
  actions: Map<number, Obj>;
}

export function dashcardJson(dashcard: DashcardRow, c: DashcardContext): Obj {
  const card = dashcard.card_id === null ? null : dashcardCardJson(c.access, c.cards.get(dashcard.card_id), dashcard.card_id);
  return {
    id: dashcard.id,
    entity_id: dashcard.entity_id,
    dashboard_id: dashcard.dashboard_id,
    dashboard_tab_id: dashcard.dashboard_tab_id,
    card_id: dashcard.card_id,
    card,
    action_id: dashcard.action_id,
    action: dashcard.action_id === null ? null : (c.actions.get(dashcard.action_id) ?? null),
    row: dashcard.row,
    col: dashcard.col,
    size_x: dashcard.size_x,
    size_y: dashcard.size_y,
    parameter_mappings: mappingsOf(dashcard),
    visualization_settings: withLinkEntity(vizSettingsOf(dashcard), dashcard, c.links),
    inline_parameters: parseJson<unknown[]>(dashcard.inline_parameters, []),
    series: (c.series.get(dashcard.id) ?? []).map((id) => dashcardCardJson(c.access, c.cards.get(id), id)),
    collection_authority_level: null,
    created_at: dashcard.created_at,
    updated_at: dashcard.updated_at,
  };
}

/** Cards and series of dashcards, ready for `dashcardJson`. */
export async function dashcardContext(ctx: AppContext, access: CollectionAccess, dashcards: DashcardRow[], db: Db = ctx.db): Promise<DashcardContext> {
  const series = await seriesOf(db, dashcards.map((d) => d.id));
  const cardIds = [...dashcards.map((d) => d.card_id).filter((id): id is number => id !== null), ...[...series.values()].flat()];
  const [cards, links, actions] = await Promise.all([cardsByIds(db, cardIds), linkEntities(ctx, access, dashcards), dashcardActions(ctx, access, dashcards, db)]);
  return { access, cards, series, links, actions };
}

/** The actions of action buttons, hydrated, when their model is readable. */
async function dashcardActions(ctx: AppContext, access: CollectionAccess, dashcards: DashcardRow[], db: Db): Promise<Map<number, Obj>> {
  const ids = [...new Set(dashcards.map((d) => d.action_id).filter((id): id is number => id !== null))];
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('action').selectAll().where('id', 'in', ids).execute();
  const models = await cardsByIds(db, rows.map((r) => r.model_id));
  const visible = rows.filter((r) => {
    const model = models.get(r.model_id);
    return model !== undefined && access.canRead(model.collection_id);
  });
  return new Map((await actionsJson(ctx, visible)).map((a) => [a.id as number, a]));
}

/** Metabase's order of dashcards in responses. */
export function sortDashcards(dashcards: DashcardRow[]): DashcardRow[] {
  return [...dashcards].sort((a, b) => a.row - b.row || a.col - b.col || a.id - b.id);
}

/**
 * `param_fields` and `param_values` of a dashboard: the fields its filters are wired to, and their list values —
 * for a viewer (`caller`), only those whose data isn't blocked for them (null: a public link or embed, all of them).
 */
export async function paramFieldsAndValues(ctx: AppContext, dashcards: DashcardRow[], cards: Map<number, CardRow>, caller: Caller | null = null) {
  const byParameter = parameterFieldIds(dashcards, cards);
  const wired = [...new Set([...byParameter.values()].flatMap((s) => [...s]))];
  const viewable = caller ? await viewableFieldIds(ctx, caller, wired) : new Set(wired);
  for (const [parameterId, ids] of byParameter) byParameter.set(parameterId, new Set([...ids].filter((id) => viewable.has(id))));
  const allIds = wired.filter((id) => viewable.has(id));
  if (allIds.length === 0) return { paramFields: {}, paramValues: null };
  const rows = await ctx.db.selectFrom('metabase_field').selectAll().where('id', 'in', allIds).execute();
  const [hydrated, values] = await Promise.all([
    hydrateFields(ctx, rows, { dimensions: true, nameField: true }),
    loadFieldValues(ctx, rows.filter((r) => r.has_field_values === 'list' || r.has_field_values === 'auto-list').map((r) => r.id)),
  ]);
  const byId = new Map(hydrated.map((f) => [f.id as number, f]));
  const paramFields: Record<string, Obj[]> = {};
  for (const [parameterId, ids] of byParameter) {
    const fields = [...ids].map((id) => byId.get(id)).filter((f): f is Obj => f !== undefined);
    if (fields.length) paramFields[parameterId] = fields;
  }
  const paramValues: Record<string, Obj> = {};
  for (const [id, stored] of values) paramValues[String(id)] = fieldValuesJson(id, stored);
  return { paramFields, paramValues: Object.keys(paramValues).length ? paramValues : null };
}

export interface DashboardJsonOptions {
  /** Include the caller's `last_used_param_values` (GET); creation answers `{}`. */
  lastUsedValues?: boolean;
}

/** The full dashboard as GET /api/dashboard/:id returns it. */
export async function dashboardJson(ctx: AppContext, access: CollectionAccess, row: DashboardRow, options: DashboardJsonOptions = {}): Promise<Obj> {
  const [dashcardRows, tabs, collections, edits, lastUsed] = await Promise.all([
    dashcardsOf(ctx.db, [row.id]),
    tabsOf(ctx.db, [row.id]),
    hydrateCollections(ctx, access, [row.collection_id]),
    lastEditInfo(ctx.db, 'Dashboard', [row.id]),
    options.lastUsedValues === false ? Promise.resolve({}) : lastUsedParameterValues(ctx.db, access.caller.user.id, row.id),
  ]);
  const dashcards = sortDashcards(dashcardRows);
  const context = await dashcardContext(ctx, access, dashcards);
  const { paramFields, paramValues } = await paramFieldsAndValues(ctx, dashcards, context.cards, access.caller);
  const canWrite = access.canWrite(row.collection_id);
  const archived = bool(row.archived);
  const collection = collections.get(row.collection_id) ?? null;
  const edit = edits.get(row.id);
  return {
    ...dashboardColumnsJson(row),
    dashcards: dashcards.map((d) => dashcardJson(d, context)),
    tabs: tabs.map(tabJson),
    param_fields: paramFields,
    param_values: paramValues,
    last_used_param_values: lastUsed,
    collection,
    collection_authority_level: null,
    can_write: canWrite,
    can_restore: archived && bool(row.archived_directly) && canWrite && !(collection && collection.archived === true),
    can_delete: archived && canWrite,
    moderation_reviews: [],
    ...(edit ? { 'last-edit-info': edit } : {}),
  };
}

/** Rows of GET /api/dashboard: the columns plus `creator` and `last-edit-info`. */
export async function dashboardListJson(ctx: AppContext, rows: DashboardRow[]): Promise<Obj[]> {
  const [creators, edits] = await Promise.all([
    userInfos(ctx.db, rows.map((r) => r.creator_id)),
    lastEditInfo(ctx.db, 'Dashboard', rows.map((r) => r.id)),
  ]);
  return rows.map((row) => {
    const edit = edits.get(row.id);
    return { ...dashboardColumnsJson(row), creator: creators.get(row.creator_id) ?? null, ...(edit ? { 'last-edit-info': edit } : {}) };
  });
}
