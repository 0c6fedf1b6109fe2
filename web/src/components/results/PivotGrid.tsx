// A pivot result drawn as a cross table (./pivot.ts), values formatted as the card's settings say.

import { Alert, Box, Table } from '@mantine/core';
import { Fragment, useMemo } from 'react';
import { describeGrid } from '@quarry-src/visualization/grid.js';
import type { ResultData, VisualizationSettings } from '../../api/types';
import { useSession } from '../../lib/session';
import { pivotTable } from '@quarry-src/visualization/pivot.js';

export function PivotGrid({ data, settings, height = 480 }: { data: ResultData; settings: VisualizationSettings; height?: number }) {
  const { properties } = useSession();
  const timezone = data.results_timezone ?? properties['report-timezone'] ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const pivot = useMemo(() => pivotTable(data.cols, data.rows), [data]);
  const format = useMemo(() => {
    const grid = describeGrid({ display: 'table', settings, cols: data.cols, rows: data.rows }, { timezone, width: 0, startOfWeek: properties['start-of-week'] ?? undefined, formatting: properties['custom-formatting'] ?? undefined });
    const byIndex = new Map(grid.columns.map((c) => [c.index, c.format]));
    return (index: number, value: unknown) => (byIndex.get(index) ?? String)(value ?? '');
  }, [data, settings, timezone, properties]);
  if (!pivot) return <Alert color="yellow">A pivot table needs a summarized question with at least one grouping.</Alert>;
  const title = (i: number) => data.cols[i].display_name;
  const metricCells = (values: unknown[] | undefined, strong = false) =>
    pivot.metrics.map((m, j) => (
      <Table.Td key={m} className="tabular" ta="right" fw={strong ? 700 : undefined}>
        {values ? format(m, values[j]) : ''}
      </Table.Td>
    ));
  const colKeys = pivot.colDim === null ? [] : pivot.colKeys;
  const span = pivot.metrics.length;
  return (
    <Box style={{ overflow: 'auto', maxHeight: height }}>
      <Table withTableBorder withColumnBorders stickyHeader data-testid="pivot-table">
        <Table.Thead>
          <Table.Tr>
            {pivot.rowDims.map((i) => (
              <Table.Th key={i}>{title(i)}</Table.Th>
            ))}
            {colKeys.map((ck, k) => (
              <Table.Th key={k} colSpan={span} ta="center">
                {format(pivot.colDim!, ck)}
              </Table.Th>
            ))}
            <Table.Th colSpan={span} ta="center">{pivot.colDim === null ? pivot.metrics.map(title).join(', ') : `Row totals`}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {pivot.rowKeys.map((rk, r) => (
            <Table.Tr key={r}>
              {pivot.rowDims.map((i, j) => (
                <Table.Td key={i}>{format(i, rk[j])}</Table.Td>
              ))}
              {colKeys.map((ck, k) => <Fragment key={k}>{metricCells(pivot.cell(rk, ck))}</Fragment>)}
              {metricCells(pivot.cell(rk, undefined), pivot.colDim !== null)}
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Td colSpan={pivot.rowDims.length} fw={700}>Grand totals</Table.Td>
            {colKeys.map((ck, k) => <Fragment key={k}>{metricCells(pivot.total(ck), true)}</Fragment>)}
            {metricCells(pivot.total(undefined), true)}
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Box>
  );
}
