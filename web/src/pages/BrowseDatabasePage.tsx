// /browse/databases/:id-slug: the tables of one database (GET /api/database/:id?include=tables); a table opens
// as a new question on it (/question#<base64>, the question page reads it).

import { Anchor, Breadcrumbs, Card, Container, SimpleGrid, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { api } from '../api/client';
import type { Database } from '../api/types';
import { useApi } from '../lib/useApi';
import { idOfSlug, tableQuestionUrl } from '../lib/urls';
import { Loaded } from '../components/Loaded';

export default function BrowseDatabasePage({ params }: { params: { slug: string } }) {
  const id = idOfSlug(params.slug);
  const database = useApi((signal) => api.get<Database>(`/api/database/${id}`, { signal, query: { include: 'tables' } }), [id]);
  return (
    <Container size="lg">
      <Loaded state={database}>
        {(db) => {
          const tables = (db.tables ?? []).filter((t) => !t.visibility_type).sort((a, b) => a.display_name.localeCompare(b.display_name));
          return (
            <>
              <Breadcrumbs mb="sm">
                <Anchor component={Link} href="/browse/databases">
                  Databases
                </Anchor>
                <Text>{db.name}</Text>
              </Breadcrumbs>
              <Title order={2} mb="md">
                {db.name}
              </Title>
              {tables.length === 0 ? (
                <Text c="dimmed">This database has no tables yet (its sync may still be running).</Text>
              ) : (
                <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
                  {tables.map((table) => (
                    <Card key={table.id} withBorder component={Link} href={tableQuestionUrl(db.id, table.id)} data-testid="table-card">
                      <Text fw={600}>{table.display_name}</Text>
                      {table.schema && (
                        <Text size="xs" c="dimmed">
                          {table.schema}
                        </Text>
                      )}
                      {table.description && (
                        <Text size="sm" c="dimmed" lineClamp={2}>
                          {table.description}
                        </Text>
                      )}
                    </Card>
                  ))}
                </SimpleGrid>
              )}
            </>
          );
        }}
      </Loaded>
    </Container>
  );
}
