// The rendering itself, run inside a pool worker (./worker.ts): a card and its result → a PNG, or → email-safe
// HTML plus the PNGs it references. Falls back to the table when a picture can't be drawn, and to Metabase's
// "An error occurred while displaying this card." when even that fails; never throws for odd input.

import { createHash } from 'node:crypto';
import { describeAsTable, describeVisualization, type Visualization, type VisualizationInput, type DescribeOptions } from '../../visualization/index.js';
import { emptyHtml, imageHtml, renderErrorHtml, scalarHtml, smartScalarHtml, tableHtml } from './html.js';
import { DEFAULT_PNG_WIDTH, layoutWidth, visualizationPng } from './png.js';
import type { HtmlRenderOptions, RenderableCard, RenderableResult, RenderedHtml, RenderOptions } from './types.js';

function pixelWidth(options: RenderOptions): number {
  const w = options.width;
  return typeof w === 'number' && Number.isFinite(w) && w >= 100 ? Math.min(Math.round(w), 4000) : DEFAULT_PNG_WIDTH;
}

function inputs(card: RenderableCard, result: RenderableResult, options: RenderOptions): [VisualizationInput, DescribeOptions] {
  const settings = card.visualization_settings && typeof card.visualization_settings === 'object' ? card.visualization_settings : {};
  return [
    {
      display: typeof card.display === 'string' ? card.display : 'table',
      settings,
      cols: result?.cols ?? [],
      rows: result?.rows ?? [],
      name: card.name,
      series: (card.series ?? []).map((s) => ({ name: s.card.name, display: s.card.display, settings: s.card.visualization_settings, cols: s.result.cols, rows: s.result.rows })),
    },
    {
      timezone: options.timezone || 'UTC',
      width: layoutWidth(pixelWidth(options)),
      tableRowLimit: options.tableRowLimit,
      startOfWeek: options.startOfWeek,
      formatting: options.formatting,
    },
  ];
}

function describe(card: RenderableCard, result: RenderableResult, options: RenderOptions): Visualization {
  const [input, describeOptions] = inputs(card, result, options);
  try {
    return describeVisualization(input, describeOptions);
  } catch {
    return describeAsTable(input, describeOptions);
  }
}

function tableFallback(card: RenderableCard, result: RenderableResult, options: RenderOptions): Visualization {
  return describeAsTable(...inputs(card, result, options));
}

export function renderPngNow(card: RenderableCard, result: RenderableResult, options: RenderOptions): Buffer {
  const width = pixelWidth(options);
  const viz = describe(card, result, options);
  try {
    return visualizationPng(viz, width);
  } catch (error) {
    if (viz.kind === 'table') throw error;
    return visualizationPng(tableFallback(card, result, options), width);
  }
}

function contentId(png: Buffer): string {
  return `${createHash('sha256').update(png).digest('hex').slice(0, 24)}@quarry`;
}

function bodyHtml(viz: Visualization, card: RenderableCard, options: HtmlRenderOptions, images: RenderedHtml['images']): string {
  switch (viz.kind) {
    case 'table':
      return tableHtml(viz);
    case 'scalar':
      return scalarHtml(viz);
    case 'smartscalar':
      return smartScalarHtml(viz);
    case 'empty':
      return emptyHtml(viz);
    case 'chart': {
      const png = visualizationPng(viz, pixelWidth(options));
      if (options.imageMode === 'data-uri') return imageHtml(`data:image/png;base64,${png.toString('base64')}`, card.name);
      const cid = contentId(png);
      images.push({ cid, png });
      return imageHtml(`cid:${cid}`, card.name);
    }
  }
}

export function renderHtmlNow(card: RenderableCard, result: RenderableResult, options: HtmlRenderOptions): RenderedHtml {
  const viz = describe(card, result, options);
  for (const attempt of [() => viz, () => tableFallback(card, result, options)]) {
    const images: RenderedHtml['images'] = [];
    try {
      return { html: bodyHtml(attempt(), card, options, images), images };
    } catch {
      // next attempt
    }
  }
  return { html: renderErrorHtml(), images: [] };
}
