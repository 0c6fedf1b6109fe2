// The "…" menu of an item in a collection: pin or unpin, move, move to the trash. Changes go through api/items.ts;
// `onChanged` reloads the list.

import { ActionIcon, Menu } from '@mantine/core';
import { useState } from 'react';
import { canChange, moveItem, setArchived, setPinned } from '../api/items';
import type { ItemRef } from '../lib/items';
import { CollectionPicker } from './CollectionPicker';

export function ItemActions({ item, onChanged, onError }: { item: ItemRef; onChanged: () => void; onError: (message: string) => void }) {
  const [moving, setMoving] = useState(false);
  if (!canChange(item) || item.can_write === false) return null;
  const run = (change: () => Promise<unknown>) => () =>
    void change().then(onChanged, (e: unknown) => onError(e instanceof Error ? e.message : String(e)));
  const pinned = item.collection_position !== null && item.collection_position !== undefined;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${item.name}`}>
            ⋯
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {item.model !== 'collection' && <Menu.Item onClick={run(() => setPinned(item, !pinned))}>{pinned ? 'Unpin' : 'Pin this item'}</Menu.Item>}
          <Menu.Item onClick={() => setMoving(true)}>Move</Menu.Item>
          <Menu.Item color="red" onClick={run(() => setArchived(item, true))}>
            Move to trash
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {moving && (
        <CollectionPicker
          title={`Move “${item.name}”`}
          exclude={item.model === 'collection' ? item.id : undefined}
          onPick={async (id) => {
            await moveItem(item, id);
            onChanged();
          }}
          onClose={() => setMoving(false)}
        />
      )}
    </>
  );
}
