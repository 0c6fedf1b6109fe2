// /question/:id-slug, /question#<base64> (a new question), /model/:id-slug. Placeholder: another helper builds
// the question view (run, table/chart, parameters, downloads, SQL editor, query builder) and replaces this file.

import { NotBuilt } from '../components/NotBuilt';
import { idOfSlug } from '../lib/urls';

export default function QuestionPage({ params }: { params: { slug?: string } }) {
  const id = idOfSlug(params.slug);
  return (
    <NotBuilt title={Number.isNaN(id) ? 'New question' : `Question ${id}`}>
      Opening questions in the browser is not built yet. The question can be run through the API: POST /api/card/{Number.isNaN(id) ? ':id' : id}/query.
    </NotBuilt>
  );
}
