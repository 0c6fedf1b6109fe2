// App-DB table of model persistence (migration 0091), Metabase's `persisted_info`.
import type { Generated } from 'kysely';

/** creating → refreshing → persisted | error; off (the model opted out); deletable (its database or the site did). */
export type PersistedState = 'creating' | 'refreshing' | 'persisted' | 'error' | 'off' | 'deletable';

export interface PersistedInfoTable {
  id: Generated<number>;
  database_id: number;
  card_id: number | null;
  question_slug: string;
  table_name: string;
  /** JSON: {"table-name", "field-definitions": [{"field-name", "base-type"}]}. */
  definition: string | null;
  query_hash: string | null;
  /** A complete table matching `definition` and `query_hash` is there to be read. */
  active: boolean | number;
  state: string;
  refresh_begin: string;
  refresh_end: string | null;
  state_change_at: string | null;
  error: string | null;
  created_at: string;
  creator_id: number | null;
}

export interface PersistenceTables {
  persisted_info: PersistedInfoTable;
}
