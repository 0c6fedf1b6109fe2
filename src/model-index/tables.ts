import type { Generated } from 'kysely';

export interface ModelIndexTable {
  id: Generated<number>;
  model_id: number;
  /** JSON field refs of the model's primary key and indexed text column. */
  pk_ref: string;
  value_ref: string;
  /** initial | indexed | overflow | error */
  state: string;
  error: string | null;
  generation: Generated<number>;
  creator_id: number;
  created_at: string;
  indexed_at: string | null;
}

export interface ModelIndexValueTable {
  id: Generated<number>;
  model_index_id: number;
  model_pk: number | string;
  name: string;
}

export interface ModelIndexTables {
  model_index: ModelIndexTable;
  model_index_value: ModelIndexValueTable;
}
