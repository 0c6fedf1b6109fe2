// One DuckDB instance per database file in this process (DuckDB must not open the same file twice), shared by
// every Quarry database that points at it and closed when the last one lets go. Every instance is locked down:
// no access to other files or the network (enable_external_access=false: no read_csv('/etc/…'), COPY TO, ATTACH,
// INSTALL), no extension auto-install or auto-load, sessions in UTC, and the configuration locked so SET can't
// undo any of it.

import { DuckDBInstance } from '@duckdb/node-api';
import { ConnectionError } from '../shared/connect-errors.js';

interface Entry {
  instance: Promise<DuckDBInstance>;
  readOnly: boolean;
  refs: number;
}

const instances = new Map<string, Entry>();

export const LOCKED_DOWN_OPTIONS: Record<string, string> = {
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  allow_community_extensions: 'false',
};

/**
 * Opens the file locked down. The time zone (an ICU setting, so not a start-up option) is set to UTC first, so
 * sessions read the same on every machine; then the configuration is locked, after which no SET is accepted
 * (time-zone conversions in SQL use timezone(…)).
 */
async function openLockedDown(file: string, readOnly: boolean): Promise<DuckDBInstance> {
  const instance = await DuckDBInstance.create(file, { ...LOCKED_DOWN_OPTIONS, access_mode: readOnly ? 'READ_ONLY' : 'READ_WRITE' });
  const setup = await instance.connect();
  try {
    await setup.run("SET GLOBAL TimeZone = 'UTC'");
    await setup.run('SET GLOBAL lock_configuration = true');
  } catch (error) {
    setup.closeSync();
    instance.closeSync();
    throw error;
  }
  setup.closeSync();
  return instance;
}

export async function acquireInstance(file: string, readOnly: boolean): Promise<DuckDBInstance> {
  let entry = instances.get(file);
  if (entry && entry.readOnly !== readOnly) {
    throw new ConnectionError(`The DuckDB file "${file}" is already open ${entry.readOnly ? 'read-only' : 'read-write'} for another database.`, 'read_only');
  }
  if (!entry) {
    entry = { instance: openLockedDown(file, readOnly), readOnly, refs: 0 };
    instances.set(file, entry);
    entry.instance.catch(() => {
      if (instances.get(file) === entry) instances.delete(file);
    });
  }
  entry.refs += 1;
  try {
    return await entry.instance;
  } catch (error) {
    entry.refs -= 1;
    throw new ConnectionError(`Unable to open DuckDB database "${file}": ${(error as Error).message}`, 'db');
  }
}

export async function releaseInstance(file: string): Promise<void> {
  const entry = instances.get(file);
  if (!entry) return;
  entry.refs -= 1;
  if (entry.refs > 0) return;
  instances.delete(file);
  const instance = await entry.instance.catch(() => null);
  instance?.closeSync();
}
