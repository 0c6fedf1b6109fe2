// /browse/databases: every database the person can see (GET /api/database).

import { Card, Container, SimpleGrid, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { api } from '../api/client';
import type { Database } from '../api/types';
import { useApi } from '../lib/useApi';
import { databaseUrl } from '../lib/urls';
import { Loaded } from '../components/Loaded';

export default function BrowseDatabasesPage() {
  const databases = useApi((signal) => api.get<{ data: Database[] }>('/api/database', { signal }), []);
  return (
    <Container size="lg">
      <Title order={2} mb="md">
        Databases
      </Title>
      <Loaded state={databases}>
        {({ data }) =>
          data.length === 0 ? (
            <Text c="dimmed">No databases yet.</Text>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
              {data.map((db) => (
                <Card key={db.id} withBorder component={Link} href={databaseUrl(db.id, db.name)} data-testid="database-card">
                  <Text fw={600}>{db.name}</Text>
                  <Text size="sm" c="dimmed">
                    {db.engine}
                  </Text>
                </Card>
              ))}
            </SimpleGrid>
          )
        }
      </Loaded>
    </Container>
  );
}
