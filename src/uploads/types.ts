// Column types of an uploaded CSV, inferred from every value (Metabase's upload types): each value gets the
// narrowest type that reads it, and a column takes the narrowest type that reads all its non-empty values:
//   int → float → varchar_255 → text;  boolean → varchar_255;  date → datetime → varchar_255;
//   offset_datetime → varchar_255.  A column with no values at all is text.
// An integer beyond 64 bits is varchar_255: no integer column holds it and a float column would lose its digits.

export type UploadType = 'boolean' | 'int' | 'float' | 'date' | 'datetime' | 'offset_datetime' | 'varchar_255' | 'text';

const BOOLEAN = /^(true|false|yes|no|y|n|t|f)$/i;
const INT = /^[-+]?(\d+|\d{1,3}(,\d{3})+)$/;
const FLOAT = /^[-+]?((\d+|\d{1,3}(,\d{3})+)(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const OFFSET_DATETIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}(:?\d{2})?)$/i;

function validDate(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const INT64_MAX = 9_223_372_036_854_775_807n;
const INT64_MIN = -9_223_372_036_854_775_808n;

function fitsInt64(v: string): boolean {
  const n = BigInt(v.replace(/,/g, '').replace(/^\+/, ''));
  return n >= INT64_MIN && n <= INT64_MAX;
}

/** The narrowest type of one non-empty value. */
export function valueType(raw: string): UploadType {
  const v = raw.trim();
  if (BOOLEAN.test(v)) return 'boolean';
  if (INT.test(v)) return fitsInt64(v) ? 'int' : raw.length <= 255 ? 'varchar_255' : 'text';
  if (FLOAT.test(v)) return 'float';
  if (DATE.test(v) && validDate(v)) return 'date';
  if (DATETIME.test(v) && validDate(v)) return 'datetime';
  if (OFFSET_DATETIME.test(v) && validDate(v)) return 'offset_datetime';
  return raw.length <= 255 ? 'varchar_255' : 'text';
}

/** Each type's wider types, narrowest first. */
const WIDER: Record<UploadType, UploadType[]> = {
  boolean: ['boolean', 'varchar_255', 'text'],
  int: ['int', 'float', 'varchar_255', 'text'],
  float: ['float', 'varchar_255', 'text'],
  date: ['date', 'datetime', 'varchar_255', 'text'],
  datetime: ['datetime', 'varchar_255', 'text'],
  offset_datetime: ['offset_datetime', 'varchar_255', 'text'],
  varchar_255: ['varchar_255', 'text'],
  text: ['text'],
};

/** The narrowest type reading both. */
export function commonType(a: UploadType | null, b: UploadType): UploadType {
  if (a === null) return b;
  return WIDER[a].find((t) => WIDER[b].includes(t)) ?? 'text';
}

export function columnTypes(columnCount: number, rows: string[][]): UploadType[] {
  const types: Array<UploadType | null> = Array(columnCount).fill(null);
  for (const row of rows) {
    for (let i = 0; i < columnCount; i++) {
      const value = row[i];
      if (value === undefined || value.trim() === '') continue;
      types[i] = commonType(types[i], valueType(value));
    }
  }
  return types.map((t) => t ?? 'text');
}

/** A CSV value as the value to bind for a column of `type` (null for empty cells). */
export function parseValue(raw: string, type: UploadType): string | number | boolean | null {
  const v = raw.trim();
  if (v === '') return null;
  switch (type) {
    case 'boolean':
      return /^(true|yes|y|t)$/i.test(v);
    case 'int': {
      const n = Number(v.replace(/,/g, ''));
      return Number.isSafeInteger(n) ? n : v.replace(/,/g, '').replace(/^\+/, '');
    }
    case 'float':
      return Number(v.replace(/,/g, ''));
    case 'date':
      return v;
    case 'datetime':
      return v.replace(' ', 'T');
    case 'offset_datetime':
      return new Date(v.replace(' ', 'T').replace(/\s+/, '')).toISOString();
    default:
      return raw;
  }
}
