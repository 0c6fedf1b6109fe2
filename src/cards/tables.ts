import type { Generated } from 'kysely';

export interface ReportCardTable {
  id: Generated<number>;
  entity_id: string;
  name: string;
  description: string | null;
  display: string;
  /** 'question' | 'model' | 'metric' */
  type: string;
  /** 'query' | 'native', derived from dataset_query.type */
  query_type: string | null;
  /** JSON */
  dataset_query: string;
  /** JSON */
  visualization_settings: string;
  /** JSON array */
  parameters: string | null;
  /** JSON array */
  parameter_mappings: string | null;
  /** JSON array of column metadata */
  result_metadata: string | null;
  database_id: number | null;
  table_id: number | null;
  source_card_id: number | null;
  collection_id: number | null;
  collection_position: number | null;
  collection_preview: boolean | number;
  dashboard_id: number | null;
  creator_id: number;
  made_public_by_id: number | null;
  public_uuid: string | null;
  enable_embedding: boolean | number;
  /** JSON */
  embedding_params: string | null;
  initially_published_at: string | null;
  cache_ttl: number | null;
  cache_invalidated_at: string | null;
  archived: boolean | number;
  archived_directly: boolean | number;
  card_schema: number;
  metabase_version: string | null;
  view_count: number;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CardTables {
  report_card: ReportCardTable;
}
