// The shapes of Quarry's (Metabase's) API answers the app reads. Only the keys the app uses are listed.

import type { DetailsField } from '@quarry-src/drivers/engines.js';

export interface SessionProperties {
  'has-user-setup': boolean;
  'setup-token'?: string | null;
  'site-name'?: string | null;
  'site-url'?: string | null;
  'report-timezone'?: string | null;
  'start-of-week'?: string | null;
  'custom-formatting'?: Record<string, Record<string, unknown>> | null;
  'enable-public-sharing'?: boolean;
  'enable-embedding-static'?: boolean;
  engines?: Record<string, { 'driver-name'?: string; 'details-fields'?: DetailsField[] }>;
  version?: { tag?: string };
  [key: string]: unknown;
}

export interface CurrentUser {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  common_name: string | null;
  is_superuser: boolean;
  personal_collection_id: number | null;
}

export interface Column {
  name: string;
  display_name: string;
  base_type: string;
  effective_type?: string;
  semantic_type?: string | null;
  unit?: string;
  [key: string]: unknown;
}

/** `data` of a query result (POST /api/card/:id/query, /api/dataset, public and embed queries). */
export interface ResultData {
  cols: Column[];
  rows: unknown[][];
  native_form?: { query: string } | null;
  results_timezone?: string;
  rows_truncated?: number;
}

export interface QueryResult {
  status: 'completed' | 'failed' | string;
  row_count?: number;
  data: ResultData;
  error?: string;
  json_query?: unknown;
}

export type VisualizationSettings = Record<string, unknown>;

export interface Card {
  id: number;
  name: string;
  description: string | null;
  display: string;
  visualization_settings: VisualizationSettings;
  collection_id: number | null;
  dataset_query?: unknown;
  parameters?: Parameter[];
  [key: string]: unknown;
}

export interface Parameter {
  id: string;
  name: string;
  slug: string;
  type: string;
  default?: unknown;
  required?: boolean;
  [key: string]: unknown;
}

export interface Collection {
  id: number | 'root';
  name: string;
  description?: string | null;
  location?: string;
  archived?: boolean;
  personal_owner_id?: number | null;
  can_write?: boolean;
  effective_ancestors?: Array<{ id: number | 'root'; name: string }>;
  [key: string]: unknown;
}

export interface Database {
  id: number;
  name: string;
  engine: string;
  is_sample?: boolean;
  description?: string | null;
  tables?: Table[];
  [key: string]: unknown;
}

export interface Table {
  id: number;
  db_id: number;
  name: string;
  display_name: string;
  schema: string | null;
  description?: string | null;
  visibility_type?: string | null;
  [key: string]: unknown;
}

/** One field of an engine's connection form (`engines` in the session properties): the server's own type. */
export type { DetailsField } from '@quarry-src/drivers/engines.js';
