// An unsaved SQL question lives in its URL (`/question#<base64>`, as Metabase keeps it): the hash follows the edits,
// so a reload, the back button or a copied link brings the same SQL, database and variables back.

import { useEffect, useSyncExternalStore } from 'react';
import { newQuestionUrl } from '../../lib/urls';
import type { NativeCard } from './types';

const PAUSE_MS = 300;

/** The hash this page last wrote (the URL following the edits, not a navigation). */
let written = '';
/** Bumped when the hash changes other than by the edits (New → SQL query again, back and forward). */
let generation = 0;
const listeners = new Set<() => void>();
window.addEventListener('hashchange', () => {
  if (window.location.hash === written) return;
  generation += 1;
  for (const listener of listeners) listener();
});
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * A key for the editor of `card`: the saved card's id, or for a new one a number that changes when the URL's hash is
 * set by something other than the edits, so the editor starts over with that question. (Its own subscription: the
 * edits rewrite the hash without an event, so a page watching the hash alone may see "no change" when New → SQL
 * query sets the hash it started with.)
 */
export function useQuestionKey(card: NativeCard): string {
  const current = useSyncExternalStore(subscribe, () => generation);
  return card.id !== undefined ? String(card.id) : `new-${current}`;
}

export function useNewQuestionHash(card: NativeCard): void {
  useEffect(() => {
    if (card.id !== undefined) return;
    const timer = setTimeout(() => {
      const url = newQuestionUrl({ dataset_query: card.dataset_query, display: card.display, visualization_settings: card.visualization_settings });
      if (window.location.pathname === '/question' && window.location.pathname + window.location.hash !== url) {
        written = url.slice(url.indexOf('#'));
        window.history.replaceState(window.history.state, '', url);
      }
    }, PAUSE_MS);
    return () => clearTimeout(timer);
  }, [card]);
}
