// The question a page shows: a saved card, or a new one carried in the URL hash (`/question#<base64 JSON>`).

import type { Card, Parameter, VisualizationSettings } from '../../api/types';
import { textOfBase64 } from '../../lib/urls';

export interface DatasetQuery {
  database: number | null;
  type: 'query' | 'native' | string;
  query?: Record<string, unknown>;
  native?: Record<string, unknown>;
  [key: string]: unknown;
}

/** What the page needs of a question, saved or not. */
export interface QuestionCard {
  id?: number;
  name?: string;
  type?: string;
  display: string;
  visualization_settings: VisualizationSettings;
  dataset_query: DatasetQuery;
  parameters?: Parameter[];
  collection_id?: number | null;
  description?: string | null;
  /** The saved question this new one was opened from (a dashboard card with its filters), as Metabase keeps it. */
  original_card_id?: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The new question in a URL hash, or null when the hash isn't one (empty, not base64, not JSON, no query). */
export function cardOfHash(hash: string): QuestionCard | null {
  const text = hash.replace(/^#/, '');
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(textOfBase64(decodeURIComponent(text)));
    if (!isRecord(value) || !isRecord(value.dataset_query)) return null;
    return {
      display: typeof value.display === 'string' ? value.display : 'table',
      visualization_settings: isRecord(value.visualization_settings) ? value.visualization_settings : {},
      dataset_query: value.dataset_query as DatasetQuery,
      ...(typeof value.name === 'string' ? { name: value.name } : {}),
      ...(typeof value.original_card_id === 'number' ? { original_card_id: value.original_card_id } : {}),
    };
  } catch {
    return null;
  }
}

export function cardOfSaved(card: Card): QuestionCard {
  return {
    id: card.id,
    name: card.name,
    type: typeof card.type === 'string' ? card.type : undefined,
    display: card.display,
    visualization_settings: card.visualization_settings ?? {},
    dataset_query: (card.dataset_query ?? { database: null, type: 'query', query: {} }) as DatasetQuery,
    parameters: card.parameters ?? [],
    collection_id: card.collection_id,
    description: card.description,
  };
}
