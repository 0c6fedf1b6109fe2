// A table description drawn as SVG, the way the emailed HTML table looks: bold grey header, a rule under each row,
// numbers right-aligned, cell colours, and the "Showing N of M rows." note when the table was cut. Columns get the
// width of their widest text; when they don't all fit, the widest are narrowed and their text cut with an ellipsis.

import type { TableVisualization } from '../../visualization/index.js';
import { COLORS } from '../../visualization/index.js';
import { textWidth } from './font.js';
import { fitText, svgDocument, svgRect, svgText } from './svg.js';

const FONT = 12;
const PAD = 10;
const ROW = 28;
const HEADER = 32;
const NOTE = 30;

function naturalWidths(table: TableVisualization): number[] {
  return table.columns.map((col, i) => Math.max(textWidth(col.title, FONT, true), ...table.rows.map((row) => textWidth(row[i]?.text ?? '', FONT))) + 2 * PAD);
}

function columnWidths(natural: number[], width: number): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= width) {
    // Spread what is left evenly, so the table spans the picture like the email's 100%-wide table.
    const extra = (width - total) / natural.length;
    return natural.map((w) => w + extra);
  }
  // Cap the widest columns at the level that makes everything fit.
  const sorted = [...natural].sort((a, b) => a - b);
  let remaining = width;
  let cap = width / natural.length;
  for (let i = 0; i < sorted.length; i++) {
    const fair = remaining / (sorted.length - i);
    if (sorted[i] > fair) {
      cap = fair;
      break;
    }
    remaining -= sorted[i];
    cap = sorted[i];
  }
  return natural.map((w) => Math.min(w, cap));
}

export function showingNote(table: TableVisualization): string | null {
  return table.totalRows > table.rows.length ? `Showing ${table.rows.length} of ${table.totalRows} rows.` : null;
}

/**
 * The table laid out at `width` CSS px, or wider — up to `maxWidth` — when its columns need it (the picture is then
 * drawn at a smaller scale rather than cutting every value short).
 */
export function tableSvg(table: TableVisualization, width: number, maxWidth = width): { svg: string; height: number; width: number } {
  const natural = naturalWidths(table);
  width = Math.min(Math.max(width, Math.ceil(natural.reduce((a, b) => a + b, 0))), Math.max(width, maxWidth));
  const widths = columnWidths(natural, width);
  const note = showingNote(table);
  const height = HEADER + ROW * table.rows.length + (note ? NOTE : 0) + 2;
  const body: string[] = [];
  let x = 0;
  table.columns.forEach((col, i) => {
    const w = widths[i];
    const right = col.align === 'right';
    const textX = right ? x + w - PAD : x + PAD;
    const anchor = right ? 'end' : 'start';
    body.push(svgText(fitText(col.title, w - 2 * PAD, FONT, true), textX, HEADER / 2, { size: FONT, color: COLORS.textLight, bold: true, anchor }));
    table.rows.forEach((row, r) => {
      const top = HEADER + r * ROW;
      const cell = row[i];
      if (cell?.background) body.push(svgRect(x, top, w, ROW, cell.background));
      body.push(svgText(fitText(cell?.text ?? '', w - 2 * PAD, FONT), textX, top + ROW / 2, { size: FONT, color: COLORS.textDark, anchor }));
    });
    x += w;
  });
  body.push(svgRect(0, HEADER - 1, width, 1, COLORS.bgMedium));
  table.rows.forEach((_, r) => body.push(svgRect(0, HEADER + (r + 1) * ROW - 1, width, 1, COLORS.bgMedium)));
  if (note) body.push(svgText(note, PAD, HEADER + ROW * table.rows.length + NOTE / 2, { size: FONT, color: COLORS.textMedium }));
  return { svg: svgDocument(width, height, body), height, width };
}
