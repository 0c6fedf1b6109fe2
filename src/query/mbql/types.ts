// The canonical query shapes every stage after normalization works with: legacy MBQL ("MBQL 4", reference §5) for
// structured queries and the native shape of §6. Clauses stay JSON arrays (`["field", 12, {...}]`), as clients send
// them; ./clauses.ts has the helpers to read them.

export type Clause = [string, ...any[]];

export interface FieldOptions {
  'base-type'?: string;
  'effective-type'?: string;
  'temporal-unit'?: string;
  binning?: { strategy: 'num-bins' | 'bin-width' | 'default'; 'num-bins'?: number; 'bin-width'?: number };
  'join-alias'?: string;
  'source-field'?: number | string;
  'original-temporal-unit'?: string;
  [key: string]: unknown;
}

export type FieldRef = ['field', number | string, FieldOptions | null];

export interface Page {
  page: number;
  items: number;
}

export interface Join {
  'source-table'?: number | string;
  'source-query'?: MbqlQuery | NativeSource;
  alias?: string;
  condition?: Clause;
  strategy?: 'left-join' | 'right-join' | 'inner-join' | 'full-join';
  fields?: 'all' | 'none' | Clause[];
  'source-metadata'?: ColumnMetadata[];
  /** Set by the resolve stage when the join's source is a saved question. */
  'source-card-id'?: number;
  /** Set by the expand stage on implicit joins: the FK field the join follows (`source-field` refs). */
  'fk-field-id'?: number | string;
}

export interface MbqlQuery {
  'source-table'?: number | string;
  'source-query'?: MbqlQuery | NativeSource;
  'source-metadata'?: ColumnMetadata[];
  aggregation?: Clause[];
  breakout?: Clause[];
  expressions?: Record<string, unknown>;
  fields?: Clause[];
  filter?: Clause;
  'order-by'?: Clause[];
  limit?: number;
  page?: Page;
  joins?: Join[];
  /** Set by the resolve stage: the saved question this stage's source came from. */
  'source-card-id'?: number;
  [key: string]: unknown;
}

export interface NativeSource {
  native: string;
  'template-tags'?: Record<string, TemplateTag>;
  /** Values bound to the SQL's placeholders (a compiled card source). */
  params?: unknown[];
  /** Set by the resolve stage when this source is a saved question's. */
  'source-card-id'?: number;
}

export interface TemplateTag {
  id?: string;
  name: string;
  'display-name'?: string;
  type: string;
  required?: boolean;
  default?: unknown;
  dimension?: Clause;
  'widget-type'?: string;
  options?: Record<string, unknown> | null;
  'snippet-name'?: string;
  'snippet-id'?: number;
  'card-id'?: number;
  alias?: string;
  [key: string]: unknown;
}

export interface NativeQuery {
  query: string;
  'template-tags'?: Record<string, TemplateTag>;
  collection?: string;
  [key: string]: unknown;
}

export interface Parameter {
  id?: string;
  type: string;
  target?: unknown[];
  value?: unknown;
  default?: unknown;
  slug?: string;
  name?: string;
  options?: Record<string, unknown> | null;
  [key: string]: unknown;
}

export interface Constraints {
  'max-results'?: number;
  'max-results-bare-rows'?: number;
}

export interface DatasetQuery {
  database: number | null;
  type: 'query' | 'native';
  query?: MbqlQuery;
  native?: NativeQuery;
  parameters?: Parameter[];
  constraints?: Constraints;
  middleware?: Record<string, unknown>;
  info?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A result column's metadata as stored on cards (`result_metadata`) and sent as `source-metadata`. */
export interface ColumnMetadata {
  name: string;
  display_name?: string;
  base_type?: string;
  effective_type?: string;
  semantic_type?: string | null;
  id?: number | null;
  field_ref?: unknown;
  unit?: string;
  description?: string | null;
  [key: string]: unknown;
}

export const SAVED_QUESTIONS_DATABASE = -1337;
