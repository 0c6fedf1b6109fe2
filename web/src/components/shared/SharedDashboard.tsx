// A public or embedded dashboard: tabs, filters, and its cards on Metabase's 24-column grid exactly as laid out
// (row, col, size_x, size_y), each card loading on its own. Text and heading cards show their text with
// `{{tag}}` filled from the filters wired to them. The grid and the text cards are the signed-in dashboard's
// (../dashboard), and so are its tabs (the selected one in the URL, `?tab=<id>-slug`).

import { Group, Text } from '@mantine/core';
import { useMemo } from 'react';
import { api } from '../../api/client';
import type { Parameter, QueryResult } from '../../api/types';
import { parseHashOptions } from '../../lib/hash-options';
import { useApi } from '../../lib/useApi';
import { useHash } from '../../lib/useHash';
import { Loaded } from '../Loaded';
import { LazyChart } from '../LazyChart';
import { QueryFailure } from '../QueryFailure';
import { DashboardGrid, contentHeight } from '../dashboard/DashboardGrid';
import { DashboardTabs, sortedTabs, useSelectedTab } from '../dashboard/DashboardTabs';
import { VirtualCard } from '../dashboard/VirtualCard';
import { Downloads } from './Downloads';
import { ParameterInputs } from './ParameterInputs';
import { SharedFrame } from './SharedFrame';
import type { ParameterValues, SharedSource } from './source';
import { useParameterValues } from './useParameterValues';

export interface Dashcard {
  id: number;
  card_id: number | null;
  card: { id?: number; name?: string; display?: string; visualization_settings?: Record<string, unknown> } | null;
  row: number;
  col: number;
  size_x: number;
  size_y: number;
  dashboard_tab_id?: number | null;
  visualization_settings?: Record<string, unknown>;
  parameter_mappings?: Array<{ parameter_id: string; target?: unknown }>;
}

export interface SharedDashboardJson {
  name: string;
  description?: string | null;
  parameters?: Parameter[];
  dashcards: Dashcard[];
  tabs?: Array<{ id: number; name: string; position?: number }>;
}

function CardResult({ source, dashcard, parameters, values, downloads }: { source: SharedSource; dashcard: Dashcard; parameters: Parameter[]; values: ParameterValues; downloads: boolean }) {
  const cardId = dashcard.card_id!;
  const key = JSON.stringify(values);
  const result = useApi((signal) => api.get<QueryResult>(source.dashcardQueryPath(dashcard.id, cardId, parameters, values), { signal, allowUnauthorized: true }), [source, dashcard.id, key]);
  const settings = { ...(dashcard.card?.visualization_settings ?? {}), ...(dashcard.visualization_settings ?? {}) };
  const title = typeof settings['card.title'] === 'string' ? (settings['card.title'] as string) : (dashcard.card?.name ?? '');
  return (
    <>
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <Text fw={600} truncate data-testid="dashcard-title">
          {title}
        </Text>
        {downloads && <Downloads href={(format) => source.dashcardExportPath(format, dashcard.id, cardId, parameters, values)} label={`Download results of ${title}`} />}
      </Group>
      <Loaded state={result}>
        {(r) => (r.status === 'failed' ? <QueryFailure result={r} /> : <LazyChart data={r.data} display={dashcard.card?.display ?? 'table'} settings={settings} name={title} height={contentHeight(dashcard.size_y)} />)}
      </Loaded>
    </>
  );
}

function Grid({ source, dashcards, parameters, values, downloads }: { source: SharedSource; dashcards: Dashcard[]; parameters: Parameter[]; values: ParameterValues; downloads: boolean }) {
  return (
    <DashboardGrid items={dashcards} framed={(dc) => dc.card_id !== null}>
      {(dc) => (dc.card_id === null ? <VirtualCard dashcard={dc} parameters={parameters} values={values} /> : <CardResult source={source} dashcard={dc} parameters={parameters} values={values} downloads={downloads} />)}
    </DashboardGrid>
  );
}

function Dashboard({ source, dashboard }: { source: SharedSource; dashboard: SharedDashboardJson }) {
  const options = parseHashOptions(useHash());
  const parameters = useMemo(() => dashboard.parameters ?? [], [dashboard]);
  const [values, setValue] = useParameterValues(parameters);
  const tabs = useMemo(() => sortedTabs(dashboard.tabs), [dashboard]);
  const [tab, selectTab] = useSelectedTab(tabs);
  const shown = tab ? dashboard.dashcards.filter((dc) => String(dc.dashboard_tab_id) === String(tab.id)) : dashboard.dashcards;
  return (
    <SharedFrame title={dashboard.name} options={options}>
      <ParameterInputs parameters={parameters} values={values} hidden={options.hideParameters} onChange={setValue} />
      <DashboardTabs tabs={tabs} selected={tab} onSelect={selectTab} />
      <Grid source={source} dashcards={shown} parameters={parameters} values={values} downloads={options.downloads} />
    </SharedFrame>
  );
}

export function SharedDashboard({ source }: { source: SharedSource }) {
  const dashboard = useApi((signal) => api.get<SharedDashboardJson>(source.dashboardPath, { signal, allowUnauthorized: true }), [source]);
  return <Loaded state={dashboard}>{(d) => <Dashboard source={source} dashboard={d} />}</Loaded>;
}
