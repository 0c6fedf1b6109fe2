// GET /api/database/:id/healthcheck: whether the database can be reached right now.

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { databaseHealth } from '../databases/health.js';

export function databaseHealthRoutes(r: Routes) {
  r.get('/api/database/:id/healthcheck', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => databaseHealth(ctx, caller, params.id));
}
