// Web Mercator tile arithmetic, as Metabase's pin-map tiles do it: a tile's corners in degrees, and where a point
// falls in a tile, in pixels of its 256 × 256 picture.

export const TILE_SIZE = 256;
const ORIGIN = TILE_SIZE / 2;
const PIXELS_PER_LON_DEGREE = TILE_SIZE / 360;
const PIXELS_PER_LON_RADIAN = TILE_SIZE / (2 * Math.PI);
/** Zoom levels beyond this have tiles smaller than a centimetre; Metabase's maps stop far earlier. */
export const MAX_ZOOM = 30;

export interface TileAddress {
  zoom: number;
  x: number;
  y: number;
}

const radians = (degrees: number) => (degrees * Math.PI) / 180;
const degrees = (r: number) => (r * 180) / Math.PI;

/** The latitude and longitude of the upper-left corner of tile (x, y) at this zoom. */
function corner(x: number, y: number, zoom: number): { lat: number; lon: number } {
  const tiles = 2 ** zoom;
  const cornerX = (x * TILE_SIZE) / tiles;
  const cornerY = (y * TILE_SIZE) / tiles;
  const lon = (cornerX - ORIGIN) / PIXELS_PER_LON_DEGREE;
  const latRadians = (cornerY - ORIGIN) / -PIXELS_PER_LON_RADIAN;
  return { lat: degrees(2 * Math.atan(Math.exp(latRadians)) - Math.PI / 2), lon };
}

/** The tile's bounding box: north and south latitudes, west and east longitudes. */
export function tileBounds(tile: TileAddress): { north: number; west: number; south: number; east: number } {
  const topLeft = corner(tile.x, tile.y, tile.zoom);
  const bottomRight = corner(tile.x + 1, tile.y + 1, tile.zoom);
  return { north: topLeft.lat, west: topLeft.lon, south: bottomRight.lat, east: bottomRight.lon };
}

/** Where (lat, lon) falls inside the picture of a tile at `zoom` (whole pixels, 0–255). */
export function pixelInTile(lat: number, lon: number, zoom: number): { x: number; y: number } {
  const tiles = 2 ** zoom;
  const sinY = Math.min(Math.max(Math.sin(radians(lat)), -0.9999), 0.9999);
  const worldX = ORIGIN + lon * PIXELS_PER_LON_DEGREE;
  const worldY = ORIGIN + 0.5 * Math.log((1 + sinY) / (1 - sinY)) * -PIXELS_PER_LON_RADIAN;
  const wrap = (n: number) => ((n % TILE_SIZE) + TILE_SIZE) % TILE_SIZE;
  return { x: wrap(Math.floor(worldX * tiles)), y: wrap(Math.floor(worldY * tiles)) };
}
