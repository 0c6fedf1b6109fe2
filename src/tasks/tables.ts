import type { Generated } from 'kysely';

export interface TaskLeaseTable {
  lease_key: string;
  owner: string;
  expires_at: number;
}

/** Metabase's `task_history`: one row per run of a background task. */
export interface TaskHistoryTable {
  id: Generated<number>;
  task: string;
  db_id: number | null;
  started_at: string;
  ended_at: string | null;
  duration: number | null;
  /** JSON */
  task_details: string | null;
  /** started | success | failed | unknown */
  status: string;
}

/** A claimed occurrence of a scheduled job (./scheduler.ts). */
export interface ScheduledOccurrenceTable {
  id: Generated<number>;
  job_kind: string;
  job_key: string;
  occurrence: string;
  /** running | retry | success | failed */
  status: string;
  owner: string | null;
  lease_expires_at: number | string | null;
  attempt: number;
  next_attempt_at: number | string | null;
  /** JSON */
  progress: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface TaskTables {
  task_lease: TaskLeaseTable;
  task_history: TaskHistoryTable;
  scheduled_occurrence: ScheduledOccurrenceTable;
}
