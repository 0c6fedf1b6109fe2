// The snippets a person may use (GET /api/native-query-snippet): clicking one puts `{{snippet: Name}}` into the SQL.

import { Button, ScrollArea, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useApi } from '../../lib/useApi';
import { nativeApi } from './api';

export function SnippetSidebar({ onInsert }: { onInsert(text: string): void }) {
  const snippets = useApi((signal) => nativeApi.snippets(signal), []);
  return (
    <Stack gap="xs" aria-label="Snippets" data-testid="snippet-sidebar">
      <Title order={5}>Snippets</Title>
      {snippets.error && <Text c="red" size="sm">{snippets.error.message}</Text>}
      {snippets.data?.length === 0 && <Text c="dimmed" size="sm">No snippets yet.</Text>}
      <ScrollArea.Autosize mah={300}>
        <Stack gap={4}>
          {(snippets.data ?? []).map((snippet) => (
            <Tooltip key={snippet.id} label={<Text ff="monospace" size="xs" style={{ whiteSpace: 'pre-wrap' }}>{snippet.content}</Text>} multiline maw={360} position="left">
              <Button variant="subtle" size="compact-sm" justify="flex-start" onClick={() => onInsert(`{{snippet: ${snippet.name}}}`)} aria-label={`Insert snippet ${snippet.name}`}>
                {snippet.name}
              </Button>
            </Tooltip>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
