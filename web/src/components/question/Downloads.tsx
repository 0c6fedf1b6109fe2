// Downloads of the question's result through the server's streamed export endpoints (a form post, as Metabase's app
// sends it): POST /api/card/:id/query/:format for a saved question, POST /api/dataset/:format for a new one. The file
// is the server's bytes as they came.

import { Button, Menu, Text } from '@mantine/core';
import { useState } from 'react';
import type { ParameterValue } from '../../lib/runQuery';
import type { QuestionCard } from './card';

const FORMATS = ['csv', 'xlsx', 'json'];

/** The export request of a question: where to post, and the form fields. */
export function exportRequest(card: QuestionCard, format: string, parameters: ParameterValue[]): { url: string; form: URLSearchParams } {
  const form = new URLSearchParams();
  form.set('format_rows', 'true');
  if (card.id !== undefined) {
    form.set('parameters', JSON.stringify(parameters));
    return { url: `/api/card/${card.id}/query/${format}`, form };
  }
  form.set('query', JSON.stringify(parameters.length ? { ...card.dataset_query, parameters } : card.dataset_query));
  form.set('visualization_settings', JSON.stringify(card.visualization_settings));
  return { url: `/api/dataset/${format}`, form };
}

function fileName(response: Response, format: string): string {
  const match = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '');
  return match ? match[1] : `query_result.${format}`;
}

async function download(card: QuestionCard, format: string, parameters: ParameterValue[]): Promise<void> {
  const { url, form } = exportRequest(card, format, parameters);
  const response = await fetch(url, { method: 'POST', body: form, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`The download failed (${response.status}): ${(await response.text()).slice(0, 200)}`);
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName(response, format);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

export function Downloads({ card, parameters }: { card: QuestionCard; parameters: ParameterValue[] }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = (format: string) => {
    setBusy(true);
    setError(null);
    download(card, format, parameters)
      .catch((e: Error) => setError(e.message))
      .finally(() => setBusy(false));
  };
  return (
    <>
    {error && <Text c="red" size="sm" role="alert">{error}</Text>}
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" size="xs" loading={busy}>
          Download
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {FORMATS.map((f) => (
          <Menu.Item key={f} onClick={() => start(f)}>
            .{f}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
    </>
  );
}
