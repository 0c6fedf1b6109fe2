// The simple question builder: pick a table, filter it, summarize it, sort and limit it; "Visualize" runs the MBQL
// the builder writes (./mbql.ts).

import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useApi } from '../../lib/useApi';
import { FilterEditor, kindOf } from './FilterEditor';
import { EMPTY_STATE, toMbql, type BuilderState } from './mbql';
import { loadDatabases, loadTable, type TableMeta } from './metadata';
import { SortLimitEditor } from './SortLimitEditor';
import { SummarizeEditor } from './SummarizeEditor';

export interface BuilderProps {
  initial: BuilderState | null;
  onRun(datasetQuery: NonNullable<ReturnType<typeof toMbql>>): void;
}

export function QuestionBuilder({ initial, onRun }: BuilderProps) {
  const [state, setState] = useState<BuilderState>(initial ?? EMPTY_STATE);
  const databases = useApi(loadDatabases, []);
  const [table, setTable] = useState<TableMeta | null>(null);
  useEffect(() => {
    setTable(null);
    if (state.tableId === null) return;
    const controller = new AbortController();
    loadTable(state.tableId, controller.signal).then(setTable, () => undefined);
    return () => controller.abort();
  }, [state.tableId]);
  const database = databases.data?.find((d) => d.id === state.databaseId);
  const tables = useMemo(() => (database?.tables ?? []).map((t) => ({ value: String(t.id), label: t.display_name })), [database]);
  const fields = table?.fields ?? [];
  const query = toMbql(state);
  const update = (patch: Partial<BuilderState>) => setState((s) => ({ ...s, ...patch }));

  return (
    <Paper withBorder p="md" mb="md" data-testid="builder">
      <Stack gap="md">
        <Group align="flex-end">
          <Select label="Database" w={220} data={(databases.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))} value={state.databaseId === null ? null : String(state.databaseId)}
            onChange={(v) => setState({ ...EMPTY_STATE, databaseId: v ? Number(v) : null })} searchable allowDeselect={false} />
          <Select label="Table" w={240} data={tables} value={state.tableId === null ? null : String(state.tableId)} disabled={!database} searchable allowDeselect={false}
            onChange={(v) => setState({ ...EMPTY_STATE, databaseId: state.databaseId, tableId: v ? Number(v) : null })} />
        </Group>
        {databases.error && <Alert color="red">{databases.error.message}</Alert>}
        {table && (
          <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="lg">
            <Stack gap="xs">
              <Text fw={600} size="sm">Filter</Text>
              {state.filters.map((f, i) => (
                <FilterEditor key={i} fields={fields} filter={f} onChange={(next) => update({ filters: state.filters.map((x, j) => (j === i ? next : x)) })}
                  onRemove={() => update({ filters: state.filters.filter((_, j) => j !== i) })} />
              ))}
              <Button variant="light" size="compact-sm" w="fit-content"
                onClick={() => fields[0] && update({ filters: [...state.filters, { fieldId: fields[0].id, op: kindOf(fields[0]) === 'date' ? 'past' : '=', values: kindOf(fields[0]) === 'date' ? [30, 'day'] : [] }] })}>
                Add a filter
              </Button>
            </Stack>
            <SummarizeEditor fields={fields} aggregations={state.aggregations} breakouts={state.breakouts} onChange={(next) => update(next)} />
            <SortLimitEditor fields={fields} state={state} onChange={(next) => update(next)} />
          </SimpleGrid>
        )}
        <Group>
          <Button disabled={!query} onClick={() => query && onRun(query)}>
            Visualize
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
