// A modal to pick a collection (GET /api/collection: every collection the person can see), shown as paths
// ("Our analytics / Sales / EMEA"). `exclude` leaves out a collection and everything inside it (a collection can't
// move into itself).

import { Button, Group, Modal, Select, Stack } from '@mantine/core';
import { useMemo, useState } from 'react';
import { api } from '../api/client';
import type { Collection } from '../api/types';
import { useApi } from '../lib/useApi';
import { useAction } from '../lib/useAction';

const ROOT = 'root';

export function CollectionPicker({ title, exclude, onPick, onClose }: { title: string; exclude?: number; onPick: (id: number | null) => Promise<void>; onClose: () => void }) {
  const collections = useApi((signal) => api.get<Collection[]>('/api/collection', { signal, query: { 'exclude-archived': true } }), []);
  const [value, setValue] = useState<string | null>(null);
  const options = useMemo(() => {
    const list = (collections.data ?? []).filter((c) => typeof c.id === 'number' && !c.archived && c.type !== 'trash');
    const names = new Map(list.map((c) => [String(c.id), c.name]));
    const excluded = (c: Collection) => exclude !== undefined && (c.id === exclude || (c.location ?? '').split('/').includes(String(exclude)));
    const path = (c: Collection) =>
      ['Our analytics', ...(c.location ?? '/').split('/').filter(Boolean).map((id) => names.get(id) ?? '…'), c.name].join(' / ');
    return [{ value: ROOT, label: 'Our analytics' }, ...list.filter((c) => !excluded(c)).map((c) => ({ value: String(c.id), label: path(c) })).sort((a, b) => a.label.localeCompare(b.label))];
  }, [collections.data, exclude]);
  const { busy, error, run: submit } = useAction(async () => {
    if (!value) return;
    await onPick(value === ROOT ? null : Number(value));
    onClose();
  });
  return (
    <Modal opened onClose={onClose} title={title}>
      <Stack>
        <Select label="Collection" placeholder="Pick a collection" data={options} value={value} onChange={setValue} searchable error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} loading={busy} disabled={!value}>
            Move
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
