// Reading card rows and the JSON columns inside them.

import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { parseJson, type Db } from '../appdb/portable.js';
import type { ReportCardTable } from './tables.js';

export type CardRow = Selectable<ReportCardTable>;

export async function findCard(db: Db, id: number): Promise<CardRow | undefined> {
  return db.selectFrom('report_card').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function requireCard(ctx: AppContext, id: number, db: Db = ctx.db): Promise<CardRow> {
  const row = await findCard(db, id);
  if (!row) throw notFound();
  return row;
}

export async function cardsByIds(db: Db, ids: Iterable<number>): Promise<Map<number, CardRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('report_card').selectAll().where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export function datasetQueryOf(row: CardRow): Record<string, unknown> {
  return parseJson<Record<string, unknown>>(row.dataset_query, {});
}

export function parametersOf(row: CardRow): Array<Record<string, unknown>> {
  return parseJson<Array<Record<string, unknown>>>(row.parameters, []);
}

export function resultMetadataOf(row: CardRow): Array<Record<string, unknown>> | null {
  return parseJson<Array<Record<string, unknown>> | null>(row.result_metadata, null);
}

/**
 * What a run of the card lays over its result columns (QueryRequest.modelMetadata): a model's result_metadata, with
 * the edits made to it; null for questions and metrics.
 */
export function modelMetadataOf(row: CardRow): Array<Record<string, unknown> & { name: string }> | null {
  if (row.type !== 'model') return null;
  const metadata = resultMetadataOf(row);
  return Array.isArray(metadata) ? (metadata.filter((m) => m && typeof m.name === 'string') as Array<Record<string, unknown> & { name: string }>) : null;
}

/** The item model of a card in collection listings: saved questions are "card", models "dataset", metrics "metric". */
export function itemModelOf(type: string): 'card' | 'dataset' | 'metric' {
  return type === 'model' ? 'dataset' : type === 'metric' ? 'metric' : 'card';
}
