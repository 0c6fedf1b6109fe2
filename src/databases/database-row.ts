import type { Selectable } from 'kysely';
import type { MetabaseDatabaseTable, MetabaseFieldTable, MetabaseTableTable } from './tables.js';

export type DatabaseRow = Selectable<MetabaseDatabaseTable>;
export type TableRow = Selectable<MetabaseTableTable>;
export type FieldRow = Selectable<MetabaseFieldTable>;
