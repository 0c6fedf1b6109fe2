import { useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

/** The URL's hash, kept current (embedding code may change it after load). */
export function useHash(): string {
  return useSyncExternalStore(subscribe, () => window.location.hash);
}
