import type { Generated } from 'kysely';

export interface ActionTable {
  id: Generated<number>;
  entity_id: string;
  name: string;
  description: string | null;
  /** 'query' | 'implicit' | 'http' */
  type: string;
  model_id: number;
  /** Query actions: the database the SQL runs on. */
  database_id: number | null;
  /** Query actions: JSON of the native dataset_query. */
  dataset_query: string | null;
  /** Implicit actions: 'row/create' | 'row/update' | 'row/delete' | 'bulk/…'. */
  kind: string | null;
  /** HTTP actions: JSON `{method, url, body?, headers?, parameters?, parameter_mappings?}`. */
  template: string | null;
  response_handle: string | null;
  error_handle: string | null;
  /** JSON array */
  parameters: string | null;
  /** JSON map */
  parameter_mappings: string | null;
  /** JSON map */
  visualization_settings: string | null;
  archived: boolean | number;
  public_uuid: string | null;
  made_public_by_id: number | null;
  creator_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ActionTables {
  action: ActionTable;
}
