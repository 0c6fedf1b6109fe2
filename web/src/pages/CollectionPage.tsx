// /collection/root, /collection/:id-slug: a collection — its path, its pinned items (questions with their result),
// then everything else; a new sub-collection, rename, move and move to the trash, and the same for each item.

import { Alert, Anchor, Breadcrumbs, Button, Container, Group, Menu, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../api/client';
import { createCollection, moveItem, renameCollection, setArchived } from '../api/items';
import type { Collection } from '../api/types';
import { useApi } from '../lib/useApi';
import { collectionUrl, idOfSlug } from '../lib/urls';
import { Loaded } from '../components/Loaded';
import { ItemTable } from '../components/ItemTable';
import { ItemActions } from '../components/ItemActions';
import { PinnedItems, type PinnedItem } from '../components/PinnedItems';
import { NameModal } from '../components/NameModal';
import { CollectionPicker } from '../components/CollectionPicker';

type Dialog = 'new' | 'rename' | 'move' | null;

function Header({ collection, onChanged, onError }: { collection: Collection; onChanged: () => void; onError: (message: string) => void }) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const [, navigate] = useLocation();
  const id = collection.id;
  const own = typeof id === 'number' && !collection.personal_owner_id && collection.can_write !== false;
  const ancestors = collection.effective_ancestors ?? [];
  return (
    <>
      {ancestors.length > 0 && (
        <Breadcrumbs mb="xs">
          {ancestors.map((a) => (
            <Anchor key={String(a.id)} component={Link} href={collectionUrl(a.id, a.name)}>
              {a.name}
            </Anchor>
          ))}
        </Breadcrumbs>
      )}
      <Group justify="space-between" mb="md">
        <Title order={2}>{collection.name}</Title>
        <Group gap="xs">
          {collection.can_write !== false && (
            <Button variant="light" onClick={() => setDialog('new')}>
              New collection
            </Button>
          )}
          {own && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="default" aria-label="Collection actions">
                  ⋯
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => setDialog('rename')}>Rename</Menu.Item>
                <Menu.Item onClick={() => setDialog('move')}>Move</Menu.Item>
                <Menu.Item
                  color="red"
                  onClick={() =>
                    void setArchived({ model: 'collection', id: id as number, name: collection.name }, true).then(
                      () => navigate(collectionUrl(ancestors.at(-1)?.id ?? 'root', ancestors.at(-1)?.name)),
                      (e: Error) => onError(e.message),
                    )
                  }
                >
                  Move to trash
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      {dialog === 'new' && (
        <NameModal
          title="New collection"
          action="Create"
          onSubmit={async (name) => {
            const created = await createCollection(name, typeof id === 'number' ? id : null);
            navigate(collectionUrl(created.id, created.name));
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'rename' && (
        <NameModal
          title="Rename collection"
          initial={collection.name}
          action="Save"
          onSubmit={async (name) => {
            await renameCollection(id as number, name);
            onChanged();
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'move' && (
        <CollectionPicker
          title={`Move “${collection.name}”`}
          exclude={id as number}
          onPick={async (parent) => {
            await moveItem({ model: 'collection', id: id as number, name: collection.name }, parent);
            onChanged();
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </>
  );
}

export default function CollectionPage({ params }: { params: { slug: string } }) {
  const id = params.slug === 'root' ? 'root' : idOfSlug(params.slug);
  const collection = useApi((signal) => api.get<Collection>(`/api/collection/${id}`, { signal }), [id]);
  const items = useApi((signal) => api.get<{ data: PinnedItem[] }>(`/api/collection/${id}/items`, { signal }), [id]);
  const [error, setError] = useState<string | null>(null);
  const reload = () => {
    setError(null);
    collection.reload();
    items.reload();
  };
  const actions = (item: PinnedItem) => <ItemActions item={item} onChanged={reload} onError={setError} />;
  return (
    <Container size="lg">
      <Loaded state={collection}>{(c) => <Header collection={c} onChanged={reload} onError={setError} />}</Loaded>
      {error && (
        <Alert color="red" role="alert" mb="md" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Loaded state={items}>
        {({ data }) => {
          const pinned = data.filter((i) => i.collection_position !== null && i.collection_position !== undefined);
          const rest = data.filter((i) => !pinned.includes(i));
          if (data.length === 0) return <Text c="dimmed">Nothing here yet.</Text>;
          return (
            <>
              <PinnedItems items={pinned} actions={actions} />
              {rest.length > 0 && <ItemTable items={rest} testId="collection-items" actions={actions} />}
            </>
          );
        }}
      </Loaded>
    </Container>
  );
}
