// A dashboard's filters in a row, with an Apply button when the dashboard doesn't apply filters as they change.

import { Button, Group } from '@mantine/core';
import type { Parameter } from '../../api/types';
import { ParameterWidget } from './ParameterWidget';
import type { DashboardFilters } from './useDashboardFilters';
import { linkedConstraints, type ValuesSource } from './valueSources';

export function FilterBar({ parameters, filters, source, autoApply }: { parameters: Parameter[]; filters: DashboardFilters; source: ValuesSource; autoApply: boolean }) {
  if (parameters.length === 0) return null;
  return (
    <Group gap="md" align="flex-end" mb="md" role="group" aria-label="Filters">
      {parameters.map((p) => (
        <ParameterWidget key={p.id} parameter={p} values={filters.shown[p.slug] ?? []} onChange={(v) => filters.set(p.slug, v)} source={source} constraints={linkedConstraints(p, parameters, filters.shown)} />
      ))}
      {!autoApply && (
        <Button onClick={filters.apply} disabled={!filters.pending}>
          Apply
        </Button>
      )}
    </Group>
  );
}
