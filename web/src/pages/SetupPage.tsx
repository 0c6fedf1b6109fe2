// /setup: the first run. Step one creates the admin and names the site (POST /api/setup with the setup token from
// /api/session/properties); step two optionally connects a first database (POST /api/database) or skips it.

import { Alert, Button, Container, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Redirect, useLocation } from 'wouter';
import { setup } from '../api/session';
import { useSession } from '../lib/session';
import { useAction } from '../lib/useAction';
import { DatabaseForm } from '../components/DatabaseForm';
import { Logo } from '../components/Logo';

function AdminStep({ onDone }: { onDone: () => Promise<void> }) {
  const { properties } = useSession();
  const [form, setForm] = useState({ first_name: '', last_name: '', email: '', site_name: '', password: '', confirm: '' });
  const set = (key: keyof typeof form) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value; // read now: React clears currentTarget once the event is handled
    setForm((f) => ({ ...f, [key]: value }));
  };
  const mismatch = form.confirm !== '' && form.confirm !== form.password;

  const { busy, error, run } = useAction(async () => {
    await setup({
      token: properties['setup-token'] ?? '',
      user: { first_name: form.first_name.trim(), last_name: form.last_name.trim(), email: form.email.trim(), password: form.password },
      prefs: { site_name: form.site_name.trim() },
    });
    await onDone();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) void run();
  };

  return (
    <Paper withBorder shadow="sm" p="xl" component="form" onSubmit={submit}>
      <Stack>
        <Title order={3}>What should we call you?</Title>
        <SimpleGrid cols={2}>
          <TextInput label="First name" value={form.first_name} onChange={set('first_name')} />
          <TextInput label="Last name" value={form.last_name} onChange={set('last_name')} />
        </SimpleGrid>
        <TextInput label="Email" type="email" required autoComplete="username" value={form.email} onChange={set('email')} />
        <TextInput label="Company or team name" required value={form.site_name} onChange={set('site_name')} />
        <PasswordInput label="Create a password" required autoComplete="new-password" value={form.password} onChange={set('password')} />
        <PasswordInput label="Confirm your password" required autoComplete="new-password" value={form.confirm} onChange={set('confirm')} error={mismatch ? 'Passwords do not match' : undefined} />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={busy}>
          Next
        </Button>
      </Stack>
    </Paper>
  );
}

export default function SetupPage() {
  const { properties, refresh } = useSession();
  const [, navigate] = useLocation();
  const [step, setStep] = useState<'admin' | 'database'>('admin');
  if (step === 'admin' && properties['has-user-setup']) return <Redirect to="/" replace />;
  return (
    <Container size={560} py={60}>
      <Stack align="center" mb="lg">
        <Logo size={48} />
        <Title order={2}>Welcome to Quarry</Title>
      </Stack>
      {step === 'admin' ? (
        <AdminStep
          onDone={async () => {
            setStep('database');
            await refresh();
          }}
        />
      ) : (
        <Paper withBorder shadow="sm" p="xl">
          <Stack>
            <Title order={3}>Add your data</Title>
            <Text c="dimmed">Connect a database now, or later from the admin settings. The Sample Database is ready to explore either way.</Text>
            <DatabaseForm
              onAdded={() => navigate('/', { replace: true })}
              extraActions={
                <Button variant="subtle" onClick={() => navigate('/', { replace: true })}>
                  I'll add my data later
                </Button>
              }
            />
          </Stack>
        </Paper>
      )}
    </Container>
  );
}
