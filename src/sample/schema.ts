// The eight tables of the sample database: columns in Metabase's order, keys, and each column's type per engine.
// Rows produced by ./generate.ts are arrays in this column order; timestamp columns hold epoch milliseconds (UTC
// wall-clock, no zone), date columns "YYYY-MM-DD" strings.

export type SampleEngine = 'sqlite' | 'postgres' | 'mysql' | 'duckdb';
// varchar2000: REVIEWS.BODY, a CHARACTER VARYING in H2 whose description says "limited to 2000 characters" (its
// texts run past 255, the others' bound elsewhere).
export type ColumnKind = 'bigint' | 'integer' | 'smallint' | 'double' | 'varchar' | 'varchar2000' | 'char2' | 'char5' | 'char13' | 'clob' | 'timestamp' | 'date' | 'boolean';

export interface SampleColumn {
  name: string;
  kind: ColumnKind;
  notNull?: boolean;
  primaryKey?: boolean;
  /** Declared auto-increment (the four e-commerce tables). */
  autoIncrement?: boolean;
  references?: { table: string; column: string };
}

export interface SampleTable {
  name: string;
  columns: SampleColumn[];
}

// SQLite keeps the declared type names of Metabase's H2 sample, so database_type reads the same as Metabase's.
const TYPE_NAMES: Record<SampleEngine, Record<ColumnKind, string>> = {
  sqlite: {
    bigint: 'BIGINT', integer: 'INTEGER', smallint: 'SMALLINT', double: 'DOUBLE PRECISION', varchar: 'CHARACTER VARYING', varchar2000: 'CHARACTER VARYING',
    char2: 'CHARACTER(2)', char5: 'CHARACTER(5)', char13: 'CHARACTER(13)', clob: 'CHARACTER LARGE OBJECT',
    timestamp: 'TIMESTAMP', date: 'DATE', boolean: 'BOOLEAN',
  },
  postgres: {
    bigint: 'bigint', integer: 'integer', smallint: 'smallint', double: 'double precision', varchar: 'varchar(255)', varchar2000: 'varchar(2000)',
    char2: 'char(2)', char5: 'char(5)', char13: 'char(13)', clob: 'text', timestamp: 'timestamp(3)', date: 'date', boolean: 'boolean',
  },
  mysql: {
    bigint: 'BIGINT', integer: 'INT', smallint: 'SMALLINT', double: 'DOUBLE', varchar: 'VARCHAR(255)', varchar2000: 'VARCHAR(2000)',
    char2: 'CHAR(2)', char5: 'CHAR(5)', char13: 'CHAR(13)', clob: 'TEXT', timestamp: 'DATETIME(3)', date: 'DATE', boolean: 'BOOLEAN',
  },
  duckdb: {
    bigint: 'BIGINT', integer: 'INTEGER', smallint: 'SMALLINT', double: 'DOUBLE', varchar: 'VARCHAR', varchar2000: 'VARCHAR',
    char2: 'VARCHAR', char5: 'VARCHAR', char13: 'VARCHAR', clob: 'VARCHAR', timestamp: 'TIMESTAMP', date: 'DATE', boolean: 'BOOLEAN',
  },
};

export function columnType(engine: SampleEngine, column: SampleColumn): string {
  // MySQL and DuckDB want a foreign key's type to match the key it references exactly.
  if (column.references && (engine === 'mysql' || engine === 'duckdb')) return TYPE_NAMES[engine].bigint;
  return TYPE_NAMES[engine][column.kind];
}

const pk = (autoIncrement: boolean): SampleColumn => ({ name: 'ID', kind: 'bigint', notNull: true, primaryKey: true, autoIncrement });
const fk = (name: string, kind: ColumnKind, table: string, notNull = false): SampleColumn => ({ name, kind, notNull, references: { table, column: 'ID' } });
const col = (name: string, kind: ColumnKind, notNull = false): SampleColumn => ({ name, kind, notNull });

