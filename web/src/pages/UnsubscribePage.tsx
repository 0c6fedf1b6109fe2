// /unsubscribe?hash=…&email=…&pulse-id=… — the link in a subscription email sent to an address without an
// account: stops the emails to it (POST /api/pulse/unsubscribe), with a way to undo.

import { Alert, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSearch } from 'wouter';
import { unsubscribe } from '../api/session';
import { AuthCard } from '../components/AuthCard';
import { useAction } from '../lib/useAction';

export default function UnsubscribePage() {
  const params = new URLSearchParams(useSearch());
  const input = { email: params.get('email') ?? '', hash: params.get('hash') ?? '', 'pulse-id': Number(params.get('pulse-id')) };
  const [state, setState] = useState<'ask' | 'done' | 'undone'>('ask');
  const [title, setTitle] = useState<string | null>(null);
  const { busy, error, run: act } = useAction(async (undo: boolean) => {
    const answer = await unsubscribe(input, undo);
    setTitle(answer.title ?? null);
    setState(undo ? 'undone' : 'done');
  });
  return (
    <AuthCard title="Email subscription">
      <Stack>
        {state === 'ask' && <Text>Stop sending this subscription to {input.email}?</Text>}
        {state === 'done' && (
          <Alert color="green" role="status">
            {input.email} won't receive {title ? `“${title}”` : 'this subscription'} any more.
          </Alert>
        )}
        {state === 'undone' && (
          <Alert color="green" role="status">
            {input.email} is subscribed to {title ? `“${title}”` : 'it'} again.
          </Alert>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {state === 'ask' && (
          <Button onClick={() => void act(false)} loading={busy}>
            Unsubscribe
          </Button>
        )}
        {state === 'done' && (
          <Button variant="light" onClick={() => void act(true)} loading={busy}>
            Undo
          </Button>
        )}
      </Stack>
    </AuthCard>
  );
}
