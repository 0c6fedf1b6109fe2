// /dashboard/:id-slug. Placeholder: another helper builds the dashboard view (tabs, grid, filters) and replaces it.

import { NotBuilt } from '../components/NotBuilt';
import { idOfSlug } from '../lib/urls';

export default function DashboardPage({ params }: { params: { slug: string } }) {
  const id = idOfSlug(params.slug);
  return (
    <NotBuilt title={`Dashboard ${Number.isNaN(id) ? '' : id}`}>
      Showing dashboards in the browser is not built yet. Its cards can be read through the API: GET /api/dashboard/{Number.isNaN(id) ? ':id' : id}.
    </NotBuilt>
  );
}
