// Changing a collection's items, whatever their kind: pin, move, move to the trash and back, delete for good.
// Cards (questions, models, metrics) and dashboards are updated through their own endpoints; a collection moves by
// its `parent_id`.

import { api } from './client';
import type { ItemRef } from '../lib/items';

function pathOf(item: ItemRef): string {
  switch (item.model) {
    case 'card':
    case 'dataset':
    case 'metric':
      return `/api/card/${item.id}`;
    case 'dashboard':
      return `/api/dashboard/${item.id}`;
    case 'collection':
      return `/api/collection/${item.id}`;
    default:
      throw new Error(`A ${item.model} can't be changed here.`);
  }
}

export const canChange = (item: ItemRef) => ['card', 'dataset', 'metric', 'dashboard', 'collection'].includes(item.model);

export const setPinned = (item: ItemRef, pinned: boolean) => api.put(pathOf(item), { collection_position: pinned ? 1 : null });

export const moveItem = (item: ItemRef, collectionId: number | null) =>
  api.put(pathOf(item), item.model === 'collection' ? { parent_id: collectionId } : { collection_id: collectionId });

export const setArchived = (item: ItemRef, archived: boolean) => api.put(pathOf(item), { archived });

export const deleteForGood = (item: ItemRef) => api.delete(pathOf(item));

export const renameCollection = (id: number, name: string) => api.put(`/api/collection/${id}`, { name });

export const createCollection = (name: string, parentId: number | null) => api.post<{ id: number; name: string }>('/api/collection', { name, parent_id: parentId });
