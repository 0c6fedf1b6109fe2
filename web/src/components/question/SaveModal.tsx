// Save a new question (POST /api/card) into a collection picked from GET /api/collection/tree; then open it.

import { Alert, Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../api/client';
import type { Card } from '../../api/types';
import { useApi } from '../../lib/useApi';
import { questionUrl } from '../../lib/urls';
import type { QuestionCard } from './card';

interface TreeNode {
  id: number;
  name: string;
  archived?: boolean;
  children?: TreeNode[];
}

const ROOT = 'root';

function flatten(nodes: TreeNode[], depth = 0): Array<{ value: string; label: string }> {
  return nodes.filter((n) => !n.archived && typeof n.id === 'number').flatMap((n) => [{ value: String(n.id), label: `${'  '.repeat(depth)}${n.name}` }, ...flatten(n.children ?? [], depth + 1)]);
}

export function SaveModal({ card, opened, onClose }: { card: QuestionCard; opened: boolean; onClose: () => void }) {
  const [, navigate] = useLocation();
  const tree = useApi((signal) => api.get<TreeNode[]>('/api/collection/tree', { signal, query: { 'exclude-archived': true } }), []);
  const [name, setName] = useState(card.name ?? '');
  const [description, setDescription] = useState('');
  const [collection, setCollection] = useState<string>(ROOT);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const options = [{ value: ROOT, label: 'Our analytics' }, ...flatten(tree.data ?? [])];

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const saved = await api.post<Card>('/api/card', {
        name: name.trim(),
        description: description.trim() || null,
        type: 'question',
        display: card.display,
        visualization_settings: card.visualization_settings,
        dataset_query: card.dataset_query,
        collection_id: collection === ROOT ? null : Number(collection),
      });
      onClose();
      navigate(questionUrl(saved.id, saved.name));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Save new question">
      <Stack>
        {error && <Alert color="red" role="alert">{error}</Alert>}
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
        <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
        <Select label="Which collection should this go in?" data={options} value={collection} onChange={(v) => setCollection(v ?? ROOT)} searchable allowDeselect={false} comboboxProps={{ withinPortal: true }} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button onClick={save} loading={saving} disabled={!name.trim()}>Save</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
