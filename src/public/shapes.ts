// What a shared card or dashboard shows to anyone holding its public link or embedding token (reference §8.3):
// only what is needed to draw it — never its SQL, its database, its collection or who made it.
//
//   card       {id, name, description, display, visualization_settings, parameters, dataset_query: {type,
//              native: {template-tags}} (native cards) or {type} (MBQL), param_values, param_fields}
//   dashboard  {id, name, description, parameters, auto_apply_filters, width, dashcards: [{id, card (the card
//              shape without param data), card_id, dashboard_id, dashboard_tab_id, series, row, col, size_x, size_y,
//              parameter_mappings, visualization_settings, action_id}], tabs, param_values, param_fields}

import { actionsJson } from '../actions/json.js';
import type { AppContext } from '../context.js';
import { bool, parseJson } from '../appdb/portable.js';
import { cardsByIds, datasetQueryOf, type CardRow } from '../cards/store.js';
import { templateTags } from '../cards/query-info.js';
import { cardParameters, fieldIdOf } from '../cards/parameter-values.js';
import { hydrateFields } from '../databases/hydrate.js';
import { fieldValuesJson, loadFieldValues } from '../databases/field-values.js';
import { dashcardsOf, mappingsOf, parametersOf, seriesOf, tabsOf, vizSettingsOf, type DashboardRow, type DashcardRow } from '../dashboards/store.js';
import { paramFieldsAndValues, sortDashcards, tabJson } from '../dashboards/json.js';

type Obj = Record<string, unknown>;

/** A parameter's slug: its own, else its template tag's name, else its id. */
export function slugOf(parameter: Obj): string {
  if (typeof parameter.slug === 'string' && parameter.slug) return parameter.slug;
  const target = parameter.target;
  if (Array.isArray(target) && Array.isArray(target[1]) && target[1][0] === 'template-tag' && typeof target[1][1] === 'string') return target[1][1];
  return String(parameter.id);
}

/** A card's parameters with the native template tags that no parameter covers merged in (as Metabase shows them). */
export function sharedCardParameters(card: CardRow): Obj[] {
  const own = cardParameters(card);
  const covered = new Set(own.map((p) => slugOf(p)));
  const fromTags = Object.values(templateTags(datasetQueryOf(card)))
    .filter((t) => t.type !== 'snippet' && t.type !== 'card' && !covered.has(String(t.name)))
    .map((t) => ({
      id: t.id,
      type: t['widget-type'] ?? (t.type === 'dimension' ? 'category' : t.type),
      target: [t.type === 'dimension' ? 'dimension' : 'variable', ['template-tag', t.name]],
      name: t['display-name'] ?? t.name,
      slug: t.name,
      default: t.default,
      ...(t.required ? { required: true } : {}),
    }));
  return [...own, ...fromTags];
}

/** The fields a card's parameters filter (field filters and MBQL targets). */
export function cardParameterFieldIds(card: CardRow): number[] {
  return [...new Set(sharedCardParameters(card).map((p) => fieldIdOf(card, p)).filter((id): id is number => id !== null))];
}

function sharedQuery(card: CardRow): Obj {
  const query = datasetQueryOf(card);
  if (query.type === 'native') return { type: 'native', native: { 'template-tags': templateTags(query) } };
  return { type: 'query' };
}

/** The card as a dashcard of a shared dashboard shows it. */
function cardBasics(card: CardRow): Obj {
  return {
    id: card.id,
    name: card.name,
    description: card.description,
    display: card.display,
    visualization_settings: parseJson<Obj>(card.visualization_settings, {}),
    dataset_query: sharedQuery(card),
  };
}

async function fieldsAndValues(ctx: AppContext, fieldIds: number[]): Promise<{ paramFields: Obj | null; paramValues: Obj | null }> {
  if (!fieldIds.length) return { paramFields: null, paramValues: null };
  const rows = await ctx.db.selectFrom('metabase_field').selectAll().where('id', 'in', fieldIds).execute();
  const [hydrated, values] = await Promise.all([
    hydrateFields(ctx, rows, { dimensions: true, nameField: true }),
    loadFieldValues(ctx, rows.filter((r) => r.has_field_values === 'list' || r.has_field_values === 'auto-list').map((r) => r.id)),
  ]);
  const paramFields: Obj = {};
  for (const f of hydrated) paramFields[String(f.id)] = f;
  const paramValues: Obj = {};
  for (const [id, stored] of values) paramValues[String(id)] = fieldValuesJson(id, stored);
  return { paramFields, paramValues: Object.keys(paramValues).length ? paramValues : null };
}

/** The shared card; `showParameter` keeps only the parameters the viewer may set (embedding). */
export async function sharedCardJson(ctx: AppContext, card: CardRow, showParameter: (p: Obj) => boolean = () => true): Promise<Obj> {
  const parameters = sharedCardParameters(card).filter(showParameter);
  const fieldIds = [...new Set(parameters.map((p) => fieldIdOf(card, p)).filter((id): id is number => id !== null))];
  const { paramFields, paramValues } = await fieldsAndValues(ctx, fieldIds);
  return {
    ...cardBasics(card),
    parameters,
    param_values: paramValues,
    param_fields: paramFields,
  };
}

