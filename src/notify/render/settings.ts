// The settings rendering reads: `attachment-table-row-limit` (defined here: rows an emailed table shows) and the
// core `report-timezone`, `start-of-week` and `custom-formatting`. `renderSettings(ctx)` gathers them into the
// options renderCardPng/renderCardHtml take.

import { defineSetting } from '../../settings/definition.js';
import type { AppContext } from '../../context.js';
import { DEFAULT_TABLE_ROWS, MAX_TABLE_ROWS } from '../../visualization/index.js';
import type { RenderOptions } from './types.js';

defineSetting({
  key: 'attachment-table-row-limit',
  type: 'integer',
  visibility: 'internal',
  range: { min: 'positive' },
  default: DEFAULT_TABLE_ROWS,
  description: `Maximum number of rows to render in an alert or subscription image. Range: 1-${MAX_TABLE_ROWS}. To limit the total number of rows included in the file attachment for an email dashboard subscription, use MB_UNAGGREGATED_QUERY_ROW_LIMIT.`,
});

export async function renderSettings(ctx: AppContext): Promise<Required<Pick<RenderOptions, 'timezone' | 'tableRowLimit' | 'startOfWeek' | 'formatting'>>> {
  const [timezone, rows, startOfWeek, formatting] = await Promise.all([
    ctx.settings.getString('report-timezone'),
    ctx.settings.getNumber('attachment-table-row-limit'),
    ctx.settings.getString('start-of-week'),
    ctx.settings.get('custom-formatting'),
  ]);
  return {
    timezone: timezone && timezone.trim() ? timezone : Intl.DateTimeFormat().resolvedOptions().timeZone,
    tableRowLimit: rows && rows > 0 ? Math.min(rows, MAX_TABLE_ROWS) : DEFAULT_TABLE_ROWS,
    startOfWeek: startOfWeek || 'sunday',
    formatting: formatting && typeof formatting === 'object' ? (formatting as RenderOptions['formatting'] & object) : {},
  };
}
