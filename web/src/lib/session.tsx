// Who is signed in and the instance's public settings, loaded once when the app starts and refreshed after
// setup, sign-in and sign-out. Pages read it with useSession().

import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { getCurrentUser, getSessionProperties } from '../api/session';
import type { CurrentUser, SessionProperties } from '../api/types';

export interface Session {
  properties: SessionProperties;
  user: CurrentUser | null;
  /** Reloads the properties and the signed-in person (after setup, sign-in, sign-out). */
  refresh(): Promise<void>;
  /** Forgets the signed-in person at once (a 401 told us the session is gone). */
  forgetUser(): void;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

type State = { status: 'loading' } | { status: 'error'; error: Error } | { status: 'ready'; properties: SessionProperties; user: CurrentUser | null };

// Both at once: a page waits for them before it can fetch its own data (getCurrentUser is null without a session).
async function load(): Promise<{ properties: SessionProperties; user: CurrentUser | null }> {
  const [properties, user] = await Promise.all([getSessionProperties(), getCurrentUser()]);
  return { properties, user: properties['has-user-setup'] ? user : null };
}

export function SessionProvider({ children, fallback, failed }: { children: ReactNode; fallback: ReactNode; failed: (error: Error) => ReactNode }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const refresh = useCallback(async () => {
    try {
      setState({ status: 'ready', ...(await load()) });
    } catch (error) {
      setState({ status: 'error', error: error instanceof Error ? error : new Error(String(error)) });
    }
  }, []);
  const forgetUser = useCallback(() => setState((s) => (s.status === 'ready' ? { ...s, user: null } : s)), []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  if (state.status === 'loading') return <>{fallback}</>;
  if (state.status === 'error') return <>{failed(state.error)}</>;
  return <SessionContext.Provider value={{ properties: state.properties, user: state.user, refresh, forgetUser }}>{children}</SessionContext.Provider>;
}
