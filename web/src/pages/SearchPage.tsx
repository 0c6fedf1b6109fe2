// /search?q=…: GET /api/search, results grouped by type.

import { Container, Stack, Text, Title } from '@mantine/core';
import { useSearch } from 'wouter';
import { api } from '../api/client';
import { useApi } from '../lib/useApi';
import { modelLabel, type ItemRef } from '../lib/items';
import { Loaded } from '../components/Loaded';
import { ItemTable } from '../components/ItemTable';

type Result = ItemRef & { collection?: { name?: string | null } | null };

export default function SearchPage() {
  const q = new URLSearchParams(useSearch()).get('q') ?? '';
  const results = useApi((signal) => api.get<{ data: Result[]; total: number }>('/api/search', { signal, query: { q } }), [q]);
  return (
    <Container size="lg">
      <Title order={2} mb="md">
        Results for “{q}”
      </Title>
      <Loaded state={results}>
        {({ data }) => {
          if (data.length === 0) return <Text c="dimmed">Didn't find anything.</Text>;
          const groups = new Map<string, Result[]>();
          for (const item of data) groups.set(item.model, [...(groups.get(item.model) ?? []), item]);
          return (
            <Stack gap="lg">
              {[...groups].map(([model, items]) => (
                <section key={model} data-testid={`search-group-${model}`}>
                  <Title order={4} mb="xs">
                    {modelLabel(model)}s ({items.length})
                  </Title>
                  <ItemTable items={items} extraTitle="Collection" extra={(item) => <Text size="sm" c="dimmed">{item.collection?.name ?? ''}</Text>} />
                </section>
              ))}
            </Stack>
          );
        }}
      </Loaded>
    </Container>
  );
}
