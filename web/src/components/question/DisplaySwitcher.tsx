// Which picture of the result to show: the table or one of the charts src/visualization draws.

import { Select } from '@mantine/core';

export const DISPLAYS = [
  { value: 'table', label: 'Table' },
  { value: 'line', label: 'Line' },
  { value: 'bar', label: 'Bar' },
  { value: 'area', label: 'Area' },
  { value: 'combo', label: 'Combo' },
  { value: 'row', label: 'Row' },
  { value: 'pie', label: 'Pie' },
  { value: 'scalar', label: 'Number' },
  { value: 'smartscalar', label: 'Trend' },
  { value: 'progress', label: 'Progress' },
  { value: 'gauge', label: 'Gauge' },
  { value: 'funnel', label: 'Funnel' },
  { value: 'scatter', label: 'Scatter' },
  { value: 'waterfall', label: 'Waterfall' },
  { value: 'pivot', label: 'Pivot table' },
];

export function DisplaySwitcher({ value, onChange }: { value: string; onChange: (display: string) => void }) {
  const known = DISPLAYS.some((d) => d.value === value);
  return (
    <Select
      aria-label="Visualization"
      size="xs"
      w={150}
      data={known ? DISPLAYS : [...DISPLAYS, { value, label: value }]}
      value={value}
      onChange={(v) => v && onChange(v)}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
