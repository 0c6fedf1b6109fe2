// SQLite declared column types → Metabase base types. SQLite stores values by affinity, so like SQLite itself we
// go by what the declared type name contains; temporal names are checked first ("DATETIME" has no "INT").

export function sqliteBaseType(declared: string | null | undefined): string {
  const t = (declared ?? '').toUpperCase().trim();
  if (t === '') return 'type/*';
  if (/^(TIMESTAMP|DATETIME)/.test(t)) return /WITH TIME ZONE|TZ/.test(t) ? 'type/DateTimeWithLocalTZ' : 'type/DateTime';
  if (t === 'DATE') return 'type/Date';
  if (/^TIME\b/.test(t)) return 'type/Time';
  if (/BOOL/.test(t)) return 'type/Boolean';
  if (/BIGINT|INT8|UNSIGNED BIG INT/.test(t)) return 'type/BigInteger';
  if (/INT/.test(t)) return 'type/Integer';
  if (/JSON/.test(t)) return 'type/Text';
  if (/UUID/.test(t)) return 'type/Text';
  if (/CHAR|CLOB|TEXT|STRING/.test(t)) return 'type/Text';
  if (/REAL|FLOA|DOUB/.test(t)) return 'type/Float';
  if (/NUMERIC|DECIMAL|MONEY/.test(t)) return 'type/Decimal';
  if (/BLOB|BINARY/.test(t)) return 'type/*';
  return 'type/*';
}

export type SqliteValueKind = 'boolean' | 'timestamp' | 'plain';

export function sqliteValueKind(declared: string | null | undefined): SqliteValueKind {
  const base = sqliteBaseType(declared);
  if (base === 'type/Boolean') return 'boolean';
  if (base === 'type/DateTime' || base === 'type/DateTimeWithLocalTZ') return 'timestamp';
  return 'plain';
}
