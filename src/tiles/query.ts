// Turning the query behind a pin map into the query of one tile, as Metabase does: a native query becomes the source
// of an MBQL stage; the stage keeps only the rows inside the tile (an `inside` filter on the latitude and longitude
// columns), selects just those two columns (unless it summarizes), and returns at most 2,000 points.

import { badRequest } from '../http/errors.js';
import { normalizeFieldish, normalizeQuery } from '../query/mbql/normalize.js';
import type { DatasetQuery, FieldRef, MbqlQuery } from '../query/mbql/types.js';
import { tileBounds, type TileAddress } from './geometry.js';

/** Metabase's cap on the points drawn in one tile. */
export const TILE_POINT_LIMIT = 2000;

/**
 * A latitude or longitude column from the URL: a field ref as JSON (`["field",12,null]`, `["field","LAT",
 * {"base-type":"type/Float"}]`, legacy spellings too) or a bare field id. 400 for anything else.
 */
export function parseFieldRef(raw: string, name: string): FieldRef {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest(`${name} must be a field reference as JSON, like ["field",12,null].`);
  }
  const ref = normalizeFieldish(value);
  if (!Array.isArray(ref) || ref[0] !== 'field' || !(typeof ref[1] === 'number' || typeof ref[1] === 'string')) {
    throw badRequest(`${name} must be a field reference as JSON, like ["field",12,null].`);
  }
  return ref as FieldRef;
}

/**
 * What identifies a column whatever its options: the field id or name, and the join or implicit join it comes
 * through (a temporal unit, binning or base type doesn't make it another column).
 */
export function columnKey(ref: unknown): string | null {
  if (!Array.isArray(ref) || ref[0] !== 'field') return null;
  const options = (ref[2] ?? {}) as Record<string, unknown>;
  return JSON.stringify([ref[1], options['join-alias'] ?? null, options['source-field'] ?? null]);
}

/** The query of one tile. A native query's parameter values still reach its template tags as the stage's source. */
export function tileQuery(source: unknown, tile: TileAddress, lat: FieldRef, lon: FieldRef): DatasetQuery {
  let query: DatasetQuery;
  try {
    query = normalizeQuery(source);
  } catch (error) {
    throw badRequest(`Invalid query: ${(error as Error).message}`);
  }
  if (query.type === 'native') {
    const native = query.native ?? { query: '' };
    query = {
      database: query.database,
      type: 'query',
      query: { 'source-query': { native: String(native.query ?? ''), ...(native['template-tags'] ? { 'template-tags': native['template-tags'] } : {}) } },
    };
  }
  if (query.type !== 'query' || !query.query) throw badRequest('Invalid query: map tiles need a query.');
  const stage: MbqlQuery = { ...query.query };
  const { north, west, south, east } = tileBounds(tile);
  const inside = ['inside', lat, lon, north, west, south, east];
  stage.filter = (stage.filter ? ['and', stage.filter, inside] : inside) as MbqlQuery['filter'];
  if (!stage.aggregation?.length && !stage.breakout?.length) stage.fields = [lat, lon];
  delete stage.page;
  stage.limit = TILE_POINT_LIMIT;
  return { ...query, query: stage };
}
