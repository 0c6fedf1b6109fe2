// GET /api/public/oembed (reference §8.4): the oEmbed answer for a public link — an iframe of the URL, 1024×800
// unless the consumer gives a size (`maxwidth`/`maxheight`, as Metabase takes them). The URL is only ever written HTML-escaped.

import { badRequest } from '../http/errors.js';
import { escapeHtml } from '../util/html.js';

const DEFAULT_WIDTH = 1024;
const DEFAULT_HEIGHT = 800;
/** No screen is wider or taller (a bigger number is a typo or a probe). */
const MAX_SIZE = 100_000;

function size(value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0 || n > MAX_SIZE) throw badRequest();
  return n;
}

export function oembed(query: Record<string, unknown>) {
  const url = query.url;
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) throw badRequest();
  if (query.format !== undefined && query.format !== 'json') throw badRequest();
  const width = size(query.maxwidth, DEFAULT_WIDTH);
  const height = size(query.maxheight, DEFAULT_HEIGHT);
  return {
    version: '1.0',
    type: 'rich',
    width,
    height,
    html: `<iframe src="${escapeHtml(url)}" width="${width}" height="${height}" frameborder="0" allowtransparency></iframe>`,
  };
}