/** Visible dashcards of a dashboard (those whose card is archived are hidden), in Metabase's order. */
export async function visibleDashcards(ctx: AppContext, dashboardId: number): Promise<{ dashcards: DashcardRow[]; cards: Map<number, CardRow>; series: Map<number, number[]> }> {
  const all = await dashcardsOf(ctx.db, [dashboardId]);
  const series = await seriesOf(ctx.db, all.map((d) => d.id));
  const cards = await cardsByIds(ctx.db, [...all.map((d) => d.card_id).filter((id): id is number => id !== null), ...[...series.values()].flat()]);
  const dashcards = sortDashcards(all).filter((d) => d.card_id === null || (cards.has(d.card_id) && !bool(cards.get(d.card_id)!.archived)));
  return { dashcards, cards, series };
}

/** A text card's `{{tag}}`s wired to filters whose values are known (an embedding token's), filled in. */
function fillTextCard(dashcard: DashcardRow, settings: Obj, values: Map<string, unknown>): Obj {
  if (dashcard.card_id !== null || typeof settings.text !== 'string' || values.size === 0) return settings;
  let text = settings.text;
  for (const mapping of mappingsOf(dashcard)) {
    const target = mapping.target;
    if (!Array.isArray(target) || target[0] !== 'text-tag' || typeof target[1] !== 'string') continue;
    const value = values.get(String(mapping.parameter_id));
    if (value === undefined || value === null) continue;
    const shown = Array.isArray(value) ? value.join(', ') : String(value);
    text = text.split(`{{${target[1]}}}`).join(shown);
  }
  return { ...settings, text };
}

/** What a viewer of a shared dashboard sees of its action buttons' actions (enough to draw their forms). */
async function sharedActionsOf(ctx: AppContext, dashcards: DashcardRow[]): Promise<Map<number, Obj>> {
  const ids = [...new Set(dashcards.map((d) => d.action_id).filter((id): id is number => id !== null))];
  if (!ids.length) return new Map();
  const rows = await ctx.db.selectFrom('action').selectAll().where('id', 'in', ids).where('archived', '=', false).execute();
  const out = new Map<number, Obj>();
  for (const a of await actionsJson(ctx, rows)) {
    out.set(a.id as number, { id: a.id, name: a.name, type: a.type, parameters: a.parameters, visualization_settings: a.visualization_settings });
  }
  return out;
}

/**
 * The shared dashboard; `showParameter` keeps only the filters the viewer may set (embedding), `textValues`
 * (parameter id → value, from an embedding token) fills the text cards wired to those filters.
 */
export async function sharedDashboardJson(
  ctx: AppContext,
  dashboard: DashboardRow,
  showParameter: (p: Obj) => boolean = () => true,
  textValues: Map<string, unknown> = new Map(),
): Promise<Obj> {
  const [{ dashcards, cards, series }, tabs] = await Promise.all([visibleDashcards(ctx, dashboard.id), tabsOf(ctx.db, [dashboard.id])]);
  const parameters = parametersOf(dashboard).filter(showParameter);
  const shown = new Set(parameters.map((p) => String(p.id)));
  const all = await paramFieldsAndValues(ctx, dashcards, cards);
  // only the fields (and their values) of the filters the viewer may set
  const paramFields: Record<string, Obj[]> = {};
  for (const [id, fields] of Object.entries(all.paramFields)) if (shown.has(id)) paramFields[id] = fields;
  const shownFields = new Set(Object.values(paramFields).flat().map((f) => String(f.id)));
  const values = Object.entries(all.paramValues ?? {}).filter(([fieldId]) => shownFields.has(fieldId));
  const paramValues = values.length ? Object.fromEntries(values) : null;
  const actions = await sharedActionsOf(ctx, dashcards);
  return {
    id: dashboard.id,
    name: dashboard.name,
    description: dashboard.description,
    parameters,
    auto_apply_filters: bool(dashboard.auto_apply_filters),
    width: dashboard.width,
    dashcards: dashcards.map((d) => ({
      id: d.id,
      card_id: d.card_id,
      card: d.card_id === null ? null : cardBasics(cards.get(d.card_id)!),
      dashboard_id: d.dashboard_id,
      dashboard_tab_id: d.dashboard_tab_id,
      action_id: d.action_id,
      ...(d.action_id !== null ? { action: actions.get(d.action_id) ?? null } : {}),
      series: (series.get(d.id) ?? []).map((id) => cards.get(id)).filter((c): c is CardRow => c !== undefined && !bool(c.archived)).map(cardBasics),
      row: d.row,
      col: d.col,
      size_x: d.size_x,
      size_y: d.size_y,
      parameter_mappings: mappingsOf(d),
      visualization_settings: fillTextCard(d, vizSettingsOf(d), textValues),
    })),
    tabs: tabs.map(tabJson),
    param_values: paramValues,
    param_fields: paramFields,
  };
}
