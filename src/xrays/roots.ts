// What an X-ray URL names, resolved and permission-checked: a table, a field, a segment, a saved question or model,
// or an ad-hoc query — its source (a table or a card's columns), its own filter, and how it is named. 404 when it
// doesn't exist, 403 when the caller may not see it (the one permission checker, src/permissions).

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { notFound } from '../http/errors.js';
import { parseJson } from '../appdb/portable.js';
import { dataAccess, checkTableVisible, type DataAccess } from '../databases/access.js';
import { tableOr404 } from '../databases/table-metadata.js';
import { fieldOr404 } from '../databases/field-metadata.js';
import { readableSegment } from '../segments/segments.js';
import { readableCard } from '../cards/cards.js';
import { cardsByIds, datasetQueryOf, type CardRow } from '../cards/store.js';
import { checkedLegacyQuery, legacyQuery } from '../cards/query-info.js';
import { checkCanQuery } from '../cards/data-access.js';
import { collectionAccess } from '../permissions/collections.js';
import { cardSource, fieldOf, tableSource, type XField, type XSource } from './source.js';
import { fieldTitle } from './cards.js';
import { aggregationWords, capitalize, joinAnd } from './names.js';
import { decodeBase64Json } from './encoding.js';

type Obj = Record<string, unknown>;

export const ENTITIES = ['adhoc', 'field', 'model', 'question', 'segment', 'table', 'transform'] as const;
export type Entity = (typeof ENTITIES)[number];

export interface QuestionMetric {
  clause: unknown[];
  title: string;
  columnName: string;
}

export interface Root {
  entity: Entity;
  /** The web app's path of this X-ray. */
  url: string;
  /** How dashboard titles name it ("Orders", "Orders in the Big orders segment", "\"Revenue\""). */
  fullName: string;
  /** How card titles name the rows ({{this}}). */
  shortName: string;
  source: XSource;
  /** The root's own filter (segment, question filter) and the cell's, once applied. */
  filter: unknown[] | null;
  cell: unknown[] | null;
  field: XField | null;
  /** An aggregated question's aggregations and breakouts (GenericMetric). */
  metrics: QuestionMetric[] | null;
  breakouts: unknown[];
  segmentId: number | null;
  segmentName?: string;
  /** A segment's own filter clause (its fields fixed by `=` get no breakout). */
  segmentFilter?: unknown[] | null;
  /** The table the source reads, when it reads one (for zooming out and comparing). */
  tableId: number | null;
  access: DataAccess;
}

const POS_ID = /^[1-9]\d{0,9}$/;

function idOf(text: string): number {
  if (!POS_ID.test(text) || Number(text) > 2_147_483_647) throw notFound();
  return Number(text);
}

function baseRoot(entity: Entity, url: string, source: XSource, access: DataAccess): Root {
  return { entity, url, fullName: source.name, shortName: source.name, source, filter: null, cell: null, field: null, metrics: null, breakouts: [], segmentId: null, tableId: source.table?.id ?? null, access };
}

async function tableRoot(ctx: AppContext, caller: Caller, id: number): Promise<Root> {
  const table = await tableOr404(ctx, id);
  const access = await checkTableVisible(ctx, caller, table);
  return baseRoot('table', `/auto/dashboard/table/${id}`, await tableSource(ctx, access, table), access);
}

function segmentFilterOf(definition: string): unknown[] | null {
  const filter = parseJson<Obj>(definition, {}).filter;
  return Array.isArray(filter) ? filter : null;
}

async function segmentRoot(ctx: AppContext, caller: Caller, id: number): Promise<Root> {
  const segment = await readableSegment(ctx, caller, id);
  const table = await tableOr404(ctx, segment.table_id);
  const access = await dataAccess(ctx, caller);
  const root = baseRoot('segment', `/auto/dashboard/segment/${id}`, await tableSource(ctx, access, table), access);
  return { ...root, fullName: `${table.display_name} in the ${segment.name} segment`, filter: ['segment', id], segmentId: id, segmentName: segment.name, segmentFilter: segmentFilterOf(segment.definition) };
}

async function fieldRoot(ctx: AppContext, caller: Caller, id: number): Promise<Root> {
  const row = await fieldOr404(ctx, id);
  const table = await tableOr404(ctx, row.table_id);
  const access = await checkTableVisible(ctx, caller, table);
  const source = await tableSource(ctx, access, table);
  // a hidden field isn't among the source's fields, but may still be looked at
  const field = source.fields.find((f) => f.id === id && f.via === null) ?? null;
  const own: XField = field ?? fieldOf(row);
  const root = baseRoot('field', `/auto/dashboard/field/${id}`, source, access);
  return { ...root, fullName: `${fieldTitle(own)} field`, field: own };
}

/** A query's source: its table, or the saved question/model it starts from (read as its columns). */
async function querySource(ctx: AppContext, caller: Caller, access: DataAccess, datasetQuery: Obj, self: CardRow | null): Promise<XSource> {
  const inner = (datasetQuery.query ?? {}) as Obj;
  const sourceTable = inner['source-table'];
  if (datasetQuery.type === 'native' || inner['source-query'] !== undefined) {
    if (!self) throw notFound();
    return cardSource(self);
  }
  if (typeof sourceTable === 'number') return tableSource(ctx, access, await tableOr404(ctx, sourceTable));
  const m = typeof sourceTable === 'string' ? /^card__(\d+)$/.exec(sourceTable) : null;
  if (!m) throw notFound();
  const card = (await cardsByIds(ctx.db, [Number(m[1])])).get(Number(m[1]));
  if (!card) throw notFound();
  (await collectionAccess(ctx, caller)).checkRead(card.collection_id);
  return cardSource(card);
}

