// Pin-map tiles (GET /api/tiles/…): the points of a query that fall in one Web Mercator tile, drawn as a 256 × 256
// transparent PNG. The query runs through the one query pipeline with the caller's permissions (context
// `map-tiles`): an ad-hoc query needs query access to what it reads; a saved card or a dashcard runs as the card does
// (readable card, its parameters, the dashboard's filters) — and then the latitude and longitude must be columns of
// the card's own results, so a tile never shows a column the card doesn't.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { ApiError, badRequest } from '../http/errors.js';
import { runQueryToMemory, type QueryRequest, type QueryResult } from '../query/index.js';
import type { FieldRef } from '../query/mbql/types.js';
import { collectionAccess } from '../permissions/collections.js';
import { readableCard } from '../cards/cards.js';
import { cardRunParameters } from '../cards/run.js';
import { datasetQueryOf, modelMetadataOf, resultMetadataOf, type CardRow } from '../cards/store.js';
import { dashcardQueryRequest } from '../dashboards/dashcard-query.js';
import { closeRenderer, renderSvgPng } from '../notify/render/index.js';
import { TILE_SIZE, type TileAddress } from './geometry.js';
import { columnKey, tileQuery } from './query.js';
import { tileSvg } from './draw.js';

export interface TileRequest {
  tile: TileAddress;
  lat: FieldRef;
  lon: FieldRef;
}

const closing = new WeakSet<AppContext>();

/** The points' PNG (the render workers stop with the server). */
async function draw(ctx: AppContext, points: Array<[number, number]>, zoom: number): Promise<Buffer> {
  if (!closing.has(ctx)) {
    closing.add(ctx);
    ctx.onClose.push(closeRenderer);
  }
  return renderSvgPng(tileSvg(points, zoom), TILE_SIZE, { transparent: true });
}

/** The [lat, lon] of every row whose two columns are numbers; 400 when the result has no such columns. */
function pointsOf(result: QueryResult, lat: FieldRef, lon: FieldRef): Array<[number, number]> {
  if (result.status !== 'completed') throw new ApiError(400, { message: 'Query failed', error: result.error ?? null, error_type: result.error_type ?? null });
  const keys = result.data.cols.map((col) => columnKey((col as { field_ref?: unknown }).field_ref));
  const latIndex = keys.indexOf(columnKey(lat));
  const lonIndex = keys.indexOf(columnKey(lon));
  if (latIndex < 0 || lonIndex < 0) throw badRequest('The query has no such latitude and longitude columns.');
  const points: Array<[number, number]> = [];
  for (const row of result.data.rows) {
    const la = Number(row[latIndex]);
    const lo = Number(row[lonIndex]);
    if (row[latIndex] !== null && row[lonIndex] !== null && Number.isFinite(la) && Number.isFinite(lo)) points.push([la, lo]);
  }
  return points;
}

async function tileOf(ctx: AppContext, request: QueryRequest, tile: TileRequest): Promise<Buffer> {
  const query = tileQuery(request.query, tile.tile, tile.lat, tile.lon);
  const result = await runQueryToMemory(ctx, { ...request, query, context: 'map-tiles' });
  return draw(ctx, pointsOf(result, tile.lat, tile.lon), tile.tile.zoom);
}

/** GET /api/tiles/:zoom/:x/:y/:lat-field/:lon-field?query= — an ad-hoc query. */
export function adhocTile(ctx: AppContext, caller: Caller, query: unknown, tile: TileRequest): Promise<Buffer> {
  return tileOf(ctx, { query, caller, context: 'map-tiles' }, tile);
}

/** A saved card's latitude and longitude must be columns of its own results. */
function checkCardColumns(card: CardRow, tile: TileRequest): void {
  const keys = new Set((resultMetadataOf(card) ?? []).map((column) => columnKey(column.field_ref)));
  if (!keys.has(columnKey(tile.lat)) || !keys.has(columnKey(tile.lon))) {
    throw badRequest('The latitude and longitude must be columns of the card’s results.');
  }
}

/** GET /api/tiles/:card-id/:zoom/:x/:y/:lat-field/:lon-field?parameters= — a saved card, as it runs. */
export async function cardTile(ctx: AppContext, caller: Caller, cardId: number, parameters: unknown, tile: TileRequest): Promise<Buffer> {
  const card = await readableCard(ctx, await collectionAccess(ctx, caller), cardId);
  checkCardColumns(card, tile);
  return tileOf(ctx, { query: datasetQueryOf(card), caller, context: 'map-tiles', cardId: card.id, parameters: cardRunParameters(card, parameters), modelMetadata: modelMetadataOf(card) }, tile);
}

/** GET /api/tiles/:dashboard-id/dashcard/:dashcard-id/card/:card-id/… — a card on a dashboard, with its filters. */
export async function dashcardTile(
  ctx: AppContext,
  caller: Caller,
  ids: { dashboardId: number; dashcardId: number; cardId: number },
  parameters: unknown,
  tile: TileRequest,
): Promise<Buffer> {
  const { request, card, problem } = await dashcardQueryRequest(ctx, caller, { ...ids, parameters });
  if (problem) throw badRequest(problem);
  checkCardColumns(card, tile);
  return tileOf(ctx, request, tile);
}
