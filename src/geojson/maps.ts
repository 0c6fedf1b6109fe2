// GeoJSON for region maps (GET /api/geojson/:key and ?url=): the two built-in maps Metabase ships — us_states (U.S.
// Census states, keyed by postal code in STATE) and world_countries (Natural Earth countries, keyed by ISO_A2), both
// named in NAME; resources/geojson, made by scripts/build-geojson.mjs — and the custom maps an admin lists in the
// `custom-geojson` setting, fetched from their URL through the outbound-request guard (setting
// `http-channel-host-strategy`: public addresses only by default), at most 5 MB, and only if it is GeoJSON.

import { readFileSync } from 'node:fs';
import type { AppContext } from '../context.js';
import { badRequest } from '../http/errors.js';
import { sendOutbound, OutboundError, type HostPolicy } from '../util/outbound.js';
import { shippedResource } from '../util/resources.js';

export interface MapInfo {
  name: string;
  url: string;
  region_key: string | null;
  region_name: string | null;
  builtin?: boolean;
}

export const BUILTIN_MAPS: Record<string, MapInfo & { file: string }> = {
  us_states: { name: 'United States', url: 'app/assets/geojson/us-states.json', region_key: 'STATE', region_name: 'NAME', builtin: true, file: 'us-states.json' },
  world_countries: { name: 'World', url: 'app/assets/geojson/world.json', region_key: 'ISO_A2', region_name: 'NAME', builtin: true, file: 'world.json' },
};

const MAX_BYTES = 5 * 1024 * 1024;
const GEOJSON_TYPES = new Set(['FeatureCollection', 'Feature', 'Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

const loaded = new Map<string, string>();

function resourcePath(file: string): string {
  const path = shippedResource(`geojson/${file}`);
  if (path === null) throw new Error(`the built-in map ${file} is missing from resources/geojson`);
  return path;
}

function builtinText(key: string): string {
  let text = loaded.get(key);
  if (text === undefined) {
    text = readFileSync(resourcePath(BUILTIN_MAPS[key].file), 'utf8');
    loaded.set(key, text);
  }
  return text;
}

/** The custom maps of the `custom-geojson` setting, with the built-in ones. */
export async function allMaps(ctx: AppContext): Promise<Record<string, MapInfo>> {
  const custom = (await ctx.settings.get('custom-geojson')) as Record<string, MapInfo> | null;
  const out: Record<string, MapInfo> = { ...(custom && typeof custom === 'object' ? custom : {}) };
  for (const [key, { file: _file, ...info }] of Object.entries(BUILTIN_MAPS)) out[key] = info;
  return out;
}

/** Fetches GeoJSON from a URL under the outbound policy; 400 for a refused address, a failed fetch or a non-GeoJSON body. */
export async function fetchGeoJson(ctx: AppContext, url: string): Promise<string> {
  const policy = ((await ctx.settings.getString('http-channel-host-strategy')) ?? 'external-only') as HostPolicy;
  let body: string;
  try {
    const response = await sendOutbound({ method: 'GET', url, headers: { accept: 'application/geo+json, application/json' }, maxBytes: MAX_BYTES, timeoutMs: 10_000 }, policy);
    if (response.status < 200 || response.status >= 300) throw new OutboundError(`GeoJSON URL returned status ${response.status}.`);
    body = response.body;
  } catch (error) {
    if (error instanceof OutboundError) throw badRequest(`Unable to load GeoJSON file: ${error.message}`);
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw badRequest('Invalid GeoJSON file: it is not JSON.');
  }
  const type = (parsed as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !GEOJSON_TYPES.has(type)) throw badRequest('Invalid GeoJSON file: it is not a GeoJSON object.');
  return body;
}

/** The GeoJSON text of a map by key: built-in, or fetched from the URL the `custom-geojson` setting gives it. */
export async function mapByKey(ctx: AppContext, key: string): Promise<string> {
  if (Object.hasOwn(BUILTIN_MAPS, key)) return builtinText(key);
  const info = (await allMaps(ctx))[key];
  if (!info || typeof info.url !== 'string') throw badRequest(`Invalid custom GeoJSON key: ${key}`);
  return fetchGeoJson(ctx, info.url);
}
