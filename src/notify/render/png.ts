// A visualization drawn as a PNG: charts through ECharts SSR, everything else through our own SVG, then resvg.
// Laid out at half the pixel width and drawn at 2× (so 1,200 px pictures are crisp in a 600 px email column);
// narrow pictures (preview_card_png's 400 px) are laid out at their own width, and a table too wide for the layout
// width gets up to the full pixel width (drawn at a smaller scale).

import type { Visualization } from '../../visualization/index.js';
import { chartSvg } from './echarts-svg.js';
import { tableSvg } from './draw-table.js';
import { emptySvg, scalarSvg, smartScalarSvg } from './draw-text.js';
import { svgToPng } from './rasterize.js';

export const DEFAULT_PNG_WIDTH = 1200;

/** CSS width a picture of `pixelWidth` pixels is laid out at. */
export function layoutWidth(pixelWidth: number): number {
  return pixelWidth >= 800 ? Math.round(pixelWidth / 2) : pixelWidth;
}

export function visualizationSvg(viz: Visualization, pixelWidth: number): string {
  const width = layoutWidth(pixelWidth);
  switch (viz.kind) {
    case 'chart':
      return chartSvg(viz.option, viz.width, viz.height);
    case 'table':
      return tableSvg(viz, width, pixelWidth).svg;
    case 'scalar':
      return scalarSvg(viz, width).svg;
    case 'smartscalar':
      return smartScalarSvg(viz, width).svg;
    case 'empty':
      return emptySvg(viz, width).svg;
  }
}

export function visualizationPng(viz: Visualization, pixelWidth: number): Buffer {
  return svgToPng(visualizationSvg(viz, pixelWidth), pixelWidth);
}
