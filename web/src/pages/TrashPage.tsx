// /trash: what was moved to the trash (the trash collection's items), each with restore and, where the server
// allows it, delete for good.

import { Alert, Button, Container, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { deleteForGood, setArchived } from '../api/items';
import { useApi } from '../lib/useApi';
import type { ItemRef } from '../lib/items';
import { Loaded } from '../components/Loaded';
import { ItemTable } from '../components/ItemTable';

export default function TrashPage() {
  const items = useApi(async (signal) => {
    const trash = await api.get<{ id: number }>('/api/collection/trash', { signal });
    return api.get<{ data: ItemRef[] }>(`/api/collection/${trash.id}/items`, { signal });
  }, []);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ItemRef | null>(null);
  const run = (change: () => Promise<unknown>) => () =>
    void change().then(items.reload, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  return (
    <Container size="lg">
      <Title order={2} mb="md">
        Trash
      </Title>
      {error && (
        <Alert color="red" role="alert" mb="md" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Loaded state={items}>
        {({ data }) =>
          data.length === 0 ? (
            <Text c="dimmed">Nothing in the trash.</Text>
          ) : (
            <ItemTable
              items={data}
              testId="trash-items"
              actions={(item) => (
                <Group gap={4} wrap="nowrap">
                  {item.can_restore !== false && (
                    <Button size="compact-sm" variant="light" onClick={run(() => setArchived(item, false))} aria-label={`Restore ${item.name}`}>
                      Restore
                    </Button>
                  )}
                  {item.can_delete && (
                    <Button size="compact-sm" variant="subtle" color="red" onClick={() => setDeleting(item)} aria-label={`Delete ${item.name} permanently`}>
                      Delete permanently
                    </Button>
                  )}
                </Group>
              )}
            />
          )
        }
      </Loaded>
      {deleting && (
        <Modal opened onClose={() => setDeleting(null)} title={`Delete “${deleting.name}” permanently?`}>
          <Stack>
            <Text>This can't be undone.</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                Cancel
              </Button>
              <Button
                color="red"
                onClick={() => {
                  const item = deleting;
                  setDeleting(null);
                  run(() => deleteForGood(item))();
                }}
              >
                Delete permanently
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Container>
  );
}
