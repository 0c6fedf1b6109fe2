// A box to ask a question in plain words, shown only when the server has the assistant: the answer is a new
// (unsaved) question, opened on the question page.

import { Alert, Button, Group, Paper, Select, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { askAssistant, hasAssistant } from '../api/optional';
import type { Database } from '../api/types';
import { useApi } from '../lib/useApi';
import { newQuestionUrl } from '../lib/urls';

export function AskBox({ databases }: { databases: Database[] }) {
  const [databaseId, setDatabaseId] = useState<string | null>(String((databases.find((d) => d.is_sample) ?? databases[0]).id));
  const available = useApi((signal) => hasAssistant(Number(databaseId), signal), [databaseId]);
  const [question, setQuestion] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [, navigate] = useLocation();
  if (!available.data) return null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!question.trim() || !databaseId) return;
    setBusy(true);
    setError(null);
    try {
      const card = await askAssistant(Number(databaseId), question.trim());
      navigate(newQuestionUrl({ display: 'table', visualization_settings: {}, ...card }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="md" mb="lg" component="form" onSubmit={submit} data-testid="ask-box">
      <Title order={4} mb="sm">
        Ask a question
      </Title>
      <Group align="flex-end" wrap="nowrap">
        <TextInput aria-label="Your question" placeholder="How many orders were placed last month?" value={question} onChange={(e) => setQuestion(e.currentTarget.value)} style={{ flex: 1 }} />
        {databases.length > 1 && <Select aria-label="Database" data={databases.map((d) => ({ value: String(d.id), label: d.name }))} value={databaseId} onChange={setDatabaseId} w={200} />}
        <Button type="submit" loading={busy} disabled={!question.trim()}>
          Ask
        </Button>
      </Group>
      {error && (
        <Alert color="red" role="alert" mt="sm">
          {error}
        </Alert>
      )}
    </Paper>
  );
}
