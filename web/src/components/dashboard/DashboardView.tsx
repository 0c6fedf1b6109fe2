// A dashboard as a signed-in person sees it — saved or an X-ray: its name, filters, tabs and the grid of its cards.
// How cards run and where filter values come from differ (runners.ts, valueSources.ts); the page says which.

import { Box, Group, Text, Title } from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import { DashboardGrid } from './DashboardGrid';
import { DashboardTabs, sortedTabs, useSelectedTab } from './DashboardTabs';
import { DashcardView } from './DashcardView';
import { FilterBar } from './FilterBar';
import type { CardRunner } from './runners';
import type { DashboardJson } from './types';
import { useDashboardFilters } from './useDashboardFilters';
import type { ValuesSource } from './valueSources';
import { VirtualCard } from './VirtualCard';

// Every dashboard draws charts: fetch the chart code (ECharts, the chart description) while the dashboard and its
// results load, rather than after the first result arrives.
void import('../Chart');

export function DashboardView({ dashboard, runner, valuesSource, actions, children }: { dashboard: DashboardJson; runner: CardRunner; valuesSource: ValuesSource; actions?: ReactNode; children?: ReactNode }) {
  const parameters = useMemo(() => dashboard.parameters ?? [], [dashboard]);
  const autoApply = dashboard.auto_apply_filters !== false;
  const filters = useDashboardFilters(parameters, autoApply);
  const tabs = useMemo(() => sortedTabs(dashboard.tabs), [dashboard]);
  const [tab, selectTab] = useSelectedTab(tabs);
  const shown = tab ? dashboard.dashcards.filter((dc) => String(dc.dashboard_tab_id) === String(tab.id)) : dashboard.dashcards;
  return (
    <Box data-testid="dashboard">
      <Group justify="space-between" align="flex-start" mb="md" wrap="nowrap">
        <Box>
          <Title order={2}>{dashboard.name}</Title>
          {dashboard.description && (
            <Text c="dimmed" size="sm">
              {dashboard.description}
            </Text>
          )}
        </Box>
        {actions}
      </Group>
      <FilterBar parameters={parameters} filters={filters} source={valuesSource} autoApply={autoApply} />
      <DashboardTabs tabs={tabs} selected={tab} onSelect={selectTab} />
      <DashboardGrid items={shown} framed={(dc) => dc.card_id != null}>
        {(dc) => (dc.card_id == null ? <VirtualCard dashcard={dc} parameters={parameters} values={filters.applied} /> : <DashcardView dashcard={dc} runner={runner} parameters={parameters} values={filters.applied} />)}
      </DashboardGrid>
      {children}
    </Box>
  );
}
