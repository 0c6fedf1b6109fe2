// /auth/logout: ends the session (DELETE /api/session) and goes to sign-in.

import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { logout } from '../api/session';
import { useSession } from '../lib/session';
import { CenteredLoader } from '../components/CenteredLoader';

export default function LogoutPage() {
  const { refresh } = useSession();
  const [, navigate] = useLocation();
  useEffect(() => {
    void logout()
      .catch(() => undefined)
      .then(refresh)
      .then(() => navigate('/auth/login', { replace: true }));
  }, [refresh, navigate]);
  return <CenteredLoader label="Signing out…" />;
}
