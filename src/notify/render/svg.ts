// Small SVG building blocks for the pictures drawn without ECharts (tables, numbers, "No results"), and text
// fitting with the real font widths.

import { FONT_FAMILY, textWidth } from './font.js';

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

export interface TextStyle {
  size: number;
  color: string;
  bold?: boolean;
  anchor?: 'start' | 'middle' | 'end';
}

/** A line of text whose vertical centre is at `centerY`. */
export function svgText(text: string, x: number, centerY: number, style: TextStyle): string {
  const baseline = centerY + style.size * 0.36;
  return `<text x="${round(x)}" y="${round(baseline)}" font-family="${FONT_FAMILY}" font-size="${style.size}"${style.bold ? ' font-weight="bold"' : ''} fill="${style.color}"${
    style.anchor && style.anchor !== 'start' ? ` text-anchor="${style.anchor}"` : ''
  } xml:space="preserve">${escapeXml(text)}</text>`;
}

export function svgRect(x: number, y: number, width: number, height: number, fill: string, radius = 0): string {
  return `<rect x="${round(x)}" y="${round(y)}" width="${round(width)}" height="${round(height)}"${radius ? ` rx="${radius}"` : ''} fill="${fill}"/>`;
}

export function svgDocument(width: number, height: number, body: string[]): string {
  const w = round(width);
  const h = round(height);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><rect width="${w}" height="${h}" fill="#FFFFFF"/>${body.join('')}</svg>`;
}

/** `text` cut with an ellipsis to fit `maxWidth` px. */
export function fitText(text: string, maxWidth: number, size: number, bold = false): string {
  if (textWidth(text, size, bold) <= maxWidth) return text;
  const chars = [...text];
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (textWidth(chars.slice(0, mid).join('') + '…', size, bold) <= maxWidth) low = mid;
    else high = mid - 1;
  }
  return low === 0 ? '…' : chars.slice(0, low).join('').trimEnd() + '…';
}

/** The largest font size (down to `min`) at which `text` fits `maxWidth`. */
export function fittingSize(text: string, maxWidth: number, max: number, min: number, bold = false): number {
  const width = textWidth(text, max, bold);
  if (width <= maxWidth) return max;
  return Math.max(min, Math.floor((max * maxWidth) / width));
}

function round(n: number): string {
  return String(Math.round(n * 100) / 100);
}
