// /api/notify: inbound notifications from ETL tools that a database changed, secured as Metabase secures them — by
// the static key of the `MB_API_KEY` environment variable, sent as the `X-Metabase-Apikey` header (no session, no
// API key of /api/api-key). Without MB_API_KEY every call is a 403 saying so; a missing or wrong key is a 403.
//   POST /api/notify/db/:id                       {table_id?, table_name?, scan?: "full"|"schema", synchronous?}
//   POST /api/notify/db/:id/new-table             {schema_name, table_name}
//   POST /api/notify/db/attached_datawarehouse    Metabase Cloud's attached warehouse: Quarry has none, so 404

import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Routes } from '../http/route.js';
import { s, parseParams } from '../http/schema.js';
import { forbidden, notFound } from '../http/errors.js';
import { secretsEqual } from '../util/secret-compare.js';
import { notifyDatabase, notifyNewTable } from '../sync/notify.js';
import { tableJson } from '../databases/json.js';

const KEY_NOT_SET =
  'MB_API_KEY is not set. See https://www.metabase.com/docs/latest/configuring-metabase/environment-variables#mb_api_key for details';

function checkStaticApiKey(ctx: AppContext, request: FastifyRequest): void {
  const expected = ctx.config.env.MB_API_KEY;
  if (expected === undefined || expected.trim() === '') throw forbidden(KEY_NOT_SET);
  const sent = request.headers['x-metabase-apikey'];
  if (typeof sent !== 'string' || !secretsEqual(sent, expected)) throw forbidden();
}

const notifyBody = {
  table_id: s.maybe(s.posInt()),
  table_name: s.maybe(s.nbstr()),
  scan: s.maybe(s.enum(['full', 'schema'] as const)),
  'synchronous?': s.maybe(s.boolstr()),
};

const newTableBody = { schema_name: s.nbstr(), table_name: s.nbstr() };

const attachedBody = { table_name: s.maybe(s.nbstr()), schema_name: s.maybe(s.str()), 'synchronous?': s.maybe(s.boolstr()) };

export function notifyRoutes(r: Routes) {
  r.post('/api/notify/db/attached_datawarehouse', { auth: 'none' }, ({ ctx, request }) => {
    checkStaticApiKey(ctx, request);
    parseParams(attachedBody, request.body, true);
    throw notFound();
  });

  r.post('/api/notify/db/:id', { auth: 'none', params: { id: s.posInt() } }, async ({ ctx, request, params }) => {
    checkStaticApiKey(ctx, request);
    const body = parseParams(notifyBody, request.body, true);
    await notifyDatabase(ctx, params.id, {
      tableId: body.table_id ?? null,
      tableName: body.table_name ?? null,
      scan: body.scan ?? 'full',
      synchronous: body['synchronous?'] === true,
    });
    return { success: true };
  });

  r.post('/api/notify/db/:id/new-table', { auth: 'none', params: { id: s.posInt() } }, async ({ ctx, request, params }) => {
    checkStaticApiKey(ctx, request);
    const body = parseParams(newTableBody, request.body, true);
    return tableJson(await notifyNewTable(ctx, params.id, body.schema_name, body.table_name));
  });
}
