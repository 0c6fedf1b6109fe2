// A public or embedded dashboard: tabs, filters, and its cards on Metabase's 24-column grid exactly as laid out
// (row, col, size_x, size_y), each card loading on its own. Text and heading cards show their text with
// `{{tag}}` filled from the filters wired to them.

import { Box, Group, Paper, Tabs, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { api } from '../../api/client';
import type { Parameter, QueryResult } from '../../api/types';
import { parseHashOptions } from '../../lib/hash-options';
import { useApi } from '../../lib/useApi';
import { useHash } from '../../lib/useHash';
import { Loaded } from '../Loaded';
import { LazyChart } from '../LazyChart';
import { QueryFailure } from '../QueryFailure';
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

/** Height of one grid row in px (Metabase's grid rows are about this tall on a desktop screen). */
export const ROW_HEIGHT = 56;

function fillTags(text: string, dashcard: Dashcard, parameters: Parameter[], values: ParameterValues): string {
  return text.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (whole, tag: string) => {
    const mapping = dashcard.parameter_mappings?.find((m) => Array.isArray(m.target) && m.target[0] === 'text-tag' && m.target[1] === tag);
    const parameter = mapping && parameters.find((p) => p.id === mapping.parameter_id);
    const value = parameter ? values[parameter.slug] : undefined;
    return value?.length ? value.join(', ') : mapping ? '' : whole;
  });
}

function VirtualCard({ dashcard, parameters, values }: { dashcard: Dashcard; parameters: Parameter[]; values: ParameterValues }) {
  const settings = dashcard.visualization_settings ?? {};
  const display = (settings.virtual_card as { display?: string } | undefined)?.display;
  const text = fillTags(String(settings.text ?? ''), dashcard, parameters, values);
  if (display === 'heading') return <Title order={3}>{text}</Title>;
  if (display === 'link') {
    const link = settings.link as { url?: string } | undefined;
    return link?.url ? <a href={link.url}>{link.url}</a> : null;
  }
  return <Text style={{ whiteSpace: 'pre-wrap' }}>{text}</Text>;
}

function CardResult({ source, dashcard, parameters, values, downloads }: { source: SharedSource; dashcard: Dashcard; parameters: Parameter[]; values: ParameterValues; downloads: boolean }) {
  const cardId = dashcard.card_id!;
  const key = JSON.stringify(values);
  const result = useApi((signal) => api.get<QueryResult>(source.dashcardQueryPath(dashcard.id, cardId, parameters, values), { signal, allowUnauthorized: true }), [source, dashcard.id, key]);
  const settings = { ...(dashcard.card?.visualization_settings ?? {}), ...(dashcard.visualization_settings ?? {}) };
  const title = typeof settings['card.title'] === 'string' ? (settings['card.title'] as string) : (dashcard.card?.name ?? '');
  const height = dashcard.size_y * ROW_HEIGHT - 64;
  return (
    <>
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <Text fw={600} truncate data-testid="dashcard-title">
          {title}
        </Text>
        {downloads && <Downloads href={(format) => source.dashcardExportPath(format, dashcard.id, cardId, parameters, values)} label={`Download results of ${title}`} />}
      </Group>
      <Loaded state={result}>
        {(r) => (r.status === 'failed' ? <QueryFailure result={r} /> : <LazyChart data={r.data} display={dashcard.card?.display ?? 'table'} settings={settings} name={title} height={Math.max(height, 80)} />)}
      </Loaded>
    </>
  );
}

function Grid({ source, dashcards, parameters, values, downloads }: { source: SharedSource; dashcards: Dashcard[]; parameters: Parameter[]; values: ParameterValues; downloads: boolean }) {
  return (
    <Box style={{ display: 'grid', gridTemplateColumns: 'repeat(24, minmax(0, 1fr))', gridAutoRows: ROW_HEIGHT, gap: 8 }}>
      {dashcards.map((dc) => (
        <Paper
          key={dc.id}
          withBorder={dc.card_id !== null}
          p="xs"
          data-testid="dashcard"
          style={{ gridColumn: `${dc.col + 1} / span ${dc.size_x}`, gridRow: `${dc.row + 1} / span ${dc.size_y}`, overflow: 'hidden' }}
        >
          {dc.card_id === null ? <VirtualCard dashcard={dc} parameters={parameters} values={values} /> : <CardResult source={source} dashcard={dc} parameters={parameters} values={values} downloads={downloads} />}
        </Paper>
      ))}
    </Box>
  );
}

function Dashboard({ source, dashboard }: { source: SharedSource; dashboard: SharedDashboardJson }) {
  const options = parseHashOptions(useHash());
  const parameters = useMemo(() => dashboard.parameters ?? [], [dashboard]);
  const [values, setValue] = useParameterValues(parameters);
  const tabs = [...(dashboard.tabs ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const [tab, setTab] = useState<string | null>(tabs[0] ? String(tabs[0].id) : null);
  const shown = tabs.length ? dashboard.dashcards.filter((dc) => String(dc.dashboard_tab_id) === tab) : dashboard.dashcards;
  return (
    <SharedFrame title={dashboard.name} options={options}>
      <ParameterInputs parameters={parameters} values={values} hidden={options.hideParameters} onChange={setValue} />
      {tabs.length > 1 && (
        <Tabs value={tab} onChange={setTab} mb="md">
          <Tabs.List>
            {tabs.map((t) => (
              <Tabs.Tab key={t.id} value={String(t.id)}>
                {t.name}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      )}
      <Grid source={source} dashcards={shown} parameters={parameters} values={values} downloads={options.downloads} />
    </SharedFrame>
  );
}

export function SharedDashboard({ source }: { source: SharedSource }) {
  const dashboard = useApi((signal) => api.get<SharedDashboardJson>(source.dashboardPath, { signal, allowUnauthorized: true }), [source]);
  return <Loaded state={dashboard}>{(d) => <Dashboard source={source} dashboard={d} />}</Loaded>;
}
