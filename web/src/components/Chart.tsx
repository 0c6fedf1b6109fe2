// A query result drawn as its card says: (data.cols, data.rows, display, visualization_settings) → the chart
// description of src/visualization (the module the server's PNG rendering uses) → ECharts, a table, a number.
// Load it with LazyChart (./LazyChart.tsx) so ECharts is downloaded only by pages that draw charts.

import { Box, Center, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useMemo, useRef } from 'react';
import { describeVisualization } from '@quarry-src/visualization/index.js';
import type { ChartVisualization, SeriesCardInput, Visualization } from '@quarry-src/visualization/index.js';
import type { ResultData, VisualizationSettings } from '../api/types';
import { useSession } from '../lib/session';
import { echarts } from './echarts';

export interface ChartProps {
  data: ResultData;
  display: string;
  settings?: VisualizationSettings | null;
  /** The card's name (titles its series when other cards are overlaid). */
  name?: string;
  /** Height in CSS px; the width is the container's. */
  height?: number;
  /** Other cards overlaid on this one (a dashcard's `series`), each with its own result. */
  series?: SeriesCardInput[];
}

/** Data points the chart plots, for the `data-points` attribute (tests and assistive tools read it). */
function pointCount(viz: ChartVisualization): number {
  const series = viz.option.series;
  const list = Array.isArray(series) ? series : series ? [series] : [];
  return list.reduce((sum, s) => sum + (Array.isArray((s as { data?: unknown }).data) ? ((s as { data: unknown[] }).data.length) : 0), 0);
}

function EChart({ viz, height }: { viz: ChartVisualization; height: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current, null, { renderer: 'svg', width: viz.width, height });
    chart.setOption({ tooltip: { trigger: viz.display === 'pie' || viz.display === 'funnel' ? 'item' : 'axis', confine: true }, ...viz.option, animation: false }, true);
    // Tests and assistive tools read what was drawn (series data) from the element.
    Object.assign(ref.current, { echartsOption: () => chart.getOption() });
    return () => chart.dispose();
  }, [viz, height]);
  return <div ref={ref} data-testid="chart" data-display={viz.display} data-points={pointCount(viz)} style={{ width: viz.width, height }} />;
}

function Described({ viz, height }: { viz: Visualization; height: number }) {
  switch (viz.kind) {
    case 'chart':
      return <EChart viz={viz} height={height} />;
    case 'scalar':
      return (
        <Center h={height}>
          <Tooltip label={viz.fullValue}>
            <Text fz={40} fw={700} data-testid="scalar-value" className="tabular">
              {viz.value}
            </Text>
          </Tooltip>
        </Center>
      );
    case 'smartscalar':
      return (
        <Center h={height}>
          <Stack gap={4} align="center">
            <Text fz={40} fw={700} data-testid="scalar-value" className="tabular">
              {viz.value}
            </Text>
            {viz.period && <Text c="dimmed">{viz.period}</Text>}
            {viz.comparisons.map((c) => (
              <Group key={c.label} gap={6}>
                <Text c={c.color} fw={600}>
                  {c.direction === 'up' ? '↑' : c.direction === 'down' ? '↓' : ''} {c.change}
                </Text>
                <Text c="dimmed">
                  {c.label}: {c.previous}
                </Text>
              </Group>
            ))}
          </Stack>
        </Center>
      );
    case 'table':
      return (
        <Box style={{ overflow: 'auto', maxHeight: height }}>
          <Table striped highlightOnHover stickyHeader data-testid="result-table">
            <Table.Thead>
              <Table.Tr>
                {viz.columns.map((c, i) => (
                  <Table.Th key={i} style={{ textAlign: c.align }}>
                    {c.title}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {viz.rows.map((row, r) => (
                <Table.Tr key={r}>
                  {row.map((cell, i) => (
                    <Table.Td key={i} className="tabular" style={{ textAlign: viz.columns[i]?.align, background: cell.background }}>
                      {cell.text}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {viz.totalRows > viz.rows.length && (
            <Text size="sm" c="dimmed" mt="xs">
              Showing first {viz.rows.length} of {viz.totalRows} rows.
            </Text>
          )}
        </Box>
      );
    default:
      return (
        <Center h={height}>
          <Text c="dimmed">{viz.message}</Text>
        </Center>
      );
  }
}

export default function Chart({ data, display, settings, name, height = 360, series }: ChartProps) {
  const { ref, width } = useElementSize();
  const { properties } = useSession();
  const timezone = data.results_timezone ?? properties['report-timezone'] ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const viz = useMemo(
    () =>
      width > 0
        ? describeVisualization(
            { display, settings: settings ?? {}, cols: data.cols, rows: data.rows, name, series },
            {
              timezone,
              width: Math.floor(width),
              tableRowLimit: 100,
              startOfWeek: properties['start-of-week'] ?? undefined,
              formatting: properties['custom-formatting'] ?? undefined,
            },
          )
        : null,
    [data, display, settings, name, series, width, timezone, properties],
  );
  return (
    <div ref={ref} style={{ width: '100%', minHeight: height }}>
      {viz && <Described viz={viz} height={height} />}
    </div>
  );
}
