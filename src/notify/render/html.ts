// Email-safe HTML for a card's body: inline styles only, no scripts, no classes, every value escaped. Tables as
// HTML tables (the "Showing N of M rows." note when cut), numbers and trends as large text, charts as an <img>
// whose source the caller chooses (a cid: reference or a data: URI).

import type { EmptyVisualization, ScalarVisualization, SmartScalarVisualization, TableVisualization } from '../../visualization/index.js';
import { COLORS } from '../../visualization/index.js';
import { ARROWS } from './draw-text.js';

const FONT = "font-family: Lato, 'Helvetica Neue', Helvetica, Arial, sans-serif;";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);
}

export function tableHtml(table: TableVisualization): string {
  const cellStyle = (align: string, extra = '') =>
    `${FONT} font-size: 12px; padding: 8px 10px; text-align: ${align}; border-bottom: 1px solid ${COLORS.bgMedium};${extra}`;
  const head = table.columns
    .map((c) => `<th style="${cellStyle(c.align, ` color: ${COLORS.textLight}; font-weight: 700;`)}">${escapeHtml(c.title)}</th>`)
    .join('');
  const body = table.rows
    .map(
      (row) =>
        `<tr>${row
          .map((cell, i) => {
            const background = cell.background ? ` background-color: ${cell.background};` : '';
            return `<td style="${cellStyle(table.columns[i].align, ` color: ${COLORS.textDark}; font-weight: 400;${background}`)}">${escapeHtml(cell.text)}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('');
  const cut = table.totalRows > table.rows.length;
  const note = cut
    ? `<div style="${FONT} font-size: 12px; color: ${COLORS.textMedium}; padding: 8px 10px;">Showing <strong>${table.rows.length}</strong> of <strong>${table.totalRows}</strong> rows.</div>`
    : '';
  return `<table style="width: 100%; border-collapse: collapse; border-spacing: 0;" cellpadding="0" cellspacing="0"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>${note}`;
}

export function scalarHtml(scalar: ScalarVisualization): string {
  return `<div style="${FONT} font-size: 24px; font-weight: 700; color: ${COLORS.textDark}; padding: 8px 0;">${escapeHtml(scalar.value)}</div>`;
}

export function smartScalarHtml(trend: SmartScalarVisualization): string {
  const period = trend.period ? `<div style="${FONT} font-size: 13px; font-weight: 700; color: ${COLORS.textMedium};">${escapeHtml(trend.period)}</div>` : '';
  const comparisons = trend.comparisons
    .map((c) => {
      const arrow = ARROWS[c.direction] ? `${ARROWS[c.direction]} ` : '';
      return `<div style="${FONT} font-size: 13px; padding-top: 4px;"><span style="font-weight: 700; color: ${c.color};">${escapeHtml(arrow + c.change)}</span><span style="color: ${COLORS.textMedium};"> ${escapeHtml(c.label)}: ${escapeHtml(c.previous)}</span></div>`;
    })
    .join('');
  return `<div style="padding: 8px 0;"><div style="${FONT} font-size: 24px; font-weight: 700; color: ${COLORS.textDark};">${escapeHtml(trend.value)}</div>${period}${comparisons}</div>`;
}

export function emptyHtml(empty: EmptyVisualization): string {
  return `<div style="${FONT} font-size: 16px; font-weight: 700; color: ${COLORS.textLight}; text-align: center; padding: 24px 0;">${escapeHtml(empty.message)}</div>`;
}

export function imageHtml(src: string, alt: string): string {
  return `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}" style="display: block; width: 100%;" width="100%">`;
}

/** Metabase's placeholder when a card could not be drawn at all. */
export function renderErrorHtml(): string {
  return `<div style="${FONT} font-size: 14px; color: ${COLORS.textMedium}; padding: 16px 0;">An error occurred while displaying this card.</div>`;
}
