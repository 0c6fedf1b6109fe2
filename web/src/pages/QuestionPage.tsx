// /question/:id-slug, /question#<base64> (a new question), /model/:id-slug. Native (SQL) questions open in the SQL
// editor (NativeQuestionPage); the rest of the question view (run, table/chart, builder) is built by another helper
// and replaces the placeholder below.

import { api } from '../api/client';
import type { Card } from '../api/types';
import { CenteredLoader } from '../components/CenteredLoader';
import { Loaded } from '../components/Loaded';
import { NotBuilt } from '../components/NotBuilt';
import type { NativeCard } from '../components/native/types';
import { useApi } from '../lib/useApi';
import { useHash } from '../lib/useHash';
import { idOfSlug, textOfBase64 } from '../lib/urls';
import NativeQuestionPage from './NativeQuestionPage';

function decodeHash(hash: string): NativeCard | null {
  try {
    return hash.length > 1 ? (JSON.parse(textOfBase64(decodeURIComponent(hash.slice(1)))) as NativeCard) : null;
  } catch {
    return null;
  }
}

function Question({ card, id }: { card: NativeCard | Card | null; id: number }) {
  const datasetQuery = card?.dataset_query as { type?: string } | undefined;
  if (card && datasetQuery?.type === 'native') return <NativeQuestionPage card={card as NativeCard} />;
  return (
    <NotBuilt title={Number.isNaN(id) ? 'New question' : `Question ${id}`}>
      Opening questions in the browser is not built yet. The question can be run through the API: POST /api/card/{Number.isNaN(id) ? ':id' : id}/query.
    </NotBuilt>
  );
}

export default function QuestionPage({ params }: { params: { slug?: string } }) {
  const id = idOfSlug(params.slug);
  const hash = useHash();
  const saved = useApi((signal) => (Number.isNaN(id) ? Promise.resolve(null) : api.get<Card>(`/api/card/${id}`, { signal })), [id]);
  if (Number.isNaN(id)) return <Question card={decodeHash(hash)} id={id} />;
  // (a question just saved moves here from its new-question URL: wait for the saved card, don't flash the old state)
  if (saved.loading) return <CenteredLoader />;
  return <Loaded state={saved}>{(card) => <Question card={card} id={id} />}</Loaded>;
}
