import type { DetailSpec } from '../shared/details.js';

// No "additional-options": a raw JDBC-style option string is exactly what we never pass through.
export const MYSQL_DETAILS: DetailSpec[] = [
  { name: 'host', kind: 'string', default: 'localhost', maxLength: 255 },
  { name: 'port', kind: 'integer', default: 3306, min: 1, max: 65535 },
  { name: 'dbname', kind: 'string', required: true, aliases: ['db'], maxLength: 255 },
  { name: 'user', kind: 'string', maxLength: 255 },
  { name: 'password', kind: 'password' },
  { name: 'ssl', kind: 'boolean', default: false },
  // How much of the server's certificate to check (see ./connection.ts `mysqlSsl`).
  { name: 'ssl-mode', kind: 'enum', values: ['require', 'verify-ca', 'verify-full'] },
];
