// The shapes of a native (SQL) question, as Metabase's API writes them (reference §6): the dataset query, its
// template tags and the parameters a run sends.

export type TagType = 'text' | 'number' | 'date' | 'dimension' | 'snippet' | 'card';

export interface TemplateTag {
  id: string;
  name: string;
  'display-name': string;
  type: TagType;
  /** Field filters: the field the widget filters on, `["field", id, null]`. */
  dimension?: ['field', number, null];
  /** Field filters: how the value is chosen (`category`, `string/=`, `number/=`, `date/single`, …). */
  'widget-type'?: string;
  required?: boolean;
  default?: unknown;
  'snippet-name'?: string;
  'snippet-id'?: number;
  'card-id'?: number;
}

export type TemplateTags = Record<string, TemplateTag>;

export interface NativeDatasetQuery {
  database: number | null;
  type: 'native';
  native: { query: string; 'template-tags': TemplateTags };
}

/** A native question being edited: saved (with an id) or new (decoded from `/question#<base64>`). */
export interface NativeCard {
  id?: number;
  name?: string;
  description?: string | null;
  collection_id?: number | null;
  dataset_query: NativeDatasetQuery;
  display: string;
  visualization_settings: Record<string, unknown>;
}

/** A value typed into a tag's widget; empty means "not set". */
export type TagValues = Record<string, string | string[]>;

export interface RunParameter {
  id: string;
  type: string;
  target: ['variable', ['template-tag', string]] | ['dimension', ['template-tag', string]];
  value: unknown;
}

export interface Snippet {
  id: number;
  name: string;
  description: string | null;
  content: string;
}
