// A question (saved or new, MBQL) run and shown: its title and actions, the builder for a new question, the
// parameters, the display switcher and the result. A new question's URL hash follows what was run, so the page can be
// shared; a saved one runs through its card (so its parameters, permissions and cache apply).

import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client';
import { fromMbql } from '../builder/mbql';
import { QuestionBuilder } from '../builder/QuestionBuilder';
import { ResultView } from '../results/ResultView';
import { newQuestionUrl } from '../../lib/urls';
import type { RunTarget } from '../../lib/runQuery';
import { BookmarkButton } from './BookmarkButton';
import type { DatasetQuery, QuestionCard } from './card';
import { DisplaySwitcher } from './DisplaySwitcher';
import { suggestedDisplay } from './displays';
import { Downloads } from './Downloads';
import { defaultInput, parameterValues, type ParameterInput } from './parameters';
import { ParametersBar } from './ParametersBar';
import { SaveModal } from './SaveModal';
import { useRun } from './useRun';
import { ViewSql } from './ViewSql';

const hasBreakout = (q: DatasetQuery) => Array.isArray(q.query?.breakout) && (q.query.breakout as unknown[]).length > 0;

function target(card: QuestionCard, parameters: ReturnType<typeof parameterValues>): RunTarget {
  const pivot = card.display === 'pivot' && card.dataset_query.type === 'query' && hasBreakout(card.dataset_query);
  return card.id !== undefined ? { kind: 'card', cardId: card.id, parameters, pivot } : { kind: 'dataset', query: card.dataset_query, pivot };
}

export function QuestionView({ initial }: { initial: QuestionCard }) {
  const [card, setCard] = useState(initial);
  const [input, setInput] = useState<ParameterInput>(() => defaultInput(initial.parameters ?? []));
  const [saving, setSaving] = useState(false);
  const parameters = useMemo(() => parameterValues(card.parameters ?? [], input), [card.parameters, input]);
  const { result, running, error, run, cancel } = useRun();
  const saved = card.id !== undefined;
  const builderState = useMemo(() => (saved ? null : fromMbql(initial.dataset_query)), [saved, initial.dataset_query]);
  const pivotRun = card.display === 'pivot';
  const [savedDisplay, setSavedDisplay] = useState(initial.display);
  const [updating, setUpdating] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const saveDisplay = () => {
    setUpdating(true);
    api.put(`/api/card/${card.id}`, { display: card.display }).then(
      () => setSavedDisplay(card.display),
      (e: Error) => setSaveError(e.message),
    ).finally(() => setUpdating(false));
  };

  // Runs on open, when parameters change, and when switching into or out of the pivot table (another endpoint).
  useEffect(() => {
    if (saved || card.dataset_query.type !== 'query' || Object.keys(card.dataset_query.query ?? {}).length > 0) run(target(card, parameters));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [card.dataset_query, parameters, pivotRun]);

  useEffect(() => {
    if (!saved) window.history.replaceState(window.history.state, '', newQuestionUrl(card));
  }, [saved, card]);

  const runBuilt = (datasetQuery: DatasetQuery) =>
    setCard((c) => {
      const wasSuggested = c.display === 'table' || c.display === suggestedDisplay(c.dataset_query);
      return { ...c, dataset_query: datasetQuery, display: wasSuggested ? suggestedDisplay(datasetQuery) : c.display };
    });

  return (
    <Stack gap="sm" p="md">
      <Group justify="space-between" align="center">
        <Title order={2} data-testid="question-title">
          {card.name ?? 'New question'}
        </Title>
        <Group gap="xs">
          {saved && <BookmarkButton cardId={card.id!} />}
          {saved && card.dataset_query.type === 'query' && (
            <Button component={Link} href={newQuestionUrl({ dataset_query: card.dataset_query, display: card.display, visualization_settings: card.visualization_settings })} variant="default" size="xs">
              Open in the builder
            </Button>
          )}
          <ViewSql card={card} parameters={parameters} />
          <Downloads card={card} parameters={parameters} />
          {saved && card.display !== savedDisplay && (
            <Button size="xs" loading={updating} onClick={saveDisplay}>
              Save changes
            </Button>
          )}
          {!saved && <Button size="xs" disabled={!result || result.status === 'failed'} onClick={() => setSaving(true)}>Save</Button>}
        </Group>
      </Group>
      {card.description && <Text c="dimmed">{card.description}</Text>}
      {!saved && card.dataset_query.type === 'query' &&
        (builderState ? (
          <QuestionBuilder initial={builderState} onRun={runBuilt} />
        ) : (
          <Alert color="gray">This question uses parts of MBQL the simple builder can't edit (joins, expressions or a nested question); it runs as it is.</Alert>
        ))}
      {(card.parameters?.length ?? 0) > 0 && <ParametersBar parameters={card.parameters!} input={input} onChange={setInput} />}
      <Group justify="space-between">
        <DisplaySwitcher value={card.display} onChange={(display) => setCard((c) => ({ ...c, display }))} />
        {running && (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">Running…</Text>
            <Button size="compact-xs" variant="default" onClick={cancel}>Cancel</Button>
          </Group>
        )}
      </Group>
      {saveError && <Alert color="red" role="alert" withCloseButton onClose={() => setSaveError(null)}>{saveError}</Alert>}
      {error && <Alert color={error.includes('cancelled') ? 'gray' : 'red'} role="alert">{error}</Alert>}
      {result && <div style={{ opacity: running ? 0.5 : 1 }} data-testid="result"><ResultView result={result} display={card.display} settings={card.visualization_settings} name={card.name} /></div>}
      {saving && <SaveModal card={card} opened onClose={() => setSaving(false)} />}
    </Stack>
  );
}
