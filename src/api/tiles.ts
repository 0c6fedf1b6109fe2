// Pin-map tiles (src/tiles): 256 × 256 PNGs of the points of a query inside one map tile.
//   GET /api/tiles/:zoom/:x/:y/:lat-field/:lon-field?query=                     an ad-hoc query
//   GET /api/tiles/:card-id/:zoom/:x/:y/:lat-field/:lon-field?parameters=       a saved card
//   GET /api/tiles/:dashboard-id/dashcard/:dashcard-id/card/:card-id/:zoom/:x/:y/:lat-field/:lon-field?parameters=
// The lat/lon fields are field refs as JSON (URL-encoded); `query` and `parameters` are JSON strings.

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { s } from '../http/schema.js';
import { badRequest } from '../http/errors.js';
import { MAX_ZOOM } from '../tiles/geometry.js';
import { parseFieldRef } from '../tiles/query.js';
import { adhocTile, cardTile, dashcardTile, type TileRequest } from '../tiles/tiles.js';

const tileParams = {
  zoom: s.natInt(),
  x: s.natInt(),
  y: s.natInt(),
  'lat-field': s.nbstr(),
  'lon-field': s.nbstr(),
};

function tileOf(params: { zoom: number; x: number; y: number; 'lat-field': string; 'lon-field': string }): TileRequest {
  if (params.zoom > MAX_ZOOM) throw badRequest(`zoom must be at most ${MAX_ZOOM}.`);
  return { tile: { zoom: params.zoom, x: params.x, y: params.y }, lat: parseFieldRef(params['lat-field'], 'lat-field'), lon: parseFieldRef(params['lon-field'], 'lon-field') };
}

const png = (bytes: Buffer) => new Respond(200, bytes, { 'Content-Type': 'image/png' }, [], true);

export function tilesRoutes(r: Routes) {
  r.get('/api/tiles/:zoom/:x/:y/:lat-field/:lon-field', { params: tileParams, query: { query: s.jsonstr() } }, async ({ ctx, caller, params, query }) =>
    png(await adhocTile(ctx, caller, query.query, tileOf(params))),
  );
  r.get(
    '/api/tiles/:card-id/:zoom/:x/:y/:lat-field/:lon-field',
    { params: { 'card-id': s.posInt(), ...tileParams }, query: { parameters: s.maybe(s.jsonstr()) } },
    async ({ ctx, caller, params, query }) => {
      if (query.parameters != null && !Array.isArray(query.parameters)) throw badRequest('parameters must be a JSON array.');
      return png(await cardTile(ctx, caller, params['card-id'], query.parameters ?? [], tileOf(params)));
    },
  );
  r.get(
    '/api/tiles/:dashboard-id/dashcard/:dashcard-id/card/:card-id/:zoom/:x/:y/:lat-field/:lon-field',
    { params: { 'dashboard-id': s.posInt(), 'dashcard-id': s.posInt(), 'card-id': s.posInt(), ...tileParams }, query: { parameters: s.maybe(s.str()) } },
    async ({ ctx, caller, params, query }) =>
      png(
        await dashcardTile(
          ctx,
          caller,
          { dashboardId: params['dashboard-id'], dashcardId: params['dashcard-id'], cardId: params['card-id'] },
          query.parameters ?? null,
          tileOf(params),
        ),
      ),
  );
}
