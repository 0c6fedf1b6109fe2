import type { Generated } from 'kysely';

export interface CollectionTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  entity_id: string;
  slug: string;
  /** Materialized path of ancestor ids: "/" at the root, "/1/2/" for a grandchild of 1 → 2. */
  location: string;
  personal_owner_id: number | null;
  namespace: string | null;
  authority_level: string | null;
  type: string | null;
  archived: boolean | number;
  archived_directly: boolean | number | null;
  archive_operation_id: string | null;
  is_sample: boolean | number;
  created_at: string;
}

export interface CollectionTables {
  collection: CollectionTable;
}
