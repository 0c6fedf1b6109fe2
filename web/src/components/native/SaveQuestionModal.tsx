// Saving the SQL question: its name and the collection it goes into (a new one), or just its name (one already saved,
// which stays where it is).

import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useApi } from '../../lib/useApi';
import { nativeApi } from './api';

export interface SaveChoice {
  name: string;
  collection_id: number | null;
}

export function SaveQuestionModal({ opened, initial, isNew, onClose, onSave }: { opened: boolean; initial: SaveChoice; isNew: boolean; onClose(): void; onSave(choice: SaveChoice): Promise<void> }) {
  const [name, setName] = useState(initial.name);
  const [collection, setCollection] = useState(initial.collection_id === null ? 'root' : String(initial.collection_id));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const collections = useApi((signal) => (opened && isNew ? nativeApi.collections(signal) : Promise.resolve([])), [opened, isNew]);
  useEffect(() => {
    if (opened) {
      setName(initial.name);
      setError(null);
    }
  }, [opened, initial.name]);

  const options = (collections.data ?? []).filter((c) => !c.archived && c.can_write !== false).map((c) => ({ value: String(c.id), label: c.id === 'root' ? 'Our analytics' : c.name }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError('A name is required.');
    setSaving(true);
    try {
      await onSave({ name: name.trim(), collection_id: collection === 'root' ? null : Number(collection) });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={isNew ? 'Save new question' : 'Save changes'}>
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} data-autofocus />
          {isNew && <Select label="Collection" data={options.length ? options : [{ value: 'root', label: 'Our analytics' }]} value={collection} onChange={(v) => v && setCollection(v)} allowDeselect={false} searchable />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
