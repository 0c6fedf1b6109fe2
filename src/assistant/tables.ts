import type { Generated } from 'kysely';

export interface AssistantFeedbackTable {
  id: Generated<number>;
  user_id: number | null;
  entity_type: string | null;
  feedback_type: string | null;
  prompt: string | null;
  sql: string | null;
  /** JSON array of strings. */
  prompt_template_versions: string | null;
  /** The body as received, JSON. */
  body: string;
  created_at: string;
}

export interface AssistantTables {
  assistant_feedback: AssistantFeedbackTable;
}
