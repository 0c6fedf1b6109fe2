// /api/util and /api/health

import { randomBytes } from 'node:crypto';
import type { Routes } from '../http/route.js';

export function utilRoutes(r: Routes) {
  r.get('/api/util/random_token', { auth: 'none' }, () => ({ token: randomBytes(32).toString('hex') }));
  r.get('/api/health', { auth: 'none' }, () => ({ status: 'ok' }));
}
