// /embed/dashboard/:token: a signed-embed dashboard, no sign-in. SharedDashboard reads the hash options and the filters.

import { useMemo } from 'react';
import { embedSource } from '../components/shared/source';
import { SharedDashboard } from '../components/shared/SharedDashboard';

export default function EmbedDashboardPage({ params }: { params: { token: string } }) {
  const source = useMemo(() => embedSource(params.token), [params.token]);
  return <SharedDashboard source={source} />;
}
