// /api/geojson: region maps. By key for everyone (public and embedded dashboards draw maps too); by URL for admins,
// who check a custom map before saving it in `custom-geojson`.

import { Respond, type Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { fetchGeoJson, mapByKey } from '../geojson/maps.js';

const geojson = (text: string) => new Respond(200, text, { 'content-type': 'application/json; charset=utf-8' }, [], true);

export function geojsonRoutes(r: Routes) {
  r.get('/api/geojson', { auth: 'admin', query: { url: s.nbstr() } }, async ({ ctx, query }) => geojson(await fetchGeoJson(ctx, query.url)));
  r.get('/api/geojson/:key', { auth: 'none', params: { key: s.nbstr() } }, async ({ ctx, params }) => geojson(await mapByKey(ctx, params.key)));
}
