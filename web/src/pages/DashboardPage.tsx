// /dashboard/:id-slug: a saved dashboard (GET /api/dashboard/:id) with its filters (values in the URL by slug),
// tabs (`?tab=`), and cards that run on their own through the dashcard query endpoint.

import { useMemo } from 'react';
import { api } from '../api/client';
import { Loaded } from '../components/Loaded';
import { DashboardView } from '../components/dashboard/DashboardView';
import { savedDashboardRunner } from '../components/dashboard/runners';
import type { DashboardJson } from '../components/dashboard/types';
import { dashboardValuesSource } from '../components/dashboard/valueSources';
import { idOfSlug } from '../lib/urls';
import { useApi } from '../lib/useApi';
import NotFoundPage from './NotFoundPage';

function SavedDashboard({ id, dashboard }: { id: number; dashboard: DashboardJson }) {
  const runner = useMemo(() => savedDashboardRunner(id), [id]);
  const values = useMemo(() => dashboardValuesSource(id), [id]);
  return <DashboardView dashboard={dashboard} runner={runner} valuesSource={values} />;
}

export default function DashboardPage({ params }: { params: { slug: string } }) {
  const id = idOfSlug(params.slug);
  const dashboard = useApi((signal) => (Number.isNaN(id) ? Promise.reject(new Error('No such dashboard.')) : api.get<DashboardJson>(`/api/dashboard/${id}`, { signal })), [id]);
  if (Number.isNaN(id)) return <NotFoundPage />;
  return <Loaded state={dashboard}>{(d) => <SavedDashboard id={id} dashboard={d} />}</Loaded>;
}
