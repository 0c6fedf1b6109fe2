// "Try these x-rays": the candidates endpoint's suggestions for a database, each a link to its automatic
// dashboard (/auto/dashboard/table/:id). Nothing is shown when the server has no x-rays or suggests none.

import { Anchor, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { xrayCandidates } from '../api/optional';
import { useApi } from '../lib/useApi';

export function XraySuggestions({ databaseId, databaseName }: { databaseId: number; databaseName: string }) {
  const candidates = useApi((signal) => xrayCandidates(databaseId, signal), [databaseId]);
  const tables = (candidates.data ?? []).flatMap((schema) => schema.tables).slice(0, 6);
  if (candidates.error || tables.length === 0) return null;
  return (
    <Paper withBorder p="md" mt="lg" data-testid="xray-suggestions">
      <Title order={4} mb="sm">
        Try these x-rays based on {databaseName}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {tables.map((c) => (
          <div key={c.url}>
            <Anchor component={Link} href={c.url}>
              A look at {c.title}
            </Anchor>
            {c.description && (
              <Text size="xs" c="dimmed" lineClamp={2}>
                {c.description}
              </Text>
            )}
          </div>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
