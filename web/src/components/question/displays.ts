// The display a new summarized question starts with, as Metabase picks it: a number for a lone metric, a line over
// time, bars by category, the table otherwise.

import type { DatasetQuery } from './card';

export function suggestedDisplay(query: DatasetQuery): string {
  const q = query.query ?? {};
  const aggregations = Array.isArray(q.aggregation) ? q.aggregation : [];
  const breakouts = Array.isArray(q.breakout) ? (q.breakout as unknown[][]) : [];
  if (aggregations.length === 0) return 'table';
  if (breakouts.length === 0) return aggregations.length === 1 ? 'scalar' : 'table';
  if (breakouts.length > 2) return 'table';
  const first = breakouts[0];
  const options = (first?.[2] ?? {}) as Record<string, unknown>;
  const unit = options['temporal-unit'];
  const extraction = typeof unit === 'string' && /-of-/.test(unit);
  if (typeof unit === 'string' && !extraction) return 'line';
  return 'bar';
}
