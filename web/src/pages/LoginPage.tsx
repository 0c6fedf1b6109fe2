// /auth/login: email and password. A wrong password and the login throttle read as the server words them; after
// sign-in the person goes back to the page that sent them here (?redirect=).

import { Alert, Button, Checkbox, Container, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { ApiError } from '../api/client';
import { login } from '../api/session';
import { useSession } from '../lib/session';
import { safeRedirect } from '../lib/urls';
import { Logo } from '../components/Logo';

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
    <Container size={420} py={80}>
      <Stack align="center" mb="lg">
        <Logo size={48} />
        <Title order={2}>Sign in to {properties['site-name'] ?? 'Quarry'}</Title>
      </Stack>
      <Paper withBorder shadow="sm" p="xl" radius="md" component="form" onSubmit={submit}>
        <Stack>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <TextInput label="Email address" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={fieldErrors.username} />
          <PasswordInput label="Password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={fieldErrors.password} />
          <Checkbox label="Remember me" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
          <Button type="submit" loading={busy} fullWidth>
            Sign in
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}
