// /collection/root, /collection/:id-slug: a collection's items (GET /api/collection/:id/items).

import { Container, Text, Title } from '@mantine/core';
import { api } from '../api/client';
import type { Collection } from '../api/types';
import { useApi } from '../lib/useApi';
import { idOfSlug } from '../lib/urls';
import type { ItemRef } from '../lib/items';
import { Loaded } from '../components/Loaded';
import { ItemTable } from '../components/ItemTable';

export default function CollectionPage({ params }: { params: { slug: string } }) {
  const id = params.slug === 'root' ? 'root' : idOfSlug(params.slug);
  const collection = useApi((signal) => api.get<Collection>(`/api/collection/${id}`, { signal }), [id]);
  const items = useApi((signal) => api.get<{ data: ItemRef[] }>(`/api/collection/${id}/items`, { signal }), [id]);
  return (
    <Container size="lg">
      <Loaded state={collection}>
        {(c) => (
          <Title order={2} mb="md">
            {c.name}
          </Title>
        )}
      </Loaded>
      <Loaded state={items}>{({ data }) => (data.length === 0 ? <Text c="dimmed">Nothing here yet.</Text> : <ItemTable items={data} testId="collection-items" />)}</Loaded>
    </Container>
  );
}
