import type { Generated } from 'kysely';

export interface SegmentTable {
  id: Generated<number>;
  entity_id: string;
  name: string;
  description: string | null;
  table_id: number;
  /** JSON: {"source-table": table_id, "filter": <MBQL filter>} */
  definition: string;
  archived: boolean | number;
  caveats: string | null;
  points_of_interest: string | null;
  show_in_getting_started: boolean | number;
  creator_id: number;
  created_at: string;
  updated_at: string;
}

export interface SegmentTables {
  segment: SegmentTable;
}
