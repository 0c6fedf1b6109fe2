// Pin-map tiles (src/tiles): 256 × 256 PNGs of the points of a query inside one map tile.
//   GET /api/tiles/:zoom/:x/:y/:lat-field/:lon-field?query=                     an ad-hoc query
//   GET /api/tiles/:card-id/:zoom/:x/:y/:lat-field/:lon-field?parameters=       a saved card
//   GET /api/tiles/:dashboard-id/dashcard/:dashcard-id/card/:card-id/:zoom/:x/:y/:lat-field/:lon-field?parameters=
// The lat/lon fields are field refs as JSON (URL-encoded); `query` and `parameters` are JSON strings.
// Metabase 0.58 moved the lat/lon fields into the query string (`?latField=…&lonField=…`); each route is served in both
// forms: the one with the fields as path segments is what older clients call.

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { s } from '../http/schema.js';
import { badRequest } from '../http/errors.js';
import { MAX_ZOOM } from '../tiles/geometry.js';
import { parseFieldRef } from '../tiles/query.js';
import { adhocTile, cardTile, dashcardTile, type TileRequest } from '../tiles/tiles.js';

const tileAddress = { zoom: s.natInt(), x: s.natInt(), y: s.natInt() };
const tileParams = { ...tileAddress, 'lat-field': s.nbstr(), 'lon-field': s.nbstr() };
const fieldQuery = { latField: s.nbstr(), lonField: s.nbstr() };

interface TileAddressParams {
  zoom: number;
  x: number;
  y: number;
}

function tileOf(params: TileAddressParams, fields: { lat: string; lon: string; latName: string; lonName: string }): TileRequest {
  if (params.zoom > MAX_ZOOM) throw badRequest(`zoom must be at most ${MAX_ZOOM}.`);
  return { tile: { zoom: params.zoom, x: params.x, y: params.y }, lat: parseFieldRef(fields.lat, fields.latName), lon: parseFieldRef(fields.lon, fields.lonName) };
}

/** The older form: the fields as the last two path segments. */
const pathTile = (params: TileAddressParams & { 'lat-field': string; 'lon-field': string }) =>
  tileOf(params, { lat: params['lat-field'], lon: params['lon-field'], latName: 'lat-field', lonName: 'lon-field' });

/** The 0.58 form: the fields in the query string. */
const queryTile = (params: TileAddressParams, query: { latField: string; lonField: string }) =>
  tileOf(params, { lat: query.latField, lon: query.lonField, latName: 'latField', lonName: 'lonField' });

function cardParameters(parameters: unknown): unknown[] {
  if (parameters != null && !Array.isArray(parameters)) throw badRequest('parameters must be a JSON array.');
  return (parameters as unknown[] | null | undefined) ?? [];
}

const DASHCARD_PATH = '/api/tiles/:dashboard-id/dashcard/:dashcard-id/card/:card-id/:zoom/:x/:y';
const dashcardParams = { 'dashboard-id': s.posInt(), 'dashcard-id': s.posInt(), 'card-id': s.posInt() };
const dashcardIds = (params: { 'dashboard-id': number; 'dashcard-id': number; 'card-id': number }) => ({
  dashboardId: params['dashboard-id'],
  dashcardId: params['dashcard-id'],
  cardId: params['card-id'],
});

const png = (bytes: Buffer) => new Respond(200, bytes, { 'Content-Type': 'image/png' }, [], true);

export function tilesRoutes(r: Routes) {
  r.get('/api/tiles/:zoom/:x/:y/:lat-field/:lon-field', { params: tileParams, query: { query: s.jsonstr() } }, async ({ ctx, caller, params, query }) =>
    png(await adhocTile(ctx, caller, query.query, pathTile(params))),
  );
  r.get('/api/tiles/:zoom/:x/:y', { params: tileAddress, query: { query: s.jsonstr(), ...fieldQuery } }, async ({ ctx, caller, params, query }) =>
    png(await adhocTile(ctx, caller, query.query, queryTile(params, query))),
  );
  r.get(
    '/api/tiles/:card-id/:zoom/:x/:y/:lat-field/:lon-field',
    { params: { 'card-id': s.posInt(), ...tileParams }, query: { parameters: s.maybe(s.jsonstr()) } },
    async ({ ctx, caller, params, query }) => png(await cardTile(ctx, caller, params['card-id'], cardParameters(query.parameters), pathTile(params))),
  );
  r.get(
    '/api/tiles/:card-id/:zoom/:x/:y',
    { params: { 'card-id': s.posInt(), ...tileAddress }, query: { parameters: s.maybe(s.jsonstr()), ...fieldQuery } },
    async ({ ctx, caller, params, query }) => png(await cardTile(ctx, caller, params['card-id'], cardParameters(query.parameters), queryTile(params, query))),
  );
  r.get(
    `${DASHCARD_PATH}/:lat-field/:lon-field`,
    { params: { ...dashcardParams, ...tileParams }, query: { parameters: s.maybe(s.str()) } },
    async ({ ctx, caller, params, query }) => png(await dashcardTile(ctx, caller, dashcardIds(params), query.parameters ?? null, pathTile(params))),
  );
  r.get(
    DASHCARD_PATH,
    { params: { ...dashcardParams, ...tileAddress }, query: { parameters: s.maybe(s.str()), ...fieldQuery } },
    async ({ ctx, caller, params, query }) => png(await dashcardTile(ctx, caller, dashcardIds(params), query.parameters ?? null, queryTile(params, query))),
  );
}
