// /auto/dashboard/* (x-rays). Placeholder: drawn with the dashboard view once it and the x-ray endpoints exist.

import { NotBuilt } from '../components/NotBuilt';

export default function AutoDashboardPage() {
  return <NotBuilt title="X-ray">Automatic dashboards (x-rays) are not shown in the browser yet.</NotBuilt>;
}