function describeQuery(source: XSource, inner: Obj): { metrics: QuestionMetric[]; breakouts: unknown[]; description: string } {
  const name = (ref: unknown): string => {
    const key = Array.isArray(ref) && ref[0] === 'field' ? ref[1] : null;
    const field = source.fields.find((f) => f.ref[1] === key);
    return field ? fieldTitle(field) : 'a column';
  };
  const aggregations = Array.isArray(inner.aggregation) ? (inner.aggregation as unknown[][]) : [];
  const breakouts = Array.isArray(inner.breakout) ? (inner.breakout as unknown[]) : [];
  const metrics = aggregations.map((clause, i) => {
    const op = Array.isArray(clause) && clause[0] === 'aggregation-options' ? (clause[1] as unknown[])[0] : clause[0];
    const column = { count: 'count', distinct: 'count', 'cum-count': 'count', 'cum-sum': 'sum' }[String(op)] ?? String(op);
    return { clause, title: capitalize(aggregationWords(clause, name, source.name)), columnName: i === 0 ? column : `${column}_${i + 1}` };
  });
  const words = joinAnd(metrics.map((m, i) => (i === 0 ? m.title : m.title[0].toLowerCase() + m.title.slice(1))));
  return { metrics, breakouts, description: breakouts.length ? `${words} by ${joinAnd(breakouts.map(name))}` : words };
}

/** A question, model or ad-hoc query: a table-like one is its source with its filter; an aggregated one its metrics. */
async function queryRoot(ctx: AppContext, caller: Caller, entity: Entity, url: string, datasetQuery: Obj, card: CardRow | null): Promise<Root> {
  const access = await dataAccess(ctx, caller);
  const legacy = legacyQuery(datasetQuery);
  const source = card?.type === 'model' ? cardSource(card) : await querySource(ctx, caller, access, legacy, card);
  const root = baseRoot(entity, url, source, access);
  const inner = (legacy.query ?? {}) as Obj;
  const quoted = card ? `"${card.name}"` : null;
  if (card?.type === 'model' || legacy.type === 'native') return { ...root, fullName: quoted ?? source.name, shortName: card?.name ?? source.name };
  const filter = Array.isArray(inner.filter) ? (inner.filter as unknown[]) : null;
  const aggregated = (Array.isArray(inner.aggregation) && inner.aggregation.length > 0) || (Array.isArray(inner.breakout) && inner.breakout.length > 0);
  if (!aggregated) return { ...root, fullName: quoted ?? source.name, filter };
  const described = describeQuery(source, inner);
  const metrics = described.metrics.length ? described.metrics : [{ clause: ['count'], title: `Number of ${source.name}`, columnName: 'count' }];
  return { ...root, fullName: quoted ?? described.description, filter, metrics, breakouts: described.breakouts };
}

async function cardRoot(ctx: AppContext, caller: Caller, entity: 'question' | 'model', id: number): Promise<Root> {
  const card = await readableCard(ctx, await collectionAccess(ctx, caller), id);
  if (entity === 'model' && card.type !== 'model') throw notFound();
  const url = `/auto/dashboard/${card.type === 'model' ? 'model' : 'question'}/${id}`;
  return queryRoot(ctx, caller, entity, url, datasetQueryOf(card), card);
}

async function adhocRoot(ctx: AppContext, caller: Caller, encoded: string): Promise<Root> {
  const decoded = decodeBase64Json(encoded, 'entity-id-or-query');
  if (!decoded || typeof decoded !== 'object' || Array.isArray(decoded)) throw notFound();
  const query = checkedLegacyQuery(decoded as Obj);
  if (query.type !== 'query') throw notFound();
  await checkCanQuery(ctx, caller, query);
  return queryRoot(ctx, caller, 'adhoc', `/auto/dashboard/adhoc/${encoded}`, query, null);
}

/** The root an X-ray URL names (`entity` already checked against ENTITIES). */
export async function resolveRoot(ctx: AppContext, caller: Caller, entity: Entity, idOrQuery: string): Promise<Root> {
  switch (entity) {
    case 'table': {
      const card = /^card__(\d+)$/.exec(idOrQuery);
      return card ? cardRoot(ctx, caller, 'question', idOf(card[1])) : tableRoot(ctx, caller, idOf(idOrQuery));
    }
    case 'segment':
      return segmentRoot(ctx, caller, idOf(idOrQuery));
    case 'field':
      return fieldRoot(ctx, caller, idOf(idOrQuery));
    case 'question':
    case 'model':
      return cardRoot(ctx, caller, entity, idOf(idOrQuery));
    case 'adhoc':
      return adhocRoot(ctx, caller, idOrQuery);
    case 'transform':
      // Metabase's experimental "domain entity" transforms: Quarry has none, so no transform name exists.
      throw notFound();
  }
}
