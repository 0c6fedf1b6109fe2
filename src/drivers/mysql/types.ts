// MySQL/MariaDB column types (information_schema DATA_TYPE / COLUMN_TYPE) → Metabase base types.

const BASE_TYPES: Record<string, string> = {
  bigint: 'type/BigInteger', int: 'type/Integer', integer: 'type/Integer', mediumint: 'type/Integer', smallint: 'type/Integer',
  tinyint: 'type/Integer', year: 'type/Date',
  decimal: 'type/Decimal', numeric: 'type/Decimal', float: 'type/Float', double: 'type/Float', real: 'type/Float',
  char: 'type/Text', varchar: 'type/Text', tinytext: 'type/Text', text: 'type/Text', mediumtext: 'type/Text', longtext: 'type/Text',
  enum: 'type/MySQLEnum', set: 'type/Text', json: 'type/JSON', uuid: 'type/UUID', inet4: 'type/IPAddress', inet6: 'type/IPAddress',
  date: 'type/Date', datetime: 'type/DateTime', timestamp: 'type/DateTimeWithLocalTZ', time: 'type/Time',
  bit: 'type/Boolean', bool: 'type/Boolean', boolean: 'type/Boolean',
};

/** `columnType` is the full COLUMN_TYPE (e.g. "tinyint(1)"), which tells booleans apart from small integers. */
export function mysqlBaseType(dataType: string, columnType = ''): string {
  const t = dataType.toLowerCase();
  if (t === 'tinyint' && /^tinyint\(1\)/i.test(columnType)) return 'type/Boolean';
  if (t === 'bit' && !/^bit(\(1\))?$/i.test(columnType || 'bit')) return 'type/*';
  return BASE_TYPES[t] ?? 'type/*';
}

/** The database type name shown for a column, the way JDBC names it (tinyint(1) reads as BIT). */
export function mysqlDatabaseType(dataType: string, columnType = ''): string {
  if (dataType.toLowerCase() === 'tinyint' && /^tinyint\(1\)/i.test(columnType)) return 'BIT';
  return dataType.toUpperCase() + (/unsigned/i.test(columnType) ? ' UNSIGNED' : '');
}

/** Protocol column types (mysql2 field.type) → [database type, base type] for result columns. */
export function mysqlResultType(type: string, length: number, binary: boolean): [string, string] {
  switch (type) {
    case 'TINY':
      return length === 1 ? ['BIT', 'type/Boolean'] : ['TINYINT', 'type/Integer'];
    case 'SHORT':
      return ['SMALLINT', 'type/Integer'];
    case 'INT24':
      return ['MEDIUMINT', 'type/Integer'];
    case 'LONG':
      return ['INT', 'type/Integer'];
    case 'LONGLONG':
      return ['BIGINT', 'type/BigInteger'];
    case 'DECIMAL':
    case 'NEWDECIMAL':
      return ['DECIMAL', 'type/Decimal'];
    case 'FLOAT':
      return ['FLOAT', 'type/Float'];
    case 'DOUBLE':
      return ['DOUBLE', 'type/Float'];
    case 'DATE':
    case 'NEWDATE':
      return ['DATE', 'type/Date'];
    case 'DATETIME':
    case 'DATETIME2':
      return ['DATETIME', 'type/DateTime'];
    case 'TIMESTAMP':
    case 'TIMESTAMP2':
      return ['TIMESTAMP', 'type/DateTimeWithLocalTZ'];
    case 'TIME':
    case 'TIME2':
      return ['TIME', 'type/Time'];
    case 'YEAR':
      return ['YEAR', 'type/Integer'];
    case 'JSON':
      return ['JSON', 'type/JSON'];
    case 'BIT':
      return ['BIT', length === 1 ? 'type/Boolean' : 'type/*'];
    case 'TINY_BLOB':
    case 'MEDIUM_BLOB':
    case 'LONG_BLOB':
    case 'BLOB':
      return binary ? ['BLOB', 'type/*'] : ['TEXT', 'type/Text'];
    case 'VAR_STRING':
    case 'VARCHAR':
      return binary ? ['VARBINARY', 'type/*'] : ['VARCHAR', 'type/Text'];
    case 'STRING':
      return binary ? ['BINARY', 'type/*'] : ['CHAR', 'type/Text'];
    case 'ENUM':
    case 'SET':
      return [type, 'type/Text'];
    default:
      return [type, 'type/*'];
  }
}
