// The result of a run: a single value as a number (as Metabase shows a one-cell table), anything else through the
// question view's ResultView (the virtualized grid for tables, the pivot grid, or a chart). The one place the SQL
// editor shows rows.

import { Text } from '@mantine/core';
import type { QueryResult } from '../../api/types';
import { LazyChart } from '../LazyChart';
import { ResultView } from '../results/ResultView';

export function NativeResults({ result, display, settings }: { result: QueryResult; display: string; settings: Record<string, unknown> }) {
  const rows = result.row_count ?? result.data.rows.length;
  const singleValue = result.data.rows.length === 1 && result.data.cols.length === 1;
  if (!singleValue && (display === 'table' || display === 'pivot')) {
    return (
      <div data-testid="native-results">
        <ResultView result={result} display={display} settings={settings} />
      </div>
    );
  }
  return (
    <div data-testid="native-results">
      <Text size="sm" c="dimmed" mb={4} data-testid="row-count">
        {rows.toLocaleString('en-US')} {rows === 1 ? 'row' : 'rows'}
      </Text>
      <LazyChart data={result.data} display={display} settings={settings} height={380} />
    </div>
  );
}
