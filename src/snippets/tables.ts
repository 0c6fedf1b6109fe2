import type { Generated } from 'kysely';

export interface NativeQuerySnippetTable {
  id: Generated<number>;
  entity_id: string;
  name: string;
  description: string | null;
  content: string;
  /** The tags of `content` as JSON (`{}` when none). */
  template_tags: string | null;
  collection_id: number | null;
  creator_id: number;
  archived: boolean | number;
  created_at: string;
  updated_at: string;
}

export interface SnippetTables {
  native_query_snippet: NativeQuerySnippetTable;
}
