// Metabase 0.55 moved these out of /api/util; both names are served, since clients still call the old ones:
//   GET  /api/bug-reporting/details        (/api/util/bug_report_details)   admins
//   GET  /api/analytics/anonymous-stats    (/api/util/stats)                admins
//   POST /api/eid-translation/translate    (/api/util/entity_id)            signed-in users
//   GET  /api/logger/logs                  (/api/util/logs)                 admins
//   GET  /api/bug-reporting/connection-pool-details  (/api/util/diagnostic_info/connection_pool_info)  admins

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { bugReportDetails, connectionPoolDetails } from '../diagnostics/report.js';
import { anonymousStats } from '../diagnostics/anonymous-stats.js';
import { translateEntityIds } from '../diagnostics/entity-ids.js';
import { recentLogs } from '../diagnostics/log-buffer.js';

export function diagnosticsRoutes(r: Routes) {
  for (const path of ['/api/bug-reporting/details', '/api/util/bug_report_details']) {
    r.get(path, { auth: 'admin' }, ({ ctx }) => bugReportDetails(ctx));
  }
  for (const path of ['/api/analytics/anonymous-stats', '/api/util/stats']) {
    r.get(path, { auth: 'admin' }, ({ ctx }) => anonymousStats(ctx));
  }
  for (const path of ['/api/eid-translation/translate', '/api/util/entity_id']) {
    r.post(path, { body: { entity_ids: s.map() } }, ({ ctx, body }) => translateEntityIds(ctx, body.entity_ids));
  }
  for (const path of ['/api/logger/logs', '/api/util/logs']) {
    r.get(path, { auth: 'admin' }, () => recentLogs());
  }
  for (const path of ['/api/bug-reporting/connection-pool-details', '/api/util/diagnostic_info/connection_pool_info']) {
    r.get(path, { auth: 'admin' }, ({ ctx }) => connectionPoolDetails(ctx));
  }
}
