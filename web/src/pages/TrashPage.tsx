// /trash: archived items (GET /api/collection/trash, then its items).

import { Container, Text, Title } from '@mantine/core';
import { api } from '../api/client';
import { useApi } from '../lib/useApi';
import type { ItemRef } from '../lib/items';
import { Loaded } from '../components/Loaded';
import { ItemTable } from '../components/ItemTable';

export default function TrashPage() {
  const items = useApi(async (signal) => {
    const trash = await api.get<{ id: number }>('/api/collection/trash', { signal });
    return api.get<{ data: ItemRef[] }>(`/api/collection/${trash.id}/items`, { signal, query: { archived: true } });
  }, []);
  return (
    <Container size="lg">
      <Title order={2} mb="md">
        Trash
      </Title>
      <Loaded state={items}>{({ data }) => (data.length === 0 ? <Text c="dimmed">Nothing in the trash.</Text> : <ItemTable items={data} testId="trash-items" />)}</Loaded>
    </Container>
  );
}
