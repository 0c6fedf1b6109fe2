// How a dashboard's cards run, and where their titles lead. A saved dashboard runs each dashcard with
// POST /api/dashboard/:id/dashcard/:dashcard-id/card/:card-id/query; an X-ray's cards are unsaved, so their
// `dataset_query` runs ad hoc with POST /api/dataset, the filter values riding along as `parameters` with the
// targets of the dashcard's mappings.

import { api } from '../../api/client';
import type { QueryResult } from '../../api/types';
import { modelUrl, newQuestionUrl, questionUrl } from '../../lib/urls';
import type { QueryParameter } from './parameters';
import type { Dashcard, DashcardCard } from './types';

export interface CardRunner {
  run(dashcard: Dashcard, card: DashcardCard, parameters: QueryParameter[], signal: AbortSignal): Promise<QueryResult>;
  /** The page a click on the card's title opens, with the filter values applied to it. */
  titleHref(card: DashcardCard, parameters: QueryParameter[]): string | null;
}

/** One id for the N requests of a page load (the server may reuse what it looked up for the first). */
function loadId(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;
}

/** A question opened with filter values: the card's query with them as `parameters`, as a new question's URL. */
function filteredQuestionUrl(card: DashcardCard, parameters: QueryParameter[]): string {
  const question = {
    dataset_query: { ...card.dataset_query, parameters },
    display: card.display ?? 'table',
    visualization_settings: card.visualization_settings ?? {},
    ...(typeof card.id === 'number' ? { original_card_id: card.id } : {}),
  };
  return newQuestionUrl(question);
}

const tagOf = (target: unknown): string | null => {
  const ref = Array.isArray(target) ? target[1] : null;
  return Array.isArray(ref) && ref[0] === 'template-tag' && typeof ref[1] === 'string' ? ref[1] : null;
};

/** A saved question's page; a native one takes filter values for its template tags in the URL (`?category=Gizmo`). */
function savedTitleHref(card: DashcardCard, parameters: QueryParameter[]): string | null {
  if (typeof card.id !== 'number') return null;
  const page = card.type === 'model' ? modelUrl(card.id, card.name) : questionUrl(card.id, card.name);
  if (parameters.length === 0) return page;
  if (card.dataset_query?.type === 'native' && parameters.every((p) => tagOf(p.target))) {
    const search = new URLSearchParams();
    for (const p of parameters) for (const v of Array.isArray(p.value) ? p.value : [p.value]) search.append(tagOf(p.target)!, String(v));
    return `${page}?${search}`;
  }
  return card.dataset_query ? filteredQuestionUrl(card, parameters) : page;
}

export function savedDashboardRunner(dashboardId: number): CardRunner {
  const dashboard_load_id = loadId();
  return {
    run: (dashcard, card, parameters, signal) =>
      api.post<QueryResult>(`/api/dashboard/${dashboardId}/dashcard/${dashcard.id}/card/${card.id}/query`, { parameters, dashboard_load_id }, { signal }),
    titleHref: savedTitleHref,
  };
}

export const adhocRunner: CardRunner = {
  run: (_dashcard, card, parameters, signal) => api.post<QueryResult>('/api/dataset', { ...card.dataset_query, ...(parameters.length ? { parameters } : {}) }, { signal }),
  titleHref: (card, parameters) => (card.dataset_query ? filteredQuestionUrl(card, parameters) : null),
};
