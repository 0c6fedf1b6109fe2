// What the builder knows of the data: databases with their tables, a table's fields, a field's values.

import { api } from '../../api/client';
import type { Database, Table } from '../../api/types';

export interface FieldMeta {
  id: number;
  name: string;
  display_name: string;
  base_type: string;
  effective_type?: string;
  semantic_type?: string | null;
  has_field_values?: string | null;
}

export interface TableMeta extends Table {
  fields: FieldMeta[];
}

export const loadDatabases = (signal: AbortSignal) =>
  api.get<{ data: Database[] }>('/api/database', { signal, query: { include: 'tables' } }).then((r) => r.data);

export const loadTable = (id: number, signal?: AbortSignal) => api.get<TableMeta>(`/api/table/${id}/query_metadata`, { signal });

/** A field's distinct values when the server keeps a list of them (`has_field_values: list`), else null. */
export async function loadFieldValues(field: FieldMeta, signal?: AbortSignal): Promise<string[] | null> {
  if (field.has_field_values !== 'list' && field.has_field_values !== 'auto-list') return null;
  const answer = await api.get<{ values: unknown[][] }>(`/api/field/${field.id}/values`, { signal });
  return answer.values.map((v) => String(Array.isArray(v) ? v[0] : v));
}

const typeOf = (f: FieldMeta) => f.effective_type ?? f.base_type;
export const isTemporal = (f: FieldMeta) => /Date|Time/.test(typeOf(f)) && !/^type\/Time$/.test(typeOf(f));
export const isNumeric = (f: FieldMeta) => /Integer|Float|Decimal|Number|BigInteger/.test(typeOf(f)) && f.semantic_type !== 'type/PK' && f.semantic_type !== 'type/FK';
export const isText = (f: FieldMeta) => /Text|String/.test(typeOf(f));

export const fieldOptions = (fields: FieldMeta[], keep: (f: FieldMeta) => boolean = () => true) =>
  fields.filter(keep).map((f) => ({ value: String(f.id), label: f.display_name }));
