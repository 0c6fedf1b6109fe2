// Metabase's 24-column dashboard grid: each item exactly where its row/col/size_x/size_y put it (0-based grid
// coordinates, sizes in grid units). Used by signed-in dashboards, X-rays, and public/embedded dashboards.

import { Box, Paper } from '@mantine/core';
import type { ReactNode } from 'react';
import type { GridItem } from './types';

/** Height of one grid row in px (Metabase's grid rows are about this tall on a desktop screen). */
export const ROW_HEIGHT = 56;
const GAP = 8;

/** Room left for a card's content in an item `sizeY` rows tall, below a title line of `header` px. */
export function contentHeight(sizeY: number, header = 64): number {
  return Math.max(sizeY * ROW_HEIGHT + (sizeY - 1) * GAP - header, 80);
}

export function DashboardGrid<T extends GridItem>({ items, framed, children }: { items: T[]; framed: (item: T) => boolean; children: (item: T) => ReactNode }) {
  return (
    <Box style={{ display: 'grid', gridTemplateColumns: 'repeat(24, minmax(0, 1fr))', gridAutoRows: ROW_HEIGHT, gap: GAP }} data-testid="dashboard-grid">
      {items.map((item) => (
        <Paper
          key={item.id}
          withBorder={framed(item)}
          p="xs"
          data-testid="dashcard"
          data-dashcard-id={item.id}
          style={{ gridColumn: `${item.col + 1} / span ${item.size_x}`, gridRow: `${item.row + 1} / span ${item.size_y}`, overflow: 'hidden', minWidth: 0 }}
        >
          {children(item)}
        </Paper>
      ))}
    </Box>
  );
}
