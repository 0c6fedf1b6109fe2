// /public/dashboard/:uuid: a publicly shared dashboard, no sign-in. SharedDashboard reads the hash options and the filters.

import { useMemo } from 'react';
import { publicSource } from '../components/shared/source';
import { SharedDashboard } from '../components/shared/SharedDashboard';

export default function PublicDashboardPage({ params }: { params: { uuid: string } }) {
  const source = useMemo(() => publicSource(params.uuid), [params.uuid]);
  return <SharedDashboard source={source} />;
}
