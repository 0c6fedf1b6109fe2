// Cards drawn for subscriptions and alerts: a PNG of any card, or an email-safe HTML fragment of its body.
// The work runs in a pool of worker threads (./pool.ts); call `closeRenderer()` when the server stops.

import { RenderPool } from './pool.js';
import { renderErrorHtml } from './html.js';
import type { HtmlRenderOptions, RenderableCard, RenderableResult, RenderedHtml, RenderOptions } from './types.js';

export type { RenderableCard, RenderableResult, RenderOptions, HtmlRenderOptions, RenderedHtml } from './types.js';
export { renderSettings } from './settings.js';

let pool: RenderPool | null = null;

function renderPool(): RenderPool {
  pool ??= new RenderPool();
  return pool;
}

function settingsOf(card: Pick<RenderableCard, 'visualization_settings'>): Record<string, unknown> {
  const settings: unknown = card?.visualization_settings;
  if (typeof settings === 'string') {
    // A card row straight from the app DB keeps its settings as JSON text.
    try {
      const parsed: unknown = JSON.parse(settings);
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return settings && typeof settings === 'object' ? (settings as Record<string, unknown>) : {};
}

function cardFields(card: Omit<RenderableCard, 'series'>) {
  return { name: String(card?.name ?? ''), display: String(card?.display ?? 'table'), visualization_settings: settingsOf(card) };
}

function resultFields(result: RenderableResult) {
  return { cols: Array.isArray(result?.cols) ? result.cols : [], rows: Array.isArray(result?.rows) ? result.rows : [] };
}

/** Only what rendering reads crosses to the worker (a full card or result carries much more, not all cloneable). */
function payload(card: RenderableCard, result: RenderableResult, options: RenderOptions & { imageMode?: string }) {
  const series = Array.isArray(card?.series) ? card.series.map((s) => ({ card: cardFields(s?.card), result: resultFields(s?.result) })) : [];
  return {
    card: { ...cardFields(card), series },
    result: resultFields(result),
    options: {
      timezone: options?.timezone,
      width: options?.width,
      tableRowLimit: options?.tableRowLimit,
      startOfWeek: options?.startOfWeek,
      formatting: options?.formatting,
      imageMode: options?.imageMode,
    },
  };
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Always a PNG (tables drawn as an image too): preview_card_png, the webhook payload's base64 `visualization`. */
export async function renderCardPng(card: RenderableCard, result: RenderableResult, options: RenderOptions): Promise<Buffer> {
  return toBuffer(await renderPool().run<Uint8Array>('png', payload(card, result, options)));
}

/**
 * An email-safe HTML fragment (inline styles) for one card's body: a chart as <img src="cid:…"> (imageMode 'cid',
 * its PNG in `images`) or a data: URI (imageMode 'data-uri', for preview pages), a table as an HTML table. Never
 * throws: an odd visualization falls back to a table, a failed render to Metabase's error placeholder.
 */
export async function renderCardHtml(
  card: RenderableCard,
  result: RenderableResult,
  options: RenderOptions & { imageMode: 'cid' | 'data-uri' },
): Promise<RenderedHtml> {
  try {
    const rendered = await renderPool().run<{ html: string; images: Array<{ cid: string; png: Uint8Array }> }>('html', payload(card, result, options));
    return { html: rendered.html, images: rendered.images.map((image) => ({ cid: image.cid, png: toBuffer(image.png) })) };
  } catch {
    return { html: renderErrorHtml(), images: [] };
  }
}

/** Any SVG drawn as a PNG `width` pixels wide, in the pool (map tiles: `transparent`, to lay over a map). */
export async function renderSvgPng(svg: string, width: number, options: { transparent?: boolean } = {}): Promise<Buffer> {
  return toBuffer(await renderPool().run<Uint8Array>('svg', { svg, width, transparent: options.transparent === true }));
}

/** Stops the render workers (the server's onClose); a later render starts them again. */
export async function closeRenderer(): Promise<void> {
  const current = pool;
  pool = null;
  await current?.close();
}
