// The builder's sort (by a grouping or metric once summarized, else by a column) and row limit.

import { ActionIcon, Button, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import type { BuilderSort, BuilderState } from './mbql';
import { aggregationLabel } from './SummarizeEditor';
import type { FieldMeta } from './metadata';

const key = (t: BuilderSort['target']) => (t.kind === 'field' ? `field:${t.fieldId}` : `${t.kind}:${t.index}`);

function targetOf(value: string): BuilderSort['target'] {
  const [kind, n] = value.split(':');
  return kind === 'field' ? { kind: 'field', fieldId: Number(n) } : { kind: kind as 'breakout' | 'aggregation', index: Number(n) };
}

export function SortLimitEditor({ fields, state, onChange }: { fields: FieldMeta[]; state: BuilderState; onChange: (next: Pick<BuilderState, 'sort' | 'limit'>) => void }) {
  const summarized = state.aggregations.length > 0 || state.breakouts.length > 0;
  const name = (id: number) => fields.find((f) => f.id === id)?.display_name ?? `Field ${id}`;
  const targets = summarized
    ? [
        ...state.breakouts.map((b, i) => ({ value: `breakout:${i}`, label: b.unit ? `${name(b.fieldId)}: ${b.unit}` : name(b.fieldId) })),
        ...state.aggregations.map((a, i) => ({ value: `aggregation:${i}`, label: aggregationLabel(a, fields) })),
      ]
    : fields.map((f) => ({ value: `field:${f.id}`, label: f.display_name }));
  const sort = state.sort.filter((s) => targets.some((t) => t.value === key(s.target)));
  const setSort = (next: BuilderSort[]) => onChange({ sort: next, limit: state.limit });
  return (
    <Stack gap="xs">
      <Text fw={600} size="sm">Sort</Text>
      {sort.map((s, i) => (
        <Group key={i} gap="xs" data-testid="sort">
          <Select aria-label="Sort by" w={240} data={targets} value={key(s.target)} allowDeselect={false} onChange={(v) => v && setSort(sort.map((x, j) => (j === i ? { ...x, target: targetOf(v) } : x)))} />
          <Select aria-label="Direction" w={130} data={[{ value: 'asc', label: 'Ascending' }, { value: 'desc', label: 'Descending' }]} value={s.direction} allowDeselect={false}
            onChange={(d) => d && setSort(sort.map((x, j) => (j === i ? { ...x, direction: d as 'asc' | 'desc' } : x)))} />
          <ActionIcon variant="subtle" color="gray" aria-label="Remove sort" onClick={() => setSort(sort.filter((_, j) => j !== i))}>✕</ActionIcon>
        </Group>
      ))}
      {targets.length > 0 && (
        <Button variant="light" size="compact-sm" w="fit-content" onClick={() => setSort([...sort, { target: targetOf(targets[0].value), direction: 'asc' }])}>
          Add a sort
        </Button>
      )}
      <NumberInput label="Row limit" placeholder="No limit" min={1} w={160} value={state.limit ?? ''} onChange={(n) => onChange({ sort, limit: typeof n === 'number' && n > 0 ? n : null })} />
    </Stack>
  );
}
