// Defers loading an engine's client library until a connection is first used, so start-up doesn't pay for
// engines nobody connected (DuckDB's native binding alone takes ~300 ms to load).

import type { DriverConnection } from '../driver.js';

export function lazyConnection(load: () => Promise<DriverConnection>): DriverConnection {
  let loaded: Promise<DriverConnection> | null = null;
  let ready: DriverConnection | null = null;
  let closed = false;
  const get = () => {
    if (closed) return Promise.reject(new Error('This database connection is closed.'));
    loaded ??= load().then((connection) => (ready = connection));
    return loaded;
  };
  return {
    test: async () => (await get()).test(),
    execute: async (sql, params, options) => (await get()).execute(sql, params, options),
    transaction: async (work, options) => {
      const connection = await get();
      if (!connection.transaction) throw new Error('This database does not support writes.');
      return connection.transaction(work, options);
    },
    introspect: async (options) => (await get()).introspect(options),
    schemas: async () => (await get()).schemas(),
    version: async () => (await get()).version(),
    timezone: async () => (await get()).timezone(),
    poolStats: () => ready?.poolStats?.() ?? null,
    close: async () => {
      closed = true;
      if (loaded) await (await loaded).close();
    },
  };
}
