import type { Generated } from 'kysely';

export interface BookmarkTable {
  id: Generated<number>;
  user_id: number;
  /** 'card' | 'dashboard' | 'collection' | 'snippet' */
  model: string;
  model_id: number;
  ordering: number | null;
  created_at: string;
}

export interface BookmarkTables {
  bookmark: BookmarkTable;
}
