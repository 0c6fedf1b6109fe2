// Scalars, trends (smart scalars) and "No results" drawn as SVG, for the places that need a picture of them
// (preview_card_png, webhook payloads): the number large, a trend's comparisons under it in their colours.

import type { EmptyVisualization, ScalarVisualization, SmartScalarVisualization } from '../../visualization/index.js';
import { COLORS } from '../../visualization/index.js';
import { fitText, fittingSize, svgDocument, svgText } from './svg.js';
import { textWidth } from './font.js';

const PAD = 16;

export const ARROWS = { up: '↑', down: '↓', none: '', missing: '' } as const;

export function scalarSvg(scalar: ScalarVisualization, width: number): { svg: string; height: number } {
  const size = fittingSize(scalar.value, width - 2 * PAD, 40, 12, true);
  const height = size + 2 * PAD + 8;
  return { svg: svgDocument(width, height, [svgText(scalar.value, PAD, height / 2, { size, color: COLORS.textDark, bold: true })]), height };
}

export function smartScalarSvg(trend: SmartScalarVisualization, width: number): { svg: string; height: number } {
  const body: string[] = [];
  const size = fittingSize(trend.value, width - 2 * PAD, 40, 12, true);
  let y = PAD + size / 2;
  body.push(svgText(trend.value, PAD, y, { size, color: COLORS.textDark, bold: true }));
  y += size / 2 + 8;
  if (trend.period) {
    y += 9;
    body.push(svgText(fitText(trend.period, width - 2 * PAD, 13, true), PAD, y, { size: 13, color: COLORS.textMedium, bold: true }));
    y += 9;
  }
  for (const c of trend.comparisons) {
    y += 12;
    const change = `${ARROWS[c.direction]}${ARROWS[c.direction] ? ' ' : ''}${c.change}`;
    body.push(svgText(change, PAD, y, { size: 13, color: c.color, bold: true }));
    const rest = ` ${c.label}: ${c.previous}`;
    const x = PAD + textWidth(change, 13, true);
    body.push(svgText(fitText(rest, width - PAD - x, 13), x, y, { size: 13, color: COLORS.textMedium }));
    y += 10;
  }
  const height = y + PAD;
  return { svg: svgDocument(width, height, body), height };
}

export function emptySvg(empty: EmptyVisualization, width: number): { svg: string; height: number } {
  const height = 120;
  return { svg: svgDocument(width, height, [svgText(empty.message, width / 2, height / 2, { size: 16, color: COLORS.textLight, bold: true, anchor: 'middle' })]), height };
}
