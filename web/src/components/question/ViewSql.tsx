// "View the SQL": the native query the server runs for this question (POST /api/dataset/native).

import { Alert, Button, Code, Modal } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../api/client';
import type { ParameterValue } from '../../lib/runQuery';
import type { QuestionCard } from './card';

export function ViewSql({ card, parameters }: { card: QuestionCard; parameters: ParameterValue[] }) {
  const [open, setOpen] = useState(false);
  const [sql, setSql] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const show = () => {
    setOpen(true);
    setSql(null);
    setError(null);
    const body = parameters.length ? { ...card.dataset_query, parameters } : card.dataset_query;
    api.post<{ query: string }>('/api/dataset/native', body).then((r) => setSql(r.query), (e: Error) => setError(e.message));
  };
  return (
    <>
      <Button variant="default" size="xs" onClick={show}>
        View the SQL
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="The SQL this question runs" size="xl">
        {error && <Alert color="red">{error}</Alert>}
        {sql === null && !error ? 'Loading…' : sql !== null && <Code block data-testid="native-sql">{sql}</Code>}
      </Modal>
    </>
  );
}
