// PostgreSQL type names (pg_type.typname) → Metabase base types, and the OIDs of the built-in types so result
// columns can be named without a catalog lookup.

const BASE_TYPES: Record<string, string> = {
  int8: 'type/BigInteger', bigserial: 'type/BigInteger', serial8: 'type/BigInteger',
  int4: 'type/Integer', serial: 'type/Integer', serial4: 'type/Integer', int2: 'type/Integer', smallserial: 'type/Integer', oid: 'type/Integer',
  numeric: 'type/Decimal', money: 'type/Decimal',
  float4: 'type/Float', float8: 'type/Float',
  bool: 'type/Boolean', bit: 'type/*', varbit: 'type/*',
  varchar: 'type/Text', text: 'type/Text', bpchar: 'type/Text', char: 'type/Text', name: 'type/Text', citext: 'type/Text',
  uuid: 'type/UUID',
  json: 'type/JSON', jsonb: 'type/JSON', xml: 'type/Structured',
  inet: 'type/IPAddress', cidr: 'type/IPAddress',
  date: 'type/Date',
  time: 'type/Time', timetz: 'type/TimeWithLocalTZ',
  timestamp: 'type/DateTime', timestamptz: 'type/DateTimeWithLocalTZ',
  interval: 'type/*', bytea: 'type/*',
};

export function postgresBaseType(typname: string, typtype?: string | null): string {
  if (typname.startsWith('_')) return 'type/Array';
  if (typtype === 'e') return 'type/PostgresEnum';
  return BASE_TYPES[typname] ?? 'type/*';
}

export const OID_NAMES: Record<number, string> = {
  16: 'bool', 17: 'bytea', 18: 'char', 19: 'name', 20: 'int8', 21: 'int2', 23: 'int4', 25: 'text', 26: 'oid',
  114: 'json', 142: 'xml', 650: 'cidr', 700: 'float4', 701: 'float8', 790: 'money', 829: 'macaddr', 869: 'inet',
  1042: 'bpchar', 1043: 'varchar', 1082: 'date', 1083: 'time', 1114: 'timestamp', 1184: 'timestamptz',
  1186: 'interval', 1266: 'timetz', 1560: 'bit', 1562: 'varbit', 1700: 'numeric', 2950: 'uuid', 3802: 'jsonb',
  1000: '_bool', 1005: '_int2', 1007: '_int4', 1016: '_int8', 1009: '_text', 1015: '_varchar', 1021: '_float4',
  1022: '_float8', 1231: '_numeric', 199: '_json', 3807: '_jsonb', 2951: '_uuid', 1182: '_date', 1115: '_timestamp',
  1185: '_timestamptz',
};

export const OID = {
  bytea: 17, int8: 20, json: 114, money: 790, date: 1082, time: 1083, timestamp: 1114, timestamptz: 1184, interval: 1186,
  timetz: 1266, numeric: 1700, jsonb: 3802,
} as const;
