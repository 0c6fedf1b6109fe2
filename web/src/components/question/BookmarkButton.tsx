// Bookmark a saved question (POST/DELETE /api/bookmark/card/:id); its state read from GET /api/bookmark.

import { Button } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api } from '../../api/client';

interface Bookmark {
  type: string;
  item_id: number;
}

export function BookmarkButton({ cardId }: { cardId: number }) {
  const [marked, setMarked] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    api.get<Bookmark[]>('/api/bookmark', { signal: controller.signal }).then(
      (list) => setMarked(list.some((b) => b.type === 'card' && b.item_id === cardId)),
      () => undefined,
    );
    return () => controller.abort();
  }, [cardId]);
  const toggle = async () => {
    setBusy(true);
    try {
      if (marked) await api.delete(`/api/bookmark/card/${cardId}`);
      else await api.post(`/api/bookmark/card/${cardId}`);
      setMarked(!marked);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant={marked ? 'light' : 'default'} size="xs" loading={busy} disabled={marked === null} onClick={toggle} aria-pressed={!!marked}>
      {marked ? '★ Bookmarked' : '☆ Bookmark'}
    </Button>
  );
}
