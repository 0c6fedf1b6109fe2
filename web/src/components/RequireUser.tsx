// Pages that need a signed-in person: before setup they go to /setup, without a session to
// /auth/login?redirect=<this page>, which comes back here after sign-in.

import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { useSession } from '../lib/session';

export function currentPath(): string {
  return window.location.pathname + window.location.search + window.location.hash;
}

export function RequireUser({ children }: { children: ReactNode }) {
  const { properties, user } = useSession();
  if (!properties['has-user-setup']) return <Redirect to="/setup" replace />;
  if (!user) return <Redirect to={`/auth/login?redirect=${encodeURIComponent(currentPath())}`} replace />;
  return <>{children}</>;
}
