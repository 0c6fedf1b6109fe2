import type { Generated } from 'kysely';

export interface RevisionTable {
  id: Generated<number>;
  /** Metabase's model name: 'Card', 'Dashboard', … */
  model: string;
  model_id: number;
  user_id: number;
  timestamp: string;
  /** JSON snapshot of the object as saved */
  object: string;
  is_reversion: boolean | number;
  is_creation: boolean | number;
  message: string | null;
  most_recent: boolean | number;
  metabase_version: string | null;
}

export interface RevisionTables {
  revision: RevisionTable;
}
