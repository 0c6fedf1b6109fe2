// Where an item of a collection, search result or activity list opens, by its `model`.

import { collectionUrl, dashboardUrl, databaseUrl, modelUrl, questionUrl, tableQuestionUrl } from './urls';

export interface ItemRef {
  model: string;
  id: number;
  name: string;
  description?: string | null;
  display?: string;
  /** Set when the item is pinned in its collection. */
  collection_position?: number | null;
  can_write?: boolean;
  can_restore?: boolean;
  can_delete?: boolean;
  database_id?: number | null;
  table_id?: number | null;
  db_id?: number | null;
}

export function itemUrl(item: ItemRef): string | null {
  switch (item.model) {
    case 'card':
    case 'metric':
      return questionUrl(item.id, item.name);
    case 'dataset':
      return modelUrl(item.id, item.name);
    case 'dashboard':
      return dashboardUrl(item.id, item.name);
    case 'collection':
      return collectionUrl(item.id, item.name);
    case 'database':
      return databaseUrl(item.id, item.name);
    case 'table': {
      const db = item.database_id ?? item.db_id;
      return db ? tableQuestionUrl(db, item.id) : null;
    }
    default:
      return null;
  }
}

const LABELS: Record<string, string> = {
  card: 'Question',
  metric: 'Metric',
  dataset: 'Model',
  dashboard: 'Dashboard',
  collection: 'Collection',
  database: 'Database',
  table: 'Table',
  segment: 'Segment',
  action: 'Action',
  'indexed-entity': 'Record',
  snippet: 'Snippet',
  document: 'Document',
};

export const modelLabel = (model: string) => LABELS[model] ?? model;
