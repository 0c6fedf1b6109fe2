// One filter of the builder: a column, an operator suited to its type, and its value(s) — picked from the column's
// values when the server lists them, else typed (numbers as numbers, dates as dates).

import { ActionIcon, Group, MultiSelect, NumberInput, Select, TagsInput, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { BuilderFilter, FilterOp } from './mbql';
import { NO_VALUE } from './mbql';
import { fieldOptions, isNumeric, isTemporal, loadFieldValues, type FieldMeta } from './metadata';

const OPS_BY_KIND: Record<'number' | 'date' | 'text', Array<{ value: FilterOp; label: string }>> = {
  number: [
    { value: '=', label: 'Equal to' },
    { value: '!=', label: 'Not equal to' },
    { value: '>', label: 'Greater than' },
    { value: '<', label: 'Less than' },
    { value: 'between', label: 'Between' },
    { value: 'is-null', label: 'Is empty' },
    { value: 'not-null', label: 'Not empty' },
  ],
  date: [
    { value: 'past', label: 'In the past' },
    { value: '>', label: 'After' },
    { value: '<', label: 'Before' },
    { value: 'between', label: 'Between' },
    { value: 'is-null', label: 'Is empty' },
    { value: 'not-null', label: 'Not empty' },
  ],
  text: [
    { value: '=', label: 'Is' },
    { value: '!=', label: 'Is not' },
    { value: 'contains', label: 'Contains' },
    { value: 'does-not-contain', label: 'Does not contain' },
    { value: 'starts-with', label: 'Starts with' },
    { value: 'is-null', label: 'Is empty' },
    { value: 'not-null', label: 'Not empty' },
  ],
};

const PAST_UNITS = ['day', 'week', 'month', 'quarter', 'year'].map((u) => ({ value: u, label: `${u}s` }));

export const kindOf = (f: FieldMeta | undefined) => (!f ? 'text' : isTemporal(f) ? 'date' : isNumeric(f) ? 'number' : 'text');

function Values({ field, filter, onChange }: { field: FieldMeta; filter: BuilderFilter; onChange: (values: Array<string | number>) => void }) {
  const [known, setKnown] = useState<string[] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    setKnown(null);
    loadFieldValues(field, controller.signal).then((v) => setKnown(v), () => setKnown(null));
    return () => controller.abort();
  }, [field]);
  const kind = kindOf(field);
  const { op, values } = filter;
  if (op === 'past')
    return (
      <Group gap={4}>
        <NumberInput aria-label="How many" min={1} w={90} value={typeof values[0] === 'number' ? values[0] : 30} onChange={(n) => onChange([Number(n) || 1, String(values[1] ?? 'day')])} />
        <Select aria-label="Unit" w={120} data={PAST_UNITS} value={String(values[1] ?? 'day')} onChange={(u) => onChange([typeof values[0] === 'number' ? values[0] : 30, u ?? 'day'])} allowDeselect={false} />
      </Group>
    );
  const single = (at: number, label: string) =>
    kind === 'number' ? (
      <NumberInput key={at} aria-label={label} w={140} value={values[at] ?? ''} onChange={(n) => { const next = [...values]; next[at] = Number(n); onChange(next); }} />
    ) : (
      <TextInput key={at} aria-label={label} w={170} type={kind === 'date' ? 'date' : 'text'} value={String(values[at] ?? '')} onChange={(e) => { const next = [...values]; next[at] = e.currentTarget.value; onChange(next); }} />
    );
  if (op === 'between') return <Group gap={4}>{single(0, 'From')}{single(1, 'To')}</Group>;
  if ((op === '=' || op === '!=') && kind === 'text')
    return known ? (
      <MultiSelect aria-label="Values" w={260} data={known} value={values.map(String)} onChange={onChange} searchable />
    ) : (
      <TagsInput aria-label="Values" w={260} value={values.map(String)} onChange={onChange} placeholder="Type and press Enter" />
    );
  return single(0, 'Value');
}

export function FilterEditor({ fields, filter, onChange, onRemove }: { fields: FieldMeta[]; filter: BuilderFilter; onChange: (f: BuilderFilter) => void; onRemove: () => void }) {
  const field = fields.find((f) => f.id === filter.fieldId);
  const ops = OPS_BY_KIND[kindOf(field)];
  return (
    <Group gap="xs" align="flex-end" data-testid="filter">
      <Select aria-label="Filter column" w={200} data={fieldOptions(fields)} value={String(filter.fieldId)} searchable allowDeselect={false}
        onChange={(v) => {
          const next = fields.find((f) => String(f.id) === v);
          if (next) onChange({ fieldId: next.id, op: OPS_BY_KIND[kindOf(next)][0].value, values: kindOf(next) === 'date' ? [30, 'day'] : [] });
        }} />
      <Select aria-label="Operator" w={170} data={ops} value={filter.op} allowDeselect={false}
        onChange={(v) => v && onChange({ ...filter, op: v as FilterOp, values: v === 'past' ? [30, 'day'] : NO_VALUE.has(v as FilterOp) ? [] : filter.op === 'past' ? [] : filter.values })} />
      {field && !NO_VALUE.has(filter.op) && <Values field={field} filter={filter} onChange={(values) => onChange({ ...filter, values })} />}
      <ActionIcon variant="subtle" color="gray" aria-label="Remove filter" onClick={onRemove} mb={6}>✕</ActionIcon>
    </Group>
  );
}
