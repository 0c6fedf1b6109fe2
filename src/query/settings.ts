// Settings of the query engine (row limits, downloads). `max-results-bare-rows`, `report-timezone`, `start-of-week`
// and the binning settings are core settings (src/settings/definitions.ts); they are read here too.

import { defineSetting } from '../settings/definition.js';
import type { AppContext } from '../context.js';
import type { StartOfWeek } from './compile/dialect.js';

defineSetting({
  key: 'aggregated-query-row-limit',
  type: 'integer',
  range: { min: 'positive' },
  visibility: 'authenticated',
  default: 10000,
  description: 'Maximum number of rows to return for aggregated queries via the API.',
});
defineSetting({
  key: 'unaggregated-query-row-limit',
  type: 'integer',
  range: { min: 'positive' },
  visibility: 'authenticated',
  default: (ctx: AppContext) => ctx.settings.get('max-results-bare-rows'),
  description: 'Maximum number of rows to return specifically on :rows type queries via the API.',
});
defineSetting({
  key: 'download-row-limit',
  type: 'integer',
  range: { min: 'positive' },
  visibility: 'authenticated',
  default: null,
  description: 'Exports (CSV, JSON, XLSX) stop after this many rows when set; XLSX never exceeds 1,048,575 rows.',
});

/** Excel's row limit minus the header row: the absolute cap of XLSX downloads and `api` downloads. */
export const ABSOLUTE_MAX_RESULTS = 1_048_575;

/**
 * The most rows a download holds: `download-row-limit` when set (none for CSV and JSON otherwise); XLSX never more
 * than Excel's sheet holds, `api` downloads never more than the absolute cap.
 */
export function downloadRowCap(format: 'csv' | 'json' | 'xlsx' | 'api', downloadLimit: number | null): number | null {
  if (format === 'csv' || format === 'json') return downloadLimit;
  if (format === 'xlsx') return Math.min(downloadLimit ?? ABSOLUTE_MAX_RESULTS, ABSOLUTE_MAX_RESULTS);
  return ABSOLUTE_MAX_RESULTS;
}

export interface QuerySettings {
  reportTimezone: string | null;
  startOfWeek: StartOfWeek;
  binsNum: number;
  binWidth: number;
  aggregatedLimit: number;
  unaggregatedLimit: number;
  downloadLimit: number | null;
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

export async function querySettings(ctx: AppContext): Promise<QuerySettings> {
  const [tz, sow, bins, width, agg, unagg, download] = await Promise.all([
    ctx.settings.getString('report-timezone'),
    ctx.settings.getString('start-of-week'),
    ctx.settings.getNumber('breakout-bins-num'),
    ctx.settings.getNumber('breakout-bin-width'),
    ctx.settings.getNumber('aggregated-query-row-limit'),
    ctx.settings.getNumber('unaggregated-query-row-limit'),
    ctx.settings.getNumber('download-row-limit'),
  ]);
  return {
    reportTimezone: tz && tz.trim() ? tz : null,
    startOfWeek: (sow && WEEKDAYS.includes(sow) ? sow : 'sunday') as StartOfWeek,
    binsNum: bins && bins > 0 ? bins : 8,
    binWidth: width && width > 0 ? width : 10,
    aggregatedLimit: agg && agg > 0 ? agg : 10000,
    unaggregatedLimit: unagg && unagg > 0 ? unagg : 2000,
    downloadLimit: download && download > 0 ? download : null,
  };
}
