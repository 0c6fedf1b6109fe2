import type { Generated } from 'kysely';

export interface RecentViewsTable {
  id: Generated<number>;
  user_id: number;
  /** 'card' | 'dataset' | 'metric' | 'dashboard' | 'table' | 'collection' | … */
  model: string;
  model_id: number;
  /** 'view' | 'selection' */
  context: string;
  timestamp: string;
}

export interface ViewLogTable {
  id: Generated<number>;
  user_id: number | null;
  model: string;
  model_id: number;
  timestamp: string;
}

export interface ActivityTables {
  recent_views: RecentViewsTable;
  view_log: ViewLogTable;
}
