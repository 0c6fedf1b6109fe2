// /auth/forgot_password: asks for the email address; the server mails a reset link (/auth/reset_password/:token)
// if an account has it, and says nothing either way, so the page doesn't either.

import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { forgotPassword } from '../api/session';
import { AuthCard } from '../components/AuthCard';
import { useAction } from '../lib/useAction';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction(async () => {
    await forgotPassword(email.trim());
    setSent(true);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
  return (
    <AuthCard title="Forgot your password?">
      {sent ? (
        <Stack>
          <Alert color="green" role="status">
            If an account uses {email.trim()}, a link to reset its password is on its way.
          </Alert>
          <Anchor component={Link} href="/auth/login">
            Back to sign in
          </Anchor>
        </Stack>
      ) : (
        <Stack component="form" onSubmit={submit}>
          <TextInput label="Email address" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={busy}>
            Send password reset email
          </Button>
          <Anchor component={Link} href="/auth/login" size="sm">
            Back to sign in
          </Anchor>
        </Stack>
      )}
    </AuthCard>
  );
}
