// DuckDB type names (as duckdb_columns().data_type and DuckDBType.toString() spell them) → Metabase base types.

export function duckdbBaseType(typeName: string): string {
  const t = typeName.toUpperCase().trim();
  if (t.endsWith(']')) return 'type/Array';
  if (t.startsWith('STRUCT') || t.startsWith('MAP') || t.startsWith('UNION')) return 'type/Dictionary';
  if (t.startsWith('DECIMAL') || t.startsWith('NUMERIC')) return 'type/Decimal';
  if (t.startsWith('ENUM')) return 'type/Text';
  switch (t) {
    case 'BIGINT': case 'INT8': case 'LONG': case 'HUGEINT': case 'UBIGINT': case 'UHUGEINT': case 'INT128':
      return 'type/BigInteger';
    case 'INTEGER': case 'INT': case 'INT4': case 'SMALLINT': case 'INT2': case 'TINYINT': case 'INT1':
    case 'UINTEGER': case 'USMALLINT': case 'UTINYINT':
      return 'type/Integer';
    case 'DOUBLE': case 'FLOAT8': case 'FLOAT': case 'FLOAT4': case 'REAL':
      return 'type/Float';
    case 'VARCHAR': case 'TEXT': case 'STRING': case 'CHAR': case 'BPCHAR':
      return 'type/Text';
    case 'JSON':
      return 'type/JSON';
    case 'UUID':
      return 'type/UUID';
    case 'BOOLEAN': case 'BOOL':
      return 'type/Boolean';
    case 'DATE':
      return 'type/Date';
    case 'TIME':
      return 'type/Time';
    case 'TIME WITH TIME ZONE': case 'TIMETZ':
      return 'type/TimeWithLocalTZ';
    case 'TIMESTAMP': case 'DATETIME': case 'TIMESTAMP_S': case 'TIMESTAMP_MS': case 'TIMESTAMP_NS':
      return 'type/DateTime';
    case 'TIMESTAMP WITH TIME ZONE': case 'TIMESTAMPTZ':
      return 'type/DateTimeWithLocalTZ';
    default:
      return 'type/*';
  }
}
