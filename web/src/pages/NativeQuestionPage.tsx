// The SQL editor (a native question, new or saved): pick a database, write SQL with autocomplete and snippets,
// `{{variables}}` become widgets to fill, run or cancel, see the rows or the database's error, save.
// QuestionPage hands it `card`: the saved card, or the new one decoded from `/question#<base64>`.

import { Box, Button, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { Loaded } from '../components/Loaded';
import { nativeApi } from '../components/native/api';
import { DatabasePicker } from '../components/native/DatabasePicker';
import { errorLine } from '../components/native/error-location';
import { LazySqlEditor } from '../components/native/LazySqlEditor';
import { NativeError } from '../components/native/NativeError';
import { NativeResults } from '../components/native/NativeResults';
import { runParameters } from '../components/native/parameters';
import { SaveQuestionModal, type SaveChoice } from '../components/native/SaveQuestionModal';
import { SnippetSidebar } from '../components/native/SnippetSidebar';
import type { EditorHandle } from '../components/native/SqlEditor';
import { TagSettings } from '../components/native/TagSettings';
import { TagWidgets } from '../components/native/TagWidgets';
import { valueTags } from '../components/native/template-tags';
import type { NativeCard } from '../components/native/types';
import { useNativeCard } from '../components/native/useNativeCard';
import { useNativeRun, type RunState } from '../components/native/useNativeRun';
import { useNewQuestionHash, useQuestionKey } from '../components/native/useNewQuestionHash';
import type { Database } from '../api/types';
import { useApi } from '../lib/useApi';
import { questionUrl } from '../lib/urls';

function Outcome({ state, display, settings }: { state: RunState; display: string; settings: Record<string, unknown> }) {
  switch (state.kind) {
    case 'idle':
      return <Text c="dimmed">Write a query and run it (Ctrl+Enter).</Text>;
    case 'running':
      return <Text c="dimmed" data-testid="query-running">Running…</Text>;
    case 'cancelled':
      return <Text c="dimmed" data-testid="query-cancelled">The query was cancelled.</Text>;
    case 'failed':
      return <NativeError message={state.message} line={errorLine(state.message, state.sql)} />;
    case 'done':
      return <NativeResults result={state.result} display={display} settings={settings} />;
  }
}

function Editor({ initial, databases }: { initial: NativeCard; databases: Database[] }) {
  const [, navigate] = useLocation();
  const { card, values, setSql, setDatabase, updateTag, setValue, saved } = useNativeCard(
    initial.dataset_query.database === null && databases.length > 0 ? { ...initial, dataset_query: { ...initial.dataset_query, database: databases[0].id } } : initial,
  );
  const { state, run, cancel } = useNativeRun();
  useNewQuestionHash(card);
  const [saving, setSaving] = useState(false);
  const editor = useRef<EditorHandle | null>(null);
  const query = card.dataset_query;
  const database = databases.find((d) => d.id === query.database);
  const tags = useMemo(() => valueTags(query.native['template-tags']), [query.native]);
  const metadata = useApi((signal) => (query.database === null || !tags.some((t) => t.type === 'dimension') ? Promise.resolve(undefined) : nativeApi.metadata(query.database, signal)), [query.database, tags.some((t) => t.type === 'dimension')]);
  const canRun = query.database !== null && query.native.query.trim() !== '';
  const start = () => canRun && void run(query, runParameters(tags, values));
  const highlighted = state.kind === 'failed' && state.sql === query.native.query ? errorLine(state.message, state.sql) : null;

  const save = async (choice: SaveChoice) => {
    const result = await nativeApi.save({ ...card, ...choice, collection_id: card.id === undefined ? choice.collection_id : (card.collection_id ?? null) });
    saved(result.id, result.name, result.collection_id);
    setSaving(false);
    navigate(questionUrl(result.id, result.name), { replace: true });
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{card.name ?? 'New SQL query'}</Title>
        <Button variant="light" onClick={() => setSaving(true)} disabled={query.database === null}>
          Save
        </Button>
      </Group>
      <Group align="flex-end">
        <DatabasePicker databases={databases} value={query.database} onChange={(d) => setDatabase(d.id)} />
        <TagWidgets tags={tags} values={values} onChange={setValue} />
      </Group>
      <Grid>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Stack gap="sm">
            <LazySqlEditor value={query.native.query} onChange={setSql} engine={database?.engine} databaseId={query.database} errorLine={highlighted} onRun={start} handleRef={editor} />
            <Group>
              {state.kind === 'running' ? (
                <Button color="red" onClick={cancel}>
                  Cancel
                </Button>
              ) : (
                <Button onClick={start} disabled={!canRun}>
                  Run
                </Button>
              )}
            </Group>
            <Box>
              <Outcome state={state} display={card.display} settings={card.visualization_settings} />
            </Box>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Stack gap="lg">
            <TagSettings tags={tags} metadata={metadata.data} onChange={updateTag} />
            <SnippetSidebar onInsert={(text) => editor.current?.insert(text)} />
          </Stack>
        </Grid.Col>
      </Grid>
      <SaveQuestionModal opened={saving} isNew={card.id === undefined} initial={{ name: card.name ?? '', collection_id: card.collection_id ?? null }} onClose={() => setSaving(false)} onSave={save} />
    </Stack>
  );
}

export default function NativeQuestionPage({ card }: { card: NativeCard }) {
  const databases = useApi((signal) => nativeApi.databases(signal), []);
  const key = useQuestionKey(card);
  return <Loaded state={databases}>{(list) => <Editor key={key} initial={card} databases={list} />}</Loaded>;
}
