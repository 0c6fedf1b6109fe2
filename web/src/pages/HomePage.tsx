// `/`: where to start — a box to ask in plain words (when the server has the assistant), recently viewed and
// popular items, the top-level collections, and suggested x-rays of the sample data (or the first database) when
// the server has x-rays.

import { Anchor, Container, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { api } from '../api/client';
import { useSession } from '../lib/session';
import { useApi } from '../lib/useApi';
import { itemUrl, modelLabel, type ItemRef } from '../lib/items';
import { collectionUrl } from '../lib/urls';
import { Loaded } from '../components/Loaded';
import type { Collection, Database } from '../api/types';
import { XraySuggestions } from '../components/XraySuggestions';
import { AskBox } from '../components/AskBox';

function ItemList({ items, empty, testId }: { items: ItemRef[]; empty: string; testId: string }) {
  if (items.length === 0) return <Text c="dimmed">{empty}</Text>;
  return (
    <Stack gap={6} data-testid={testId}>
      {items.map((item) => {
        const href = itemUrl(item);
        return (
          <div key={`${item.model}-${item.id}`}>
            {href ? (
              <Anchor component={Link} href={href}>
                {item.name}
              </Anchor>
            ) : (
              <Text span>{item.name}</Text>
            )}
            <Text span size="xs" c="dimmed" ml={8}>
              {modelLabel(item.model)}
            </Text>
          </div>
        );
      })}
    </Stack>
  );
}

export default function HomePage() {
  const { user } = useSession();
  const recent = useApi((signal) => api.get<{ recent_views: ItemRef[] }>('/api/activity/recent_views', { signal }), []);
  const popular = useApi((signal) => api.get<{ popular_items: ItemRef[] }>('/api/activity/popular_items', { signal }), []);
  const databases = useApi((signal) => api.get<{ data: Database[] }>('/api/database', { signal }), []);
  const xrayDb = databases.data?.data.find((d) => d.is_sample) ?? databases.data?.data[0];
  const collections = useApi((signal) => api.get<Collection[]>('/api/collection', { signal, query: { 'exclude-other-user-collections': true } }), []);
  return (
    <Container size="lg">
      <Title order={2} mb="lg">
        Hello, {user?.first_name ?? user?.common_name ?? 'there'}
      </Title>
      {databases.data && databases.data.data.length > 0 && <AskBox databases={databases.data.data} />}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder p="md">
          <Title order={4} mb="sm">
            Pick up where you left off
          </Title>
          <Loaded state={recent}>{(d) => <ItemList items={d.recent_views} empty="Nothing viewed yet." testId="recent-views" />}</Loaded>
        </Paper>
        <Paper withBorder p="md">
          <Title order={4} mb="sm">
            Popular
          </Title>
          <Loaded state={popular}>{(d) => <ItemList items={d.popular_items} empty="Nothing popular yet." testId="popular-items" />}</Loaded>
        </Paper>
      </SimpleGrid>
      <Paper withBorder p="md" mt="lg">
        <Title order={4} mb="sm">
          Collections
        </Title>
        <Loaded state={collections}>
          {(list) => (
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} data-testid="home-collections">
              {list
                .filter((c) => !c.archived && (c.location === '/' || c.id === 'root'))
                .map((c) => (
                  <Anchor key={String(c.id)} component={Link} href={collectionUrl(c.id, c.name)}>
                    {c.name}
                  </Anchor>
                ))}
            </SimpleGrid>
          )}
        </Loaded>
      </Paper>
      {xrayDb && <XraySuggestions databaseId={xrayDb.id} databaseName={xrayDb.name} />}
    </Container>
  );
}
