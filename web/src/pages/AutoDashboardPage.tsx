// /auto/dashboard/<entity>/<id>[/cell/…][/rule/…][/compare/…]: an X-ray (GET /api/automagic-dashboards/<same path>),
// drawn with the dashboard view. Its cards are unsaved: they run ad hoc (POST /api/dataset) with the filter values
// applied through their mappings. `#show=all` (the "show more" link) asks for every card. "Save this" keeps it.

import { useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { api } from '../api/client';
import { Loaded } from '../components/Loaded';
import { DashboardView } from '../components/dashboard/DashboardView';
import { RelatedLinks } from '../components/dashboard/RelatedLinks';
import { adhocRunner } from '../components/dashboard/runners';
import { SaveXrayButton } from '../components/dashboard/SaveXrayButton';
import type { DashboardJson } from '../components/dashboard/types';
import { adhocValuesSource } from '../components/dashboard/valueSources';
import { useApi } from '../lib/useApi';
import { useHash } from '../lib/useHash';

const PREFIX = '/auto/dashboard/';

function Xray({ dashboard }: { dashboard: DashboardJson }) {
  const values = useMemo(() => adhocValuesSource(dashboard.dashcards), [dashboard]);
  return (
    <DashboardView dashboard={dashboard} runner={adhocRunner} valuesSource={values} actions={<SaveXrayButton dashboard={dashboard} />}>
      <RelatedLinks related={dashboard.related} more={dashboard.more} />
    </DashboardView>
  );
}

export default function AutoDashboardPage() {
  const [location] = useLocation();
  const show = new URLSearchParams(useSearch()).get('show') ?? new URLSearchParams(useHash().slice(1)).get('show');
  const path = location.startsWith(PREFIX) ? location.slice(PREFIX.length) : '';
  const dashboard = useApi((signal) => api.get<DashboardJson>(`/api/automagic-dashboards/${path}`, { signal, query: { show } }), [path, show]);
  return <Loaded state={dashboard}>{(d) => <Xray key={`${path}#${show}`} dashboard={d} />}</Loaded>;
}
