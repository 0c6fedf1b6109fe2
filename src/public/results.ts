// Results of shared content keep only what draws the chart (reference §8.3): `data.{cols, rows, rows_truncated,
// insights, requested_timezone, results_timezone}`, `json_query.parameters`, `status` and `row_count` — never the SQL,
// the full query or the database. Failures keep `{status, error, error_type}` with a generic error (the engine's
// `publicResult`).
//
// The query engine writes pivot results only into a reply, so `captureReply` stands in for one and hands back the
// body; results of shared content are capped at 2,000/10,000 rows, so holding one is cheap.

import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

type Obj = Record<string, unknown>;

const DATA_KEYS = ['rows', 'cols', 'rows_truncated', 'insights', 'requested_timezone', 'results_timezone'];

export function sharedResult(result: Obj): Obj {
  if (result.status !== 'completed') {
    return { status: result.status ?? 'failed', error: result.error ?? 'An error occurred while running the query.', error_type: result.error_type ?? 'qp' };
  }
  const data = (result.data ?? {}) as Obj;
  const jsonQuery = (result.json_query ?? {}) as Obj;
  const out: Obj = {};
  for (const key of DATA_KEYS) if (key in data) out[key] = data[key];
  if (!('insights' in out)) out.insights = null;
  return { data: out, json_query: { parameters: jsonQuery.parameters ?? [] }, status: 'completed', row_count: result.row_count ?? (out.rows as unknown[] | undefined)?.length ?? 0 };
}

/** A stand-in reply that collects what the engine writes into it. */
export interface CapturedReply {
  reply: FastifyReply;
  /** The body once the engine is done writing. */
  body(): Promise<string>;
  abort(): void;
}

export function captureReply(): CapturedReply {
  const raw = Object.assign(new EventEmitter(), { writableFinished: false });
  let resolveBody: (text: string) => void;
  let rejectBody: (error: unknown) => void;
  const done = new Promise<string>((resolve, reject) => {
    resolveBody = resolve;
    rejectBody = reject;
  });
  const fake = {
    raw,
    code() {
      return fake;
    },
    header() {
      return fake;
    },
    send(payload: unknown) {
      if (typeof payload === 'string') resolveBody(payload);
      else if (payload && typeof (payload as Readable).on === 'function') {
        const chunks: Buffer[] = [];
        const stream = payload as Readable;
        stream.on('data', (c: Buffer | string) => chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c)));
        stream.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
        stream.on('error', rejectBody);
      } else resolveBody('');
      return fake;
    },
  };
  return {
    reply: fake as unknown as FastifyReply,
    body: () => done,
    abort: () => raw.emit('close'),
  };
}
