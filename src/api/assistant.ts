// The assistant (/api/assistant, spec §4.20; Metabase's /api/metabot): questions in plain words → native SQL
// (src/assistant), and feedback on the answers, stored and listed for admins.

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { askDatabase, askModel, askQuery } from '../assistant/ask.js';
import { listFeedback, recordFeedback } from '../assistant/feedback.js';

const question = { question: s.nbstr(undefined, { max: 4000 }) };

export function assistantRoutes(r: Routes) {
  r.post('/api/assistant/database/:database-id', { params: { 'database-id': s.posInt() }, body: question }, ({ ctx, caller, params, body }) =>
    askDatabase(ctx, caller, params['database-id'], body.question),
  );

  r.post('/api/assistant/database/:database-id/query', { params: { 'database-id': s.posInt() }, body: question }, ({ ctx, caller, params, body }) =>
    askQuery(ctx, caller, params['database-id'], body.question),
  );

  r.post('/api/assistant/model/:model-id', { params: { 'model-id': s.posInt() }, body: question }, ({ ctx, caller, params, body }) =>
    askModel(ctx, caller, params['model-id'], body.question),
  );

  r.post('/api/assistant/feedback', {}, ({ ctx, caller, request }) => recordFeedback(ctx, caller, request.body));

  r.get('/api/assistant/feedback', { auth: 'admin', query: { limit: s.maybe(s.natInt()), offset: s.maybe(s.natInt()) } }, ({ ctx, query }) =>
    listFeedback(ctx, { limit: Math.min(query.limit ?? 50, 1000), offset: query.offset ?? 0 }),
  );
}
