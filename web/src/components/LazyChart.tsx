// Chart, downloaded on first use (ECharts and the chart description are most of the app's weight).

import { lazy, Suspense } from 'react';
import type { ChartProps } from './Chart';
import { CenteredLoader } from './CenteredLoader';

const Chart = lazy(() => import('./Chart'));

export function LazyChart(props: ChartProps) {
  return (
    <Suspense fallback={<CenteredLoader label="Loading chart…" />}>
      <Chart {...props} />
    </Suspense>
  );
}
