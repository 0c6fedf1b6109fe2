// A tile's picture: one pin per point — a white square of 6 px with a blue one of 4 px inside, as Metabase draws
// them — on a transparent background, as SVG (rasterized by the render pool of src/notify/render).

import { pixelInTile, TILE_SIZE } from './geometry.js';

const PIN = 6;
const BLUE = 'rgb(76,157,230)';

export function tileSvg(points: Array<[number, number]>, zoom: number): string {
  const pins: string[] = [];
  const seen = new Set<string>();
  for (const [lat, lon] of points) {
    const { x, y } = pixelInTile(lat, lon, zoom);
    const key = `${x},${y}`;
    if (seen.has(key)) continue; // a pin drawn again on the same pixel changes nothing
    seen.add(key);
    const left = x - PIN / 2;
    const top = y - PIN / 2;
    pins.push(`<rect x="${left}" y="${top}" width="${PIN}" height="${PIN}" fill="#FFFFFF"/><rect x="${left + 1}" y="${top + 1}" width="${PIN - 2}" height="${PIN - 2}" fill="${BLUE}"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${TILE_SIZE}" height="${TILE_SIZE}" viewBox="0 0 ${TILE_SIZE} ${TILE_SIZE}">${pins.join('')}</svg>`;
}
