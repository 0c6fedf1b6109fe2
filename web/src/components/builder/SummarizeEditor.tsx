// The builder's "Summarize": metrics (count, sum, average, distinct, min, max, cumulative count/sum…) by up to two
// groupings, dates by a time unit and numbers in bins.

import { ActionIcon, Button, Group, Select, Stack, Text } from '@mantine/core';
import type { AggregationOp, BuilderAggregation, BuilderBreakout, TemporalUnit } from './mbql';
import { NEEDS_FIELD } from './mbql';
import { fieldOptions, isNumeric, isTemporal, type FieldMeta } from './metadata';

export const AGGREGATIONS: Array<{ value: AggregationOp; label: string }> = [
  { value: 'count', label: 'Count of rows' },
  { value: 'sum', label: 'Sum of …' },
  { value: 'avg', label: 'Average of …' },
  { value: 'distinct', label: 'Number of distinct values of …' },
  { value: 'min', label: 'Minimum of …' },
  { value: 'max', label: 'Maximum of …' },
  { value: 'median', label: 'Median of …' },
  { value: 'stddev', label: 'Standard deviation of …' },
  { value: 'cum-count', label: 'Cumulative count of rows' },
  { value: 'cum-sum', label: 'Cumulative sum of …' },
];

const UNITS: Array<{ value: TemporalUnit; label: string }> = [
  { value: 'minute', label: 'Minute' },
  { value: 'hour', label: 'Hour' },
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
  { value: 'quarter', label: 'Quarter' },
  { value: 'year', label: 'Year' },
  { value: 'hour-of-day', label: 'Hour of day' },
  { value: 'day-of-week', label: 'Day of week' },
  { value: 'month-of-year', label: 'Month of year' },
  { value: 'quarter-of-year', label: 'Quarter of year' },
];

const BINS = [
  { value: 'none', label: "Don't bin" },
  { value: 'default', label: 'Auto bin' },
  { value: '10', label: '10 bins' },
  { value: '50', label: '50 bins' },
  { value: '100', label: '100 bins' },
];

/** What a person reads for a metric ("Sum of Total"). */
export function aggregationLabel(a: BuilderAggregation, fields: FieldMeta[]): string {
  const base = AGGREGATIONS.find((x) => x.value === a.op)?.label ?? a.op;
  const field = fields.find((f) => f.id === a.fieldId);
  return NEEDS_FIELD.has(a.op) ? base.replace('…', field?.display_name ?? '…') : base;
}

function MetricRow({ fields, value, onChange, onRemove }: { fields: FieldMeta[]; value: BuilderAggregation; onChange: (a: BuilderAggregation) => void; onRemove: () => void }) {
  const numeric = value.op !== 'distinct' && value.op !== 'min' && value.op !== 'max';
  return (
    <Group gap="xs" data-testid="metric">
      <Select aria-label="Metric" w={260} data={AGGREGATIONS} value={value.op} allowDeselect={false}
        onChange={(op) => op && onChange({ op: op as AggregationOp, fieldId: NEEDS_FIELD.has(op as AggregationOp) ? value.fieldId : undefined })} />
      {NEEDS_FIELD.has(value.op) && (
        <Select aria-label="Metric column" w={200} placeholder="Pick a column" searchable data={fieldOptions(fields, numeric ? isNumeric : undefined)}
          value={value.fieldId === undefined ? null : String(value.fieldId)} onChange={(v) => onChange({ ...value, fieldId: v ? Number(v) : undefined })} />
      )}
      <ActionIcon variant="subtle" color="gray" aria-label="Remove metric" onClick={onRemove}>✕</ActionIcon>
    </Group>
  );
}

function GroupRow({ fields, value, onChange, onRemove }: { fields: FieldMeta[]; value: BuilderBreakout; onChange: (b: BuilderBreakout) => void; onRemove: () => void }) {
  const field = fields.find((f) => f.id === value.fieldId);
  return (
    <Group gap="xs" data-testid="grouping">
      <Select aria-label="Group by" w={220} searchable data={fieldOptions(fields)} value={String(value.fieldId)} allowDeselect={false}
        onChange={(v) => {
          const next = fields.find((f) => String(f.id) === v);
          if (next) onChange({ fieldId: next.id, unit: isTemporal(next) ? 'month' : undefined });
        }} />
      {field && isTemporal(field) && (
        <Select aria-label="Time unit" w={160} data={UNITS} value={value.unit ?? 'day'} allowDeselect={false} onChange={(u) => u && onChange({ fieldId: value.fieldId, unit: u as TemporalUnit })} />
      )}
      {field && isNumeric(field) && (
        <Select aria-label="Binning" w={140} data={BINS} value={value.binning === undefined ? 'none' : String(value.binning)} allowDeselect={false}
          onChange={(b) => onChange({ fieldId: value.fieldId, binning: b === 'none' || !b ? undefined : b === 'default' ? 'default' : Number(b) })} />
      )}
      <ActionIcon variant="subtle" color="gray" aria-label="Remove grouping" onClick={onRemove}>✕</ActionIcon>
    </Group>
  );
}

export function SummarizeEditor({ fields, aggregations, breakouts, onChange }: {
  fields: FieldMeta[];
  aggregations: BuilderAggregation[];
  breakouts: BuilderBreakout[];
  onChange: (next: { aggregations: BuilderAggregation[]; breakouts: BuilderBreakout[] }) => void;
}) {
  const set = <T,>(list: T[], at: number, value: T | null) => (value === null ? list.filter((_, i) => i !== at) : list.map((x, i) => (i === at ? value : x)));
  const firstDate = fields.find(isTemporal) ?? fields[0];
  return (
    <Stack gap="xs">
      <Text fw={600} size="sm">Summarize</Text>
      {aggregations.map((a, i) => (
        <MetricRow key={i} fields={fields} value={a} onChange={(v) => onChange({ aggregations: set(aggregations, i, v), breakouts })} onRemove={() => onChange({ aggregations: set(aggregations, i, null), breakouts })} />
      ))}
      <Button variant="light" size="compact-sm" w="fit-content" onClick={() => onChange({ aggregations: [...aggregations, { op: 'count' }], breakouts })}>
        Add a metric
      </Button>
      <Text fw={600} size="sm">by</Text>
      {breakouts.map((b, i) => (
        <GroupRow key={i} fields={fields} value={b} onChange={(v) => onChange({ aggregations, breakouts: set(breakouts, i, v) })} onRemove={() => onChange({ aggregations, breakouts: set(breakouts, i, null) })} />
      ))}
      {breakouts.length < 2 && firstDate && (
        <Button variant="light" size="compact-sm" w="fit-content"
          onClick={() => onChange({ aggregations, breakouts: [...breakouts, { fieldId: firstDate.id, unit: isTemporal(firstDate) ? 'month' : undefined }] })}>
          Add a grouping
        </Button>
      )}
    </Stack>
  );
}
