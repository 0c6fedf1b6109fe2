import type { Generated } from 'kysely';

/** One data permission of a group: database-level (no table) or table-level (its table and schema). */
export interface DataPermissionTable {
  id: Generated<number>;
  group_id: number;
  db_id: number;
  /** 'view-data' | 'create-queries' | 'download' | 'data-model' | 'details' */
  perm_type: string;
  /** The table's schema ('' when the database has none); null on database-level rows. */
  schema_name: string | null;
  table_id: number | null;
  perm_value: string;
}

export interface DataPermissionGraphRevisionTable {
  id: Generated<number>;
  before: string | null;
  after: string | null;
  user_id: number | null;
  remark: string | null;
  created_at: string;
}

export interface DataPermissionTables {
  data_permission: DataPermissionTable;
  data_permission_graph_revision: DataPermissionGraphRevisionTable;
}
