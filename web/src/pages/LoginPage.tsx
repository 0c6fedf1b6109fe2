// /auth/login: email and password. A wrong password and the login throttle read as the server words them; after
// sign-in the person goes back to the page that sent them here (?redirect=).

import { Alert, Anchor, Button, Checkbox, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { ApiError } from '../api/client';
import { login } from '../api/session';
import { useSession } from '../lib/session';
import { safeRedirect } from '../lib/urls';
import { AuthCard } from '../components/AuthCard';

export default function LoginPage() {
  const { properties, user, refresh } = useSession();
  const [, navigate] = useLocation();
  const target = safeRedirect(new URLSearchParams(useSearch()).get('redirect'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  if (!properties['has-user-setup']) return <Redirect to="/setup" replace />;
  if (user) return <Redirect to={target} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      await login(email.trim(), password, remember);
      await refresh();
      navigate(target, { replace: true });
    } catch (e) {
      const fields = e instanceof ApiError ? e.fieldErrors : {};
      // The throttle answers on `username` (too many attempts for this account) or `password`; both are shown as
      // the server wrote them.
      if (fields.password || fields.username) setFieldErrors(fields);
      else setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={`Sign in to ${properties['site-name'] ?? 'Quarry'}`}>
      <Stack component="form" onSubmit={submit}>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <TextInput label="Email address" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={fieldErrors.username} />
        <PasswordInput label="Password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={fieldErrors.password} />
        <Group justify="space-between">
          <Checkbox label="Remember me" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
          <Anchor component={Link} href="/auth/forgot_password" size="sm">
            Forgot your password?
          </Anchor>
        </Group>
        <Button type="submit" loading={busy} fullWidth>
          Sign in
        </Button>
      </Stack>
    </AuthCard>
  );
}
