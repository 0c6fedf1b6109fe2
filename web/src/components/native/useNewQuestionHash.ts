// An unsaved SQL question lives in its URL (`/question#<base64>`, as Metabase keeps it): the hash follows the edits,
// so a reload, the back button or a copied link brings the same SQL, database and variables back.

import { useEffect } from 'react';
import { newQuestionUrl } from '../../lib/urls';
import type { NativeCard } from './types';

const PAUSE_MS = 300;

export function useNewQuestionHash(card: NativeCard): void {
  useEffect(() => {
    if (card.id !== undefined) return;
    const timer = setTimeout(() => {
      const url = newQuestionUrl({ dataset_query: card.dataset_query, display: card.display, visualization_settings: card.visualization_settings });
      if (window.location.pathname === '/question' && window.location.pathname + window.location.hash !== url) window.history.replaceState(window.history.state, '', url);
    }, PAUSE_MS);
    return () => clearTimeout(timer);
  }, [card]);
}
