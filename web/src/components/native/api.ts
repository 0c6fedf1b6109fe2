// The API calls of the SQL editor: databases, autocomplete, snippets, field values, running and saving.

import { api } from '../../api/client';
import type { Card, Database, QueryResult } from '../../api/types';
import type { NativeCard, NativeDatasetQuery, RunParameter, Snippet } from './types';

export interface DatabaseMetadata extends Omit<Database, 'tables'> {
  tables: Array<{ id: number; name: string; display_name: string; schema: string | null; fields: Array<{ id: number; name: string; display_name: string; base_type: string }> }>;
}

export const nativeApi = {
  databases: (signal: AbortSignal) => api.get<{ data: Database[] }>('/api/database', { signal }).then((r) => r.data),
  metadata: (id: number, signal: AbortSignal) => api.get<DatabaseMetadata>(`/api/database/${id}/metadata`, { signal }),
  /** `[name, "Table"]` or `[name, "TABLE :type/…"]` pairs whose name contains `substring`. */
  suggestions: (id: number, substring: string, signal?: AbortSignal) => api.get<Array<[string, string]>>(`/api/database/${id}/autocomplete_suggestions`, { signal, query: { substring } }),
  snippets: (signal: AbortSignal) => api.get<Snippet[]>('/api/native-query-snippet', { signal }),
  fieldValues: (id: number, signal: AbortSignal) => api.get<{ values: unknown[][]; has_more_values?: boolean }>(`/api/field/${id}/values`, { signal }),
  collections: (signal: AbortSignal) => api.get<Array<{ id: number | 'root'; name: string; can_write?: boolean; archived?: boolean; personal_owner_id?: number | null }>>('/api/collection', { signal }),
  /** Runs the query; aborting `signal` closes the request, and the server stops the query when the client goes away. */
  run: (query: NativeDatasetQuery, parameters: RunParameter[], signal: AbortSignal) => api.post<QueryResult>('/api/dataset', { ...query, parameters }, { signal }),
  save: (card: NativeCard & { name: string; collection_id: number | null }) => {
    const body = { name: card.name, description: card.description ?? null, collection_id: card.collection_id, dataset_query: card.dataset_query, display: card.display, visualization_settings: card.visualization_settings };
    return card.id === undefined ? api.post<Card>('/api/card', body) : api.put<Card>(`/api/card/${card.id}`, body);
  },
};
