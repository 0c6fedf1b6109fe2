// Building the transient dashboard of an X-ray root: choose the template, bind fields, plan the cards, keep the best
// `show` of them, lay them out in sections with headings, add filters wired to every card, the related block and
// Metabase's top-level keys. The cards' queries are not run here: a client runs them (POST /api/dataset) through the
// normal pipeline, with the caller's permissions.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { fieldJson } from '../databases/json.js';
import type { CardRow } from '../cards/store.js';
import { canRunAdhocQueries } from '../cards/data-access.js';
import { bindFields, refKey, type Bindings } from './bind.js';
import { andFilters, fieldTitle, planCards, type PlanInput, type PlannedCard } from './cards.js';
import { chooseFilters, mappingsFor, type XParameter } from './filters.js';
import { layout, textDashcard, type Section } from './layout.js';
import { relatedBlock } from './links.js';
import { capitalize, conditionWords, fill } from './names.js';
import type { Root } from './roots.js';
import { fieldTemplateFor, METRIC_TEMPLATE, tableTemplateFor, type SubTemplate, type Template } from './templates/index.js';

type Obj = Record<string, unknown>;

export const DEFAULT_SHOW = 15;
/** X-rays of aggregated questions: every aggregation and breakout adds cards, so they are capped whatever `show` says. */
export const AGGREGATED_SHOW = 30;

export type Show = number | 'all' | null;

export interface XrayOptions {
  show: Show;
  forced: { template: Template; sub: SubTemplate | null } | null;
}

/** One template applied: its cards, and how its section titles read. */
interface Part {
  template: Template;
  cards: PlannedCard[];
  values: Record<string, string>;
  heading: string | null;
}

/** Everything a dashboard (or one side of a comparison) is made of, before layout. */
export interface Plan {
  name: string;
  description: string;
  parts: Part[];
  template: Template;
  bindings: Bindings;
  input: PlanInput;
  more: boolean;
  parameters: XParameter[];
}

/** Fields an `=` condition fixes to one value. */
function fixedFields(cell: unknown[] | null): Set<string> {
  const out = new Set<string>();
  const walk = (c: unknown) => {
    if (!Array.isArray(c)) return;
    if (c[0] === 'and') c.slice(1).forEach(walk);
    if (c[0] === '=' && c.length === 3) {
      const key = refKey(c[1]);
      if (key) out.add(key);
    }
  };
  walk(cell);
  return out;
}

function templateOf(root: Root, options: XrayOptions): Template {
  if (options.forced) return options.forced.template;
  if (root.field) return fieldTemplateFor(root.field.effectiveType);
  if (root.metrics) return METRIC_TEMPLATE;
  return tableTemplateFor(root.source.entityType);
}

const lowerFirst = (s: string) => (s ? s[0].toLowerCase() + s.slice(1) : s);

export async function planXray(ctx: AppContext, root: Root, options: XrayOptions): Promise<Plan> {
  const template = templateOf(root, options);
  // fields the root's own filters pin to one value say nothing as a breakout or a filter
  const fixed = fixedFields(andFilters([root.filter, root.segmentFilter, root.cell]));
  const bindings = bindFields(template, root.source.fields, root.field);
  const filter = andFilters([root.filter, root.cell]);
  const thisName = root.shortName;
  const base: PlanInput = { template, source: root.source, bindings, thisName, rootFilter: filter, fixed };
  const parts: Part[] = [];
  const sub = options.forced?.sub ?? null;
  const templateCards = sub ? template.cards.filter((c) => sub.groups.includes(c.group)) : template.cards;
  if (root.metrics) {
    for (const metric of root.metrics) {
      parts.push({ template, cards: planCards(templateCards, { ...base, metric }), values: { this: thisName, Metric: metric.title }, heading: root.metrics.length > 1 ? `# ${metric.title}` : null });
    }
    // each breakout of a table's column gets a field X-ray's cards
    for (const breakout of root.breakouts) {
      const key = refKey(breakout);
      const field = root.source.fields.find((f) => refKey(f.ref) === key);
      if (!field) continue;
      const ft = fieldTemplateFor(field.effectiveType);
      const fb = bindFields(ft, root.source.fields, field);
      parts.push({ template: ft, cards: planCards(ft.cards, { ...base, template: ft, bindings: fb }), values: { this: thisName, Field: fieldTitle(field) }, heading: `# ${fieldTitle(field)}` });
    }
  } else {
    parts.push({ template, cards: planCards(templateCards, base), values: { this: thisName, ...(root.field ? { Field: fieldTitle(root.field) } : {}) }, heading: null });
  }

  // keep the best `show` cards over all parts
  const cap = root.metrics ? AGGREGATED_SHOW : options.show === 'all' ? Infinity : options.show ?? DEFAULT_SHOW;
  const ranked = parts.flatMap((p) => p.cards).sort((a, b) => b.score - a.score);
  const kept = new Set(ranked.slice(0, cap));
  for (const p of parts) p.cards = p.cards.filter((c) => kept.has(c));

  let name: string;
  const values = { this: root.fullName, ...(root.field ? { Field: fieldTitle(root.field) } : {}) };
  if (root.cell) {
    const subject = root.metrics ? root.metrics.map((m) => lowerFirst(m.title)).join(' and ') : root.fullName;
    name = `A closer look at ${subject} where ${await conditionWords(ctx, root.cell)}`;
  } else if (sub) {
    name = fill(sub.title, { this: root.fullName });
  } else {
    name = fill(template.title, values);
  }
  const description = fill(sub?.description ?? template.description, { this: root.shortName, Metric: root.metrics?.[0]?.title ?? root.shortName, Field: values.Field ?? root.shortName });
  return { name, description, parts, template, bindings, input: base, more: ranked.length > kept.size, parameters: chooseFilters(template, bindings, fixed) };
}

