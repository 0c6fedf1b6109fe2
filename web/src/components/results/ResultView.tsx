// A question's result as its display says: every row in the grid (table), the cross table (pivot), or the chart
// src/visualization describes (everything else, loaded on first use).

import type { QueryResult, VisualizationSettings } from '../../api/types';
import { LazyChart } from '../LazyChart';
import { QueryFailure } from '../QueryFailure';
import { PivotGrid } from './PivotGrid';
import { ResultsGrid } from './ResultsGrid';

export function ResultView({ result, display, settings, name }: { result: QueryResult; display: string; settings: VisualizationSettings; name?: string }) {
  if (result.status === 'failed') return <QueryFailure result={result} />;
  const isPivotResult = result.data.cols.some((c) => c.name === 'pivot-grouping');
  if (display === 'pivot' && isPivotResult) return <PivotGrid data={result.data} settings={settings} />;
  if (display === 'table' || isPivotResult) return <ResultsGrid data={result.data} settings={settings} />;
  return <LazyChart data={result.data} display={display} settings={settings} name={name} height={420} />;
}
