// Every row of a result in a scrolling grid: only the rows on screen are drawn and formatted (@tanstack/react-virtual),
// so 2,000 rows scroll as smoothly as 20. Values read as the table visualization formats them (src/visualization/grid);
// clicking a header sorts by that column (again: the other way; a third time: the result's own order).

import { Box, Text, UnstyledButton } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { describeGrid, sortedRowOrder } from '@quarry-src/visualization/grid.js';
import type { ResultData, VisualizationSettings } from '../../api/types';
import { useSession } from '../../lib/session';
import type { CSSProperties } from 'react';

const BORDER = '1px solid var(--mantine-color-gray-3)';
const styles: Record<string, CSSProperties> = {
  scroller: { overflow: 'auto', border: BORDER, borderRadius: 'var(--mantine-radius-sm)', position: 'relative' },
  header: { display: 'grid', position: 'sticky', top: 0, zIndex: 1, background: 'var(--mantine-color-gray-0)', borderBottom: BORDER, minWidth: 'fit-content' },
  headerCell: { padding: '6px 10px', fontWeight: 700, fontSize: 'var(--mantine-font-size-sm)', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
  row: { display: 'grid', position: 'absolute', top: 0, left: 0, minWidth: '100%', borderBottom: '1px solid var(--mantine-color-gray-2)' },
  cell: { padding: '6px 10px', fontSize: 'var(--mantine-font-size-sm)', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
};

const ROW_HEIGHT = 34;
const MIN_COLUMN = 120;

type Sort = { index: number; direction: 'asc' | 'desc' } | null;

export function ResultsGrid({ data, settings, height = 480 }: { data: ResultData; settings: VisualizationSettings; height?: number }) {
  const { properties } = useSession();
  const timezone = data.results_timezone ?? properties['report-timezone'] ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const grid = useMemo(
    () =>
      describeGrid(
        { display: 'table', settings, cols: data.cols, rows: data.rows },
        { timezone, width: 0, startOfWeek: properties['start-of-week'] ?? undefined, formatting: properties['custom-formatting'] ?? undefined },
      ),
    [data, settings, timezone, properties],
  );
  const [sort, setSort] = useState<Sort>(null);
  const order = useMemo(() => (sort ? sortedRowOrder(data.rows, sort.index, sort.direction) : null), [data.rows, sort]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: data.rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const template = grid.columns.map(() => `minmax(${MIN_COLUMN}px, 1fr)`).join(' ');

  const toggle = (index: number) =>
    setSort((s) => (s?.index !== index ? { index, direction: 'asc' } : s.direction === 'asc' ? { index, direction: 'desc' } : null));

  return (
    <Box>
      <div ref={scroller} style={{ ...styles.scroller, height }} role="table" aria-label="Results" aria-rowcount={data.rows.length + 1} data-testid="results-grid">
        <div style={{ ...styles.header, gridTemplateColumns: template }} role="row">
          {grid.columns.map((c) => {
            const sorted = sort?.index === c.index ? sort.direction : null;
            return (
              <UnstyledButton
                key={c.index}
                role="columnheader"
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
                style={{ ...styles.headerCell, textAlign: c.align }}
                onClick={() => toggle(c.index)}
                title={`Sort by ${c.title}`}
              >
                {c.title}
                {sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}
              </UnstyledButton>
            );
          })}
        </div>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = data.rows[order ? order[item.index] : item.index];
            return (
              <div
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                style={{ ...styles.row, gridTemplateColumns: template, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                {grid.columns.map((c) => {
                  const text = c.format(row[c.index]);
                  return (
                    <div key={c.index} role="cell" className="tabular" title={text} style={{ ...styles.cell, textAlign: c.align, background: grid.background(row, c.index) }}>
                      {text}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
      <Text size="sm" c="dimmed" mt={4} data-testid="row-count">
        {data.rows_truncated ? 'Showing first ' : 'Showing '}
        {data.rows.length === 1 ? '1 row' : `${data.rows.length.toLocaleString('en-US')} rows`}
      </Text>
    </Box>
  );
}
