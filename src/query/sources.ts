// Where the query engine gets saved things it doesn't own: saved questions / models / metrics (cards), native
// snippets, segments and legacy metrics. Their modules register a lookup function here at start-up, so the query
// engine never reads their tables and they never reach into the pipeline:
//
//   registerCardSource(async (ctx, ids) => new Map(rows.map((r) => [r.id, { … }])));
//   registerSnippetSource(async (ctx, { ids, names }) => [...]);
//   registerPersistedModelSource(async (ctx, models) => new Map(…));   // src/persistence: models kept as tables
//
// A lookup receives every id a query needs at once (one app-DB query per kind, never one per row).

import type { AppContext } from '../context.js';
import type { ColumnMetadata, TemplateTag } from './mbql/types.js';

export interface SavedCard {
  id: number;
  name: string;
  /** 'question' | 'model' | 'metric'. */
  type: string;
  database_id: number | null;
  /** The card's dataset_query as stored (legacy MBQL, MBQL 5 or native). */
  dataset_query: unknown;
  /** The card's result_metadata (models carry edited display names and semantic types here). */
  result_metadata: ColumnMetadata[] | null;
  collection_id: number | null;
  archived: boolean;
  /** Template-tag parameters defined on the card (for its own default values). */
  parameters?: unknown[] | null;
}

export interface Snippet {
  id: number;
  name: string;
  content: string;
  collection_id: number | null;
  /** The tags of its content: variables the query then has, and the snippets it inlines (by id). */
  template_tags: Record<string, TemplateTag>;
}

export interface Segment {
  id: number;
  table_id: number;
  name: string;
  /** Its definition: an inner MBQL query holding a `filter`. */
  definition: { filter?: unknown; 'source-table'?: number };
}

export interface LegacyMetric {
  id: number;
  table_id: number;
  name: string;
  /** An inner MBQL query with one aggregation and optionally a filter. */
  definition: { aggregation?: unknown; filter?: unknown; 'source-table'?: number };
}

/** A model whose results are kept as a table in its database (src/persistence), valid for its current query. */
export interface PersistedModel {
  cardId: number;
  schema: string;
  table: string;
  /** The table's columns. */
  columns: string[];
}

type CardLookup = (ctx: AppContext, ids: number[]) => Promise<Map<number, SavedCard>>;
type PersistedLookup = (ctx: AppContext, models: SavedCard[]) => Promise<Map<number, PersistedModel>>;
type SnippetLookup = (ctx: AppContext, request: { ids: number[]; names: string[] }) => Promise<Snippet[]>;
type SegmentLookup = (ctx: AppContext, ids: number[]) => Promise<Map<number, Segment>>;
type MetricLookup = (ctx: AppContext, ids: number[]) => Promise<Map<number, LegacyMetric>>;

const lookups: {
  cards: CardLookup | null;
  snippets: SnippetLookup | null;
  segments: SegmentLookup | null;
  metrics: MetricLookup | null;
  persisted: PersistedLookup | null;
} = { cards: null, snippets: null, segments: null, metrics: null, persisted: null };

export function registerCardSource(fn: CardLookup): void {
  lookups.cards = fn;
}

export function registerSnippetSource(fn: SnippetLookup): void {
  lookups.snippets = fn;
}

export function registerSegmentSource(fn: SegmentLookup): void {
  lookups.segments = fn;
}

export function registerLegacyMetricSource(fn: MetricLookup): void {
  lookups.metrics = fn;
}

export function registerPersistedModelSource(fn: PersistedLookup): void {
  lookups.persisted = fn;
}

/** Of these models, those with a persisted table queries may read instead (one batched lookup). */
export async function findPersistedModels(ctx: AppContext, models: SavedCard[]): Promise<Map<number, PersistedModel>> {
  const candidates = models.filter((m) => m.type === 'model');
  if (!candidates.length || !lookups.persisted) return new Map();
  return lookups.persisted(ctx, candidates);
}

export async function findCards(ctx: AppContext, ids: number[]): Promise<Map<number, SavedCard>> {
  if (!ids.length || !lookups.cards) return new Map();
  return lookups.cards(ctx, [...new Set(ids)]);
}

export async function findSnippets(ctx: AppContext, ids: number[], names: string[]): Promise<Snippet[]> {
  if ((!ids.length && !names.length) || !lookups.snippets) return [];
  return lookups.snippets(ctx, { ids: [...new Set(ids)], names: [...new Set(names)] });
}

export async function findSegments(ctx: AppContext, ids: number[]): Promise<Map<number, Segment>> {
  if (!ids.length || !lookups.segments) return new Map();
  return lookups.segments(ctx, [...new Set(ids)]);
}

export async function findLegacyMetrics(ctx: AppContext, ids: number[]): Promise<Map<number, LegacyMetric>> {
  if (!ids.length || !lookups.metrics) return new Map();
  return lookups.metrics(ctx, [...new Set(ids)]);
}
