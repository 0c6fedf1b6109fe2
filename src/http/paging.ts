// Offset paging as Metabase's middleware does it: paging starts when `limit`, `offset` or `page` is present,
// with defaults limit 50 and offset 0; lists answer {data, total, limit, offset} (null when not paging).

import { s } from './schema.js';

export const pagingQuery = {
  limit: s.maybe(s.natInt()),
  offset: s.maybe(s.natInt()),
};

export interface Paging {
  limit: number | null;
  offset: number | null;
}

export function paging(query: { limit: number | null; offset: number | null }): Paging {
  if (query.limit === null && query.offset === null) return { limit: null, offset: null };
  return { limit: query.limit ?? 50, offset: query.offset ?? 0 };
}
