// /api/task — task history (Metabase's TaskHistory) and the scheduler's jobs, for admins.

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { pagingQuery, paging } from '../http/paging.js';
import { check404 } from '../http/errors.js';
import { getTask, listTasks, uniqueTaskNames, TASK_STATUSES } from '../tasks/history.js';
import { taskInfo } from '../tasks/info.js';

export function taskRoutes(r: Routes): void {
  r.get(
    '/api/task',
    {
      auth: 'admin',
      query: {
        ...pagingQuery,
        status: s.maybe(s.enum(TASK_STATUSES)),
        task: s.maybe(s.nbstr()),
        sort_column: s.maybe(s.enum(['started_at', 'ended_at', 'duration'] as const)),
        sort_direction: s.maybe(s.enum(['asc', 'desc'] as const)),
      },
    },
    ({ ctx, query }) =>
      listTasks(ctx, {
        ...paging(query),
        status: query.status,
        task: query.task,
        sortColumn: query.sort_column ?? 'started_at',
        sortDirection: query.sort_direction ?? 'desc',
      }),
  );
  r.get('/api/task/info', { auth: 'admin' }, ({ ctx }) => taskInfo(ctx));
  r.get('/api/task/unique-tasks', { auth: 'admin' }, ({ ctx }) => uniqueTaskNames(ctx));
  r.get('/api/task/:id', { auth: 'admin', params: { id: s.posInt() } }, async ({ ctx, params }) => check404(await getTask(ctx, params.id)));
}
