// /question/:id-slug and /model/:id-slug (a saved card: GET /api/card/:id) and /question#<base64> (a new one).
// Native questions go to the SQL editor's page; MBQL ones to the question view.

import { lazy, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { api } from '../api/client';
import type { Card } from '../api/types';
import { Loaded } from '../components/Loaded';
import { cardOfHash, cardOfSaved, type QuestionCard } from '../components/question/card';
import type { NativeCard } from '../components/native/types';
import { QuestionView } from '../components/question/QuestionView';
import { NotBuilt } from '../components/NotBuilt';
import { idOfSlug } from '../lib/urls';
import { useApi } from '../lib/useApi';

const NativeQuestionPage = lazy(() => import('./NativeQuestionPage'));

const isNative = (card: QuestionCard): card is QuestionCard & NativeCard => card.dataset_query.type === 'native';

function Question({ card }: { card: QuestionCard }) {
  // NativeQuestionPage is lazy: the route table's Suspense shows a loader while it downloads.
  if (isNative(card)) return <NativeQuestionPage card={card} />;
  return <QuestionView initial={card} />;
}

function SavedQuestion({ id }: { id: number }) {
  const card = useApi((signal) => api.get<Card>(`/api/card/${id}`, { signal }).then(cardOfSaved), [id]);
  return <Loaded state={card}>{(c) => <Question key={id} card={c} />}</Loaded>;
}

/** The hash as of the last navigation to it (the page rewrites its own hash as a question runs, without remounting). */
function useNavigatedHash(): string {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return hash;
}

const BLANK: QuestionCard = { display: 'table', visualization_settings: {}, dataset_query: { database: null, type: 'query', query: {} } };

function NewQuestion() {
  const hash = useNavigatedHash();
  return <Question key={hash} card={cardOfHash(hash) ?? BLANK} />;
}

export default function QuestionPage({ params }: { params: { slug?: string } }) {
  const id = idOfSlug(params.slug);
  // Keyed by the path: coming from a saved question to a new one (same page component) starts afresh.
  const [location] = useLocation();
  if (params.slug !== undefined && Number.isNaN(id)) return <NotBuilt title="Not a question">This address names no question.</NotBuilt>;
  if (!Number.isNaN(id)) return <SavedQuestion id={id} />;
  return <NewQuestion key={location} />;
}
