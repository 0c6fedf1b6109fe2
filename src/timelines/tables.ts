import type { Generated } from 'kysely';

export interface TimelineTable {
  id: Generated<number>;
  entity_id: string;
  name: string;
  description: string | null;
  icon: string;
  collection_id: number | null;
  default: boolean | number;
  archived: boolean | number;
  creator_id: number;
  created_at: string;
  updated_at: string;
}

export interface TimelineEventTable {
  id: Generated<number>;
  timeline_id: number;
  name: string;
  description: string | null;
  timestamp: string;
  time_matters: boolean | number;
  timezone: string;
  icon: string;
  archived: boolean | number;
  creator_id: number;
  created_at: string;
  updated_at: string;
}

export interface TimelineTables {
  timeline: TimelineTable;
  timeline_event: TimelineEventTable;
}
