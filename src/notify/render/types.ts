// The rendering interface's data types (src/notify/render/index.ts re-exports them).

export interface RenderableCard {
  name: string;
  display: string;
  visualization_settings: Record<string, unknown>;
  /** Other cards overlaid on this one's chart (a dashcard's `series`), each with its result. */
  series?: Array<{ card: Omit<RenderableCard, 'series'>; result: RenderableResult }>;
}

/** `result.data` of runQueryToMemory (src/query). */
export interface RenderableResult {
  cols: Array<Record<string, unknown>>;
  rows: unknown[][];
}

export interface RenderOptions {
  /** The report time zone: values without an offset are read in it. */
  timezone: string;
  /** Pixel width of PNGs (default 1,200; preview_card_png uses 400). */
  width?: number;
  /** `attachment-table-row-limit` (default 20, at most 100): rows an emailed table shows. */
  tableRowLimit?: number;
  /** `start-of-week`, for day-of-week names. */
  startOfWeek?: string;
  /** `custom-formatting`: formatting defaults by type. */
  formatting?: Record<string, Record<string, unknown> | undefined>;
}

export interface HtmlRenderOptions extends RenderOptions {
  imageMode: 'cid' | 'data-uri';
}

export interface RenderedHtml {
  html: string;
  images: Array<{ cid: string; png: Buffer }>;
}
