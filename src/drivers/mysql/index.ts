// MySQL and MariaDB (mysql2): pooled, streamed. One connection covers one MySQL database (tables have no schema).

import type { Driver } from '../driver.js';
import { mysqlDialect } from './dialect.js';
import { engineDescriptors } from '../engines.js';
import { checkHost, normalizeWith } from '../shared/details.js';
import { MYSQL_DETAILS } from './details.js';
import { MYSQL_FEATURES } from './features.js';
import { lazyConnection } from '../shared/lazy-connection.js';
import { describeMysqlWriteError } from './write-errors.js';

export const mysqlDriver: Driver = {
  engine: 'mysql',
  descriptor: engineDescriptors().mysql,
  features: MYSQL_FEATURES,
  hasSchemas: false,
  secretDetails: ['password'],
  normalizeDetails(details) {
    const normalized = normalizeWith(MYSQL_DETAILS, details);
    normalized.host = checkHost(String(normalized.host));
    return normalized;
  },
  open: (details, options) => lazyConnection(async () => new (await import('./connection.js')).MysqlConnection(details, options)),
  insertReturning: false,
  describeWriteError: describeMysqlWriteError,
  quoteIdentifier: (name) => mysqlDialect.quoteIdentifier(name),
  placeholder: () => '?',
};
