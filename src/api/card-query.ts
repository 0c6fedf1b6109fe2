// Running cards: results, exports, pivot, parameter values, query metadata (filled in with the query engine).

import type { Routes } from '../http/route.js';

export function cardQueryRoutes(_r: Routes) {}
