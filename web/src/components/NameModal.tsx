// A modal asking for a name (a new collection, a rename).

import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useAction } from '../lib/useAction';

export function NameModal({ title, initial = '', action, onSubmit, onClose }: { title: string; initial?: string; action: string; onSubmit: (name: string) => Promise<void>; onClose: () => void }) {
  const [name, setName] = useState(initial);
  const { busy, error, run } = useAction(async () => {
    await onSubmit(name.trim());
    onClose();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
  return (
    <Modal opened onClose={onClose} title={title}>
      <Stack component="form" onSubmit={submit}>
        <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={busy} disabled={!name.trim()}>
            {action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
