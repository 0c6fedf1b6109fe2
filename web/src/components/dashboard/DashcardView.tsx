// One card of a dashboard: its title (a link to its question, carrying the filter values) and its result drawn as
// the card says, with the cards of its `series` overlaid. Each dashcard loads on its own, so a slow card holds up
// no other; a change of the filters wired to it reruns it (and only it).

import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'wouter';
import type { Parameter, QueryResult } from '../../api/types';
import { useApi } from '../../lib/useApi';
import { Loaded } from '../Loaded';
import { LazyChart } from '../LazyChart';
import { QueryFailure } from '../QueryFailure';
import { contentHeight } from './DashboardGrid';
import { cardParameters } from './parameters';
import type { CardRunner } from './runners';
import type { Dashcard, FilterValues } from './types';

/** `name` titles the card's own series when others are overlaid (its name, as in Metabase, not the dashcard's title). */
function Result({ results, dashcard, settings, name }: { results: QueryResult[]; dashcard: Dashcard; settings: Record<string, unknown>; name: string }) {
  const failed = results.find((r) => r.status === 'failed');
  if (failed) return <QueryFailure result={failed} />;
  const [main, ...rest] = results;
  const series = (dashcard.series ?? []).map((card, i) => ({
    name: card.name ?? '',
    display: card.display ?? 'line',
    settings: card.visualization_settings ?? {},
    cols: rest[i].data.cols,
    rows: rest[i].data.rows,
  }));
  return <LazyChart data={main.data} display={dashcard.card?.display ?? 'table'} settings={settings} name={name} height={contentHeight(dashcard.size_y)} series={series.length ? series : undefined} />;
}

export function DashcardView({ dashcard, runner, parameters, values }: { dashcard: Dashcard; runner: CardRunner; parameters: Parameter[]; values: FilterValues }) {
  const card = dashcard.card ?? { id: dashcard.card_id ?? undefined };
  const cards = [card, ...(dashcard.series ?? [])];
  const queryParameters = cards.map((c) => cardParameters(dashcard, c, parameters, values));
  const results = useApi((signal) => Promise.all(cards.map((c, i) => runner.run(dashcard, c, queryParameters[i], signal))), [runner, dashcard.id, JSON.stringify(queryParameters)]);
  const settings = { ...(card.visualization_settings ?? {}), ...(dashcard.visualization_settings ?? {}) };
  const title = typeof settings['card.title'] === 'string' ? (settings['card.title'] as string) : (card.name ?? '');
  const href = runner.titleHref(card, queryParameters[0]);
  return (
    <>
      <Group justify="space-between" wrap="nowrap" mb={4}>
        {href ? (
          <Anchor component={Link} href={href} fw={600} truncate c="inherit" data-testid="dashcard-title">
            {title}
          </Anchor>
        ) : (
          <Text fw={600} truncate data-testid="dashcard-title">
            {title}
          </Text>
        )}
      </Group>
      <Loaded state={results}>{(r) => <Result results={r} dashcard={dashcard} settings={settings} name={card.name ?? title} />}</Loaded>
    </>
  );
}
