// The font every PNG is drawn with, named explicitly so output is the same on every machine (resvg draws no text
// without one, and system fonts differ): DejaVu Sans, regular and bold, shipped in resources/fonts (the system's copy
// is only a fallback). QUARRY_RENDER_FONT_DIR points elsewhere; the directory must hold DejaVuSans.ttf and
// DejaVuSans-Bold.ttf. Widths are read from the font's own tables
// (cmap + hmtx) so that ECharts' layout and our table columns measure text exactly as resvg will draw it.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { shippedResource } from '../../util/resources.js';

export const FONT_FAMILY = 'DejaVu Sans';

const SYSTEM_DIRS = [
  '/usr/share/fonts/truetype/dejavu', // Debian, Ubuntu
  '/usr/share/fonts/dejavu-sans-fonts', // Fedora, RHEL
  '/usr/share/fonts/TTF', // Arch
  '/usr/share/fonts/dejavu', // Alpine
];

function candidateDirs(): string[] {
  const shipped = shippedResource('fonts/DejaVuSans.ttf');
  return shipped === null ? SYSTEM_DIRS : [dirname(shipped), ...SYSTEM_DIRS];
}

export interface FontFiles {
  regular: string;
  bold: string;
}

let located: FontFiles | null = null;

export function fontFiles(): FontFiles {
  if (located) return located;
  const dirs = process.env.QUARRY_RENDER_FONT_DIR ? [process.env.QUARRY_RENDER_FONT_DIR] : candidateDirs();
  for (const dir of dirs) {
    const regular = join(dir, 'DejaVuSans.ttf');
    const bold = join(dir, 'DejaVuSans-Bold.ttf');
    if (existsSync(regular) && existsSync(bold)) {
      located = { regular, bold };
      return located;
    }
  }
  throw new Error(
    `Charts need the DejaVu Sans font (DejaVuSans.ttf and DejaVuSans-Bold.ttf) in one of ${dirs.join(', ')}; install it (Debian: fonts-dejavu-core) or set QUARRY_RENDER_FONT_DIR.`,
  );
}

/** Advance widths of one font file, in em units. */
class FontMetrics {
  private readonly widths = new Map<number, number>();
  private readonly fallback: number;

  constructor(data: Buffer) {
    const tables = new Map<string, number>();
    const count = data.readUInt16BE(4);
    for (let i = 0; i < count; i++) {
      const at = 12 + i * 16;
      tables.set(data.toString('latin1', at, at + 4), data.readUInt32BE(at + 8));
    }
    const head = tables.get('head');
    const hhea = tables.get('hhea');
    const hmtx = tables.get('hmtx');
    const cmap = tables.get('cmap');
    if (head === undefined || hhea === undefined || hmtx === undefined || cmap === undefined) throw new Error('unsupported font file');
    const unitsPerEm = data.readUInt16BE(head + 18);
    const metricsCount = data.readUInt16BE(hhea + 34);
    const advance = (glyph: number) => data.readUInt16BE(hmtx + 4 * Math.min(glyph, metricsCount - 1)) / unitsPerEm;
    this.fallback = advance(0);
    for (const [code, glyph] of this.characterMap(data, cmap)) this.widths.set(code, advance(glyph));
  }

  /** Unicode → glyph from the format-4 (BMP) subtable of the cmap. */
  private *characterMap(data: Buffer, cmap: number): Generator<[number, number]> {
    const subtables = data.readUInt16BE(cmap + 2);
    for (let i = 0; i < subtables; i++) {
      const platform = data.readUInt16BE(cmap + 4 + i * 8);
      const encoding = data.readUInt16BE(cmap + 6 + i * 8);
      const offset = cmap + data.readUInt32BE(cmap + 8 + i * 8);
      if (platform !== 3 || encoding !== 1 || data.readUInt16BE(offset) !== 4) continue;
      const segments = data.readUInt16BE(offset + 6) / 2;
      const ends = offset + 14;
      const starts = ends + segments * 2 + 2;
      const deltas = starts + segments * 2;
      const rangeOffsets = deltas + segments * 2;
      for (let s = 0; s < segments; s++) {
        const end = data.readUInt16BE(ends + s * 2);
        const start = data.readUInt16BE(starts + s * 2);
        const delta = data.readInt16BE(deltas + s * 2);
        const rangeOffset = data.readUInt16BE(rangeOffsets + s * 2);
        for (let code = start; code <= end && code !== 0xffff; code++) {
          let glyph: number;
          if (rangeOffset === 0) glyph = (code + delta) & 0xffff;
          else {
            const at = rangeOffsets + s * 2 + rangeOffset + (code - start) * 2;
            const raw = data.readUInt16BE(at);
            glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
          }
          if (glyph !== 0) yield [code, glyph];
        }
      }
      return;
    }
  }

  /** Width of `text` at 1px font size. */
  width(text: string): number {
    let total = 0;
    for (const ch of text) total += this.widths.get(ch.codePointAt(0) as number) ?? this.fallback;
    return total;
  }
}

let metrics: { regular: FontMetrics; bold: FontMetrics } | null = null;

function loadedMetrics(): { regular: FontMetrics; bold: FontMetrics } {
  if (!metrics) {
    const files = fontFiles();
    metrics = { regular: new FontMetrics(readFileSync(files.regular)), bold: new FontMetrics(readFileSync(files.bold)) };
  }
  return metrics;
}

/** Width in px of `text` drawn at `size` px. */
export function textWidth(text: string, size: number, bold = false): number {
  const m = loadedMetrics();
  return (bold ? m.bold : m.regular).width(text) * size;
}

/** Width of text in a CSS font shorthand (`bold 12px sans-serif`), for ECharts' layout. */
export function measureCssFont(text: string, font: string | undefined): number {
  const size = Number(/(\d+(?:\.\d+)?)px/.exec(font ?? '')?.[1] ?? 12);
  const bold = /\b(bold|bolder|[6-9]00)\b/.test(font ?? '');
  return textWidth(text, size, bold);
}