/** Dashcard and card ids of one generated dashboard: strings, as Metabase's generated symbols. */
export function idMaker(): () => string {
  let n = 0;
  return () => `G__${++n}`;
}

export interface CardJsonInput {
  id: string;
  card: PlannedCard;
  root: Root;
  creatorId: number;
  canRun: boolean;
}

export function cardJson({ id, card, root, creatorId, canRun }: CardJsonInput, query: Obj = card.query): Obj {
  return {
    id,
    name: card.title,
    description: card.description,
    display: card.display,
    type: 'question',
    collection_id: null,
    creator_id: creatorId,
    database_id: root.source.databaseId,
    table_id: root.source.table?.id ?? null,
    query_type: 'query',
    can_run_adhoc_query: canRun,
    dataset_query: { database: root.source.databaseId, type: 'query', query },
    visualization_settings: card.settings,
  };
}

/** `can_run_adhoc_query` of many queries on the root's database, in one permission check. */
export async function canRun(ctx: AppContext, caller: Caller, root: Root, queries: Obj[]): Promise<boolean[]> {
  const rows = queries.map((query) => ({ id: 0, name: '', table_id: null, dataset_query: JSON.stringify({ database: root.source.databaseId, type: 'query', query }) }) as unknown as CardRow);
  return canRunAdhocQueries(ctx, caller, rows);
}

async function paramFields(ctx: AppContext, filter: unknown[] | null): Promise<Obj | null> {
  if (!filter) return null;
  const ids = new Set<number>();
  const walk = (c: unknown) => {
    if (!Array.isArray(c)) return;
    if (c[0] === 'field' && typeof c[1] === 'number') ids.add(c[1]);
    c.forEach(walk);
  };
  walk(filter);
  if (!ids.size) return {};
  const rows = await ctx.db.selectFrom('metabase_field').selectAll().where('id', 'in', [...ids]).execute();
  return Object.fromEntries(rows.map((r) => [String(r.id), fieldJson(r)]));
}

/** The sections of a plan: a heading per template group (per part), its cards best first. */
export function sectionsOf(plan: Plan, comparison = false): Array<Section<PlannedCard>> {
  const sections: Array<Section<PlannedCard>> = [];
  for (const part of plan.parts) {
    if (!part.cards.length) continue;
    if (part.heading) sections.push({ heading: part.heading, items: [] });
    for (const group of part.template.groups) {
      const cards = part.cards.filter((c) => c.group === group.id);
      if (!cards.length) continue;
      const title = comparison ? group.comparisonTitle ?? group.title : group.title;
      // under a part's own heading, its sections are one level down
      const level = part.heading ? '##' : '#';
      sections.push({ heading: `${level} ${capitalize(fill(title, part.values))}`, items: cards.map((c) => ({ item: c, width: c.width, height: c.height })) });
    }
  }
  return sections;
}

export async function buildXray(ctx: AppContext, caller: Caller, root: Root, options: XrayOptions, url: string): Promise<Obj> {
  const plan = await planXray(ctx, root, options);
  const nextId = idMaker();
  const placed = layout(sectionsOf(plan));
  const cards = placed.flatMap((p) => ('heading' in p.item ? [] : [p.item as PlannedCard]));
  const runnable = await canRun(ctx, caller, root, cards.map((c) => c.query));
  const can = new Map(cards.map((c, i) => [c, runnable[i]]));
  const dashcards = placed.map((p) => {
    if ('heading' in p.item) return textDashcard(nextId(), p.item.heading, p);
    const card = p.item as PlannedCard;
    const cardId = nextId();
    return {
      id: nextId(),
      dashboard_tab_id: null,
      row: p.row,
      col: p.col,
      size_x: p.sizeX,
      size_y: p.sizeY,
      card_id: cardId,
      card: cardJson({ id: cardId, card, root, creatorId: caller.user.id, canRun: can.get(card) ?? false }),
      series: [],
      visualization_settings: {},
      parameter_mappings: mappingsFor(plan.parameters, cardId),
    };
  });
  const transientFilters = andFilters([root.filter, root.cell]);
  return {
    name: plan.name,
    transient_name: plan.name,
    description: plan.description,
    creator_id: caller.user.id,
    parameters: plan.parameters.map((p) => p.parameter),
    dashcards,
    related: await relatedBlock(ctx, root, plan.template, plan.bindings, plan.input, url),
    more: plan.more ? `${url}#show=all` : null,
    transient_filters: transientFilters,
    param_fields: await paramFields(ctx, transientFilters),
    auto_apply_filters: true,
    width: 'fixed',
  };
}
