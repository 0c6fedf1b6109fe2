// What the databases area does when the server starts: install (or re-point) the sample database, and start the
// background sync schedules.

import type { AppContext } from '../context.js';
import { loadSampleAtStartup } from '../sample/sample-database.js';
import { startSyncScheduler } from '../sync/scheduler.js';

export async function startDatabaseServices(ctx: AppContext): Promise<void> {
  await loadSampleAtStartup(ctx);
  startSyncScheduler(ctx);
}
