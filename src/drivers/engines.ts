// What each engine looks like to clients: the `engines` map of /api/session/properties, from which the UI builds
// the "add a database" form. Only the fields listed here are accepted in a database's `details` (see each driver).

export interface DetailsField {
  name: string;
  'display-name'?: string;
  type?: 'string' | 'integer' | 'password' | 'boolean' | 'select' | 'textFile' | 'section' | 'info' | 'schema-filters' | 'hidden';
  placeholder?: string | number;
  'helper-text'?: string;
  required?: boolean;
  default?: unknown;
  options?: Array<{ name: string; value: string }>;
  'visible-if'?: Record<string, unknown>;
}

export interface EngineDescriptor {
  'driver-name': string;
  'details-fields': DetailsField[];
  source: { type: 'official' | 'community' | 'partner'; contact: null };
  'superseded-by': null;
  'extra-info': null;
}

const hostField: DetailsField = {
  name: 'host',
  'display-name': 'Host',
  'helper-text': "Your database's IP address (e.g. 98.137.149.56) or its domain name (e.g. esc.mydatabase.com).",
  placeholder: 'name.database.com',
};
const userField: DetailsField = { name: 'user', 'display-name': 'Username', placeholder: 'username', required: true };
const passwordField: DetailsField = { name: 'password', 'display-name': 'Password', type: 'password', placeholder: '••••••••' };
const sslField: DetailsField = { name: 'ssl', 'display-name': 'Use a secure connection (SSL)', type: 'boolean' };
const schemaFilters: DetailsField = {
  name: 'schema-filters',
  'display-name': 'Schemas',
  type: 'schema-filters',
};
const autoRunField: DetailsField = {
  name: 'auto_run_queries',
  'display-name': 'Rerun queries for simple explorations',
  type: 'boolean',
  default: true,
};
const advancedOptions: DetailsField = { name: 'advanced-options', type: 'section', default: false };
const scheduling: DetailsField = {
  name: 'let-user-control-scheduling',
  'display-name': 'Choose when syncs and scans happen',
  type: 'boolean',
  'visible-if': { 'advanced-options': true },
};

const ENGINES: Record<string, EngineDescriptor> = {
  postgres: {
    'driver-name': 'PostgreSQL',
    'details-fields': [
      hostField,
      { name: 'port', 'display-name': 'Port', type: 'integer', placeholder: 5432 },
      { name: 'dbname', 'display-name': 'Database name', placeholder: 'birds_of_the_world', required: true },
      schemaFilters,
      userField,
      passwordField,
      sslField,
      {
        name: 'ssl-mode',
        'display-name': 'SSL Mode',
        type: 'select',
        default: 'require',
        options: ['allow', 'prefer', 'require', 'verify-ca', 'verify-full'].map((v) => ({ name: v, value: v })),
        'visible-if': { ssl: true },
      },
      advancedOptions,
      autoRunField,
      scheduling,
    ],
    source: { type: 'official', contact: null },
    'superseded-by': null,
    'extra-info': null,
  },
  mysql: {
    'driver-name': 'MySQL',
    'details-fields': [
      hostField,
      { name: 'port', 'display-name': 'Port', type: 'integer', placeholder: 3306 },
      { name: 'dbname', 'display-name': 'Database name', placeholder: 'birds_of_the_world', required: true },
      userField,
      passwordField,
      sslField,
      {
        name: 'ssl-mode',
        'display-name': 'SSL certificate check',
        type: 'select',
        default: 'verify-full',
        options: [
          { name: 'Encrypt only (no certificate check)', value: 'require' },
          { name: 'Check the certificate authority', value: 'verify-ca' },
          { name: 'Check the certificate and host name', value: 'verify-full' },
        ],
        'visible-if': { ssl: true },
      },
      advancedOptions,
      autoRunField,
      scheduling,
    ],
    source: { type: 'official', contact: null },
    'superseded-by': null,
    'extra-info': null,
  },
  sqlite: {
    'driver-name': 'SQLite',
    'details-fields': [
      { name: 'db', 'display-name': 'Filename', placeholder: '/home/camsaul/toucan_sightings.sqlite 😋', required: true },
      advancedOptions,
      autoRunField,
      scheduling,
    ],
    source: { type: 'official', contact: null },
    'superseded-by': null,
    'extra-info': null,
  },
  duckdb: {
    'driver-name': 'DuckDB',
    'details-fields': [
      { name: 'db', 'display-name': 'Database file', placeholder: '/path/to/warehouse.duckdb', required: true },
      { name: 'read_only', 'display-name': 'Open read-only', type: 'boolean', default: false },
      advancedOptions,
      autoRunField,
      scheduling,
    ],
    source: { type: 'community', contact: null },
    'superseded-by': null,
    'extra-info': null,
  },
};

export function engineDescriptors(): Record<string, EngineDescriptor> {
  return ENGINES;
}

export function isKnownEngine(engine: unknown): engine is string {
  return typeof engine === 'string' && Object.hasOwn(ENGINES, engine);
}
