// A collection's pinned items as cards; a pinned question shows its result (POST /api/card/:id/query), as in
// Metabase, unless it was pinned without a preview (`collection_preview: false`).

import { Anchor, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { api } from '../api/client';
import type { QueryResult, VisualizationSettings } from '../api/types';
import { itemUrl, modelLabel, type ItemRef } from '../lib/items';
import { useApi } from '../lib/useApi';
import { LazyChart } from './LazyChart';
import { Loaded } from './Loaded';
import { QueryFailure } from './QueryFailure';

export type PinnedItem = ItemRef & { collection_preview?: boolean; visualization_settings?: VisualizationSettings };

function Preview({ item }: { item: PinnedItem }) {
  const result = useApi((signal) => api.post<QueryResult>(`/api/card/${item.id}/query`, {}, { signal }), [item.id]);
  return (
    <Loaded state={result}>
      {(r) => (r.status === 'failed' ? <QueryFailure result={r} /> : <LazyChart data={r.data} display={item.display ?? 'table'} settings={item.visualization_settings} name={item.name} height={180} />)}
    </Loaded>
  );
}

export function PinnedItems({ items, actions }: { items: PinnedItem[]; actions: (item: PinnedItem) => ReactNode }) {
  if (items.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} mb="xl" data-testid="pinned-items">
      {items.map((item) => {
        const href = itemUrl(item);
        const question = item.model === 'card' || item.model === 'metric';
        return (
          <Paper key={`${item.model}-${item.id}`} withBorder p="sm" data-testid="pinned-item">
            <Group justify="space-between" wrap="nowrap" mb="xs">
              {href ? (
                <Anchor component={Link} href={href} fw={600} truncate>
                  {item.name}
                </Anchor>
              ) : (
                <Text fw={600}>{item.name}</Text>
              )}
              {actions(item)}
            </Group>
            {question && item.collection_preview !== false ? <Preview item={item} /> : <Text size="sm" c="dimmed">{item.description ?? modelLabel(item.model)}</Text>}
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
