// /auth/reset_password/:token — the link of a password-reset email: a new password (twice); the server signs the
// person in on success, and the app goes home.

import { Alert, Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { resetPassword, resetTokenValid } from '../api/session';
import { useSession } from '../lib/session';
import { useApi } from '../lib/useApi';
import { useAction } from '../lib/useAction';
import { AuthCard } from '../components/AuthCard';
import { Loaded } from '../components/Loaded';

function NewPasswordForm({ token }: { token: string }) {
  const { refresh } = useSession();
  const [, navigate] = useLocation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const mismatch = confirm !== '' && confirm !== password;
  const { busy, error, run } = useAction(async () => {
    await resetPassword(token, password);
    await refresh();
    navigate('/', { replace: true });
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) void run();
  };
  return (
    <Stack component="form" onSubmit={submit}>
      <PasswordInput label="Create a password" required autoComplete="new-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
      <PasswordInput label="Confirm your password" required autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.currentTarget.value)} error={mismatch ? 'Passwords do not match' : undefined} />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Button type="submit" loading={busy}>
        Save new password
      </Button>
    </Stack>
  );
}

export default function ResetPasswordPage({ params }: { params: { token: string } }) {
  const valid = useApi((signal) => resetTokenValid(params.token, signal), [params.token]);
  return (
    <AuthCard title="New password">
      <Loaded state={valid}>
        {({ valid: ok }) =>
          ok ? (
            <NewPasswordForm token={params.token} />
          ) : (
            <Stack>
              <Alert color="red" role="alert">
                This reset link has expired or was already used.
              </Alert>
              <Anchor component={Link} href="/auth/forgot_password">
                Request a new one
              </Anchor>
            </Stack>
          )
        }
      </Loaded>
    </AuthCard>
  );
}
