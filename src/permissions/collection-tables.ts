import type { Generated } from 'kysely';

export interface CollectionPermissionTable {
  id: Generated<number>;
  group_id: number;
  /** null: the root collection of `namespace` */
  collection_id: number | null;
  namespace: string | null;
  /** 'read' | 'write' */
  perm: string;
}

export interface CollectionPermissionGraphRevisionTable {
  id: Generated<number>;
  namespace: string | null;
  before: string | null;
  after: string | null;
  user_id: number | null;
  remark: string | null;
  created_at: string;
}

export interface CollectionPermissionTables {
  collection_permission: CollectionPermissionTable;
  collection_permission_graph_revision: CollectionPermissionGraphRevisionTable;
}
