// The result of a run, drawn with what the app has (LazyChart: a table, a number or a chart as the display says).
// The one place the SQL editor shows rows, so a richer results grid can replace it.

import { Text } from '@mantine/core';
import type { QueryResult } from '../../api/types';
import { LazyChart } from '../LazyChart';

export function NativeResults({ result, display, settings }: { result: QueryResult; display: string; settings: Record<string, unknown> }) {
  return (
    <div data-testid="native-results">
      <Text size="sm" c="dimmed" mb={4} data-testid="row-count">
        {(result.row_count ?? result.data.rows.length).toLocaleString('en-US')} {(result.row_count ?? result.data.rows.length) === 1 ? 'row' : 'rows'}
      </Text>
      <LazyChart data={result.data} display={display} settings={settings} height={380} />
    </div>
  );
}
