// Response shapes routes declare for the document (`doc.responses` in their RouteSpec): the answers clients read
// most. Each lists the keys a client can rely on; answers carry more (`additionalProperties` stays open).

import type { JsonSchema, ResponseDoc } from '../http/json-schema.js';

/** POST /api/session: the new session's token. */
export const SESSION: ResponseDoc = {
  description: 'Signed in: the session token (also set as the `metabase.SESSION` cookie)',
  schema: {
    type: 'object',
    properties: { id: { type: 'string', description: 'The session token: send it as `X-Metabase-Session`.' } },
    required: ['id'],
  },
};

const COLUMN: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    display_name: { type: 'string' },
    base_type: { type: 'string', description: 'e.g. `type/Integer`' },
    effective_type: { type: 'string' },
    semantic_type: { type: ['string', 'null'] },
    field_ref: { description: 'MBQL reference to the column' },
  },
  required: ['name', 'display_name', 'base_type'],
};

/** The body of POST /api/dataset: a query, legacy MBQL 4 (`type` + `query`/`native`) or MBQL 5 (`stages`). */
export const DATASET_QUERY: JsonSchema = {
  type: 'object',
  properties: {
    database: { type: 'integer', description: 'The database to query' },
    type: { type: 'string', enum: ['query', 'native'], description: 'MBQL 4: which of `query` or `native` holds it' },
    query: { type: 'object', description: 'An MBQL query: `{"source-table": 1, "aggregation": [["count"]], …}`' },
    native: { type: 'object', description: 'A native query: `{"query": "SELECT …", "template-tags": {…}}`' },
    stages: { type: 'array', items: { type: 'object' }, description: 'MBQL 5: the query stages' },
    parameters: { type: 'array', items: { type: 'object' } },
    constraints: { type: 'object', description: '`{"max-results": …}`' },
  },
  required: ['database'],
};

/**
 * A query's results (status 202, streamed). The query failing after the answer started is still a 202, with
 * `status: "failed"` and an `error`.
 */
export const DATASET: ResponseDoc = {
  description: 'The results (or, when the query failed once started, `status: "failed"` and an `error`)',
  schema: {
    type: 'object',
    properties: {
      data: {
        type: 'object',
        properties: {
          rows: { type: 'array', items: { type: 'array', items: {} } },
          cols: { type: 'array', items: COLUMN },
          native_form: { type: 'object', description: 'The SQL that ran: `{query, params}`' },
          results_timezone: { type: 'string' },
          rows_truncated: { type: 'integer', description: 'Present when the row limit cut the results' },
        },
        required: ['rows', 'cols'],
      },
      status: { type: 'string', enum: ['completed', 'failed'] },
      error: { type: 'string', description: 'Why the query failed (when `status` is `failed`)' },
      row_count: { type: 'integer' },
      running_time: { type: 'integer', description: 'Milliseconds' },
      database_id: { type: 'integer' },
      started_at: { type: 'string', format: 'date-time' },
      context: { type: 'string' },
      json_query: { type: 'object' },
    },
    required: ['status'],
  },
};