export const SAMPLE_TABLES: SampleTable[] = [
  {
    name: 'PRODUCTS',
    columns: [pk(true), col('EAN', 'char13'), col('TITLE', 'varchar'), col('CATEGORY', 'varchar'), col('VENDOR', 'varchar'), col('PRICE', 'double'), col('RATING', 'double'), col('CREATED_AT', 'timestamp')],
  },
  {
    name: 'PEOPLE',
    columns: [
      pk(true), col('ADDRESS', 'varchar'), col('EMAIL', 'varchar'), col('PASSWORD', 'varchar'), col('NAME', 'varchar'), col('CITY', 'varchar'),
      col('LONGITUDE', 'double'), col('STATE', 'char2'), col('SOURCE', 'varchar'), col('BIRTH_DATE', 'date'), col('ZIP', 'char5'),
      col('LATITUDE', 'double'), col('CREATED_AT', 'timestamp'),
    ],
  },
  {
    name: 'ORDERS',
    columns: [
      pk(true), fk('USER_ID', 'integer', 'PEOPLE'), fk('PRODUCT_ID', 'integer', 'PRODUCTS'), col('SUBTOTAL', 'double'), col('TAX', 'double'),
      col('TOTAL', 'double'), col('DISCOUNT', 'double'), col('CREATED_AT', 'timestamp'), col('QUANTITY', 'integer'),
    ],
  },
  {
    name: 'REVIEWS',
    columns: [pk(true), fk('PRODUCT_ID', 'integer', 'PRODUCTS'), col('REVIEWER', 'varchar'), col('RATING', 'smallint'), col('BODY', 'varchar2000'), col('CREATED_AT', 'timestamp')],
  },
  {
    name: 'ACCOUNTS',
    columns: [
      pk(false), col('EMAIL', 'varchar'), col('FIRST_NAME', 'varchar'), col('LAST_NAME', 'varchar'), col('PLAN', 'varchar'), col('SOURCE', 'varchar'),
      col('SEATS', 'integer'), col('CREATED_AT', 'timestamp'), col('TRIAL_ENDS_AT', 'timestamp'), col('CANCELED_AT', 'timestamp'),
      col('TRIAL_CONVERTED', 'boolean'), col('ACTIVE_SUBSCRIPTION', 'boolean'), col('LEGACY_PLAN', 'boolean'), col('LATITUDE', 'double'),
      col('LONGITUDE', 'double'), col('COUNTRY', 'char2'),
    ],
  },
  {
    name: 'ANALYTIC_EVENTS',
    columns: [pk(false), fk('ACCOUNT_ID', 'bigint', 'ACCOUNTS', true), col('EVENT', 'varchar', true), col('TIMESTAMP', 'timestamp', true), col('PAGE_URL', 'varchar'), col('BUTTON_LABEL', 'varchar')],
  },
  {
    name: 'FEEDBACK',
    columns: [pk(false), fk('ACCOUNT_ID', 'bigint', 'ACCOUNTS'), col('EMAIL', 'varchar'), col('DATE_RECEIVED', 'timestamp'), col('RATING', 'smallint'), col('RATING_MAPPED', 'varchar'), col('BODY', 'clob')],
  },
  {
    name: 'INVOICES',
    columns: [pk(false), fk('ACCOUNT_ID', 'bigint', 'ACCOUNTS', true), col('PAYMENT', 'double', true), col('EXPECTED_INVOICE', 'boolean', true), col('PLAN', 'varchar', true), col('DATE_RECEIVED', 'timestamp', true)],
  },
];

export function sampleTable(name: string): SampleTable {
  const table = SAMPLE_TABLES.find((t) => t.name === name);
  if (!table) throw new Error(`No sample table ${name}`);
  return table;
}

/** Row counts of the generated tables (Metabase's as shipped). */
export const SAMPLE_ROW_COUNTS: Record<string, number> = {
  PRODUCTS: 200,
  PEOPLE: 2500,
  ORDERS: 18760,
  REVIEWS: 1112,
  ACCOUNTS: 2495,
  ANALYTIC_EVENTS: 37169,
  FEEDBACK: 642,
  INVOICES: 13856,
};
