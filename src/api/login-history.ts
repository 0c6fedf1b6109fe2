// GET /api/login-history/current: the caller's own sign-ins.

import type { Routes } from '../http/route.js';
import { currentLoginHistory } from '../users/login-history.js';

export function loginHistoryRoutes(r: Routes) {
  r.get('/api/login-history/current', {}, ({ ctx, caller }) => currentLoginHistory(ctx, caller));
}
