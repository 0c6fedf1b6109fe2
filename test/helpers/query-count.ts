// Counts the app-DB statements a server runs: for tests that pin how many queries a hot request path costs.

import type { TestServer } from './server.js';

/** Counts the app-DB statements `ctx.db` runs while `work` runs. */
export async function countQueries(t: TestServer, work: () => Promise<unknown>): Promise<number> {
  const executor = t.ctx.db.getExecutor() as { executeQuery: (...args: unknown[]) => Promise<unknown> };
  const original = executor.executeQuery;
  let n = 0;
  executor.executeQuery = function (this: unknown, ...args: unknown[]) {
    n++;
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    executor.executeQuery = original;
  }
  return n;
}
