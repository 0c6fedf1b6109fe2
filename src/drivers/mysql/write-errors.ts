// MySQL/MariaDB write errors (errno, and the columns their messages name) → engine-neutral violations.

import type { WriteViolation } from '../driver.js';

interface MysqlError {
  errno?: number;
  sqlMessage?: string;
  message?: string;
}

/** The last backquoted or single-quoted name after "column", e.g. `db`.`t`.`col` or 'col'. */
function columnOf(message: string): string[] {
  const m = /column (?:(?:`[^`]*`\.)*`([^`]*)`|'([^']*)')/.exec(message);
  return m ? [m[1] ?? m[2]] : [];
}

export function describeMysqlWriteError(error: unknown): WriteViolation | null {
  const e = (error ?? {}) as MysqlError;
  const message = e.sqlMessage ?? e.message ?? '';
  switch (e.errno) {
    case 1048: // Column 'x' cannot be null
    case 1364: {
      // Field 'x' doesn't have a default value
      const m = /(?:Column|Field) '([^']*)'/.exec(message);
      return { kind: 'not-null', columns: m ? [m[1]] : [] };
    }
    case 1062: {
      // Duplicate entry 'v' for key 'name' (MySQL 8 writes 'table.name'); an unnamed unique key is named after its
      // first column, and PRIMARY is the primary key
      const m = /for key '(?:[^'.]*\.)?([^']*)'/.exec(message);
      return { kind: 'unique', columns: m && m[1] !== 'PRIMARY' ? [m[1]] : [] };
    }
    case 1452:
    case 1216: {
      const m = /FOREIGN KEY \(`([^`]*)`\)/.exec(message);
      return { kind: 'foreign-key', columns: m ? [m[1]] : [] };
    }
    case 1451:
    case 1217:
      return { kind: 'referenced', columns: [] };
    case 1366: // Incorrect integer value
    case 1292: // Incorrect datetime value / truncated incorrect value
    case 1265: // Data truncated
    case 1406: // Data too long
    case 1264: // Out of range value
      return { kind: 'incorrect-type', columns: columnOf(message) };
    default:
      return null;
  }
}
