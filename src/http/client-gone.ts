// A client that goes away before its answer was sent: an AbortSignal for work worth cancelling then (a statement
// running on a database), and how to recognize the stream errors its disconnection causes, which are no fault of the
// server (a download whose headers hadn't gone out yet fails in Fastify with `Premature close`).

import type { FastifyReply, FastifyRequest } from 'fastify';

export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  // Gone before we started listening (a slow authentication): abort at once rather than never.
  if (reply.raw.destroyed && !reply.raw.writableFinished) controller.abort();
  else {
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
  }
  return controller.signal;
}

/** What writing to (or streaming into) a connection the client closed fails with. */
const DISCONNECTION_CODES = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** Whether `error` is the client's disconnection (its code says so and the connection is indeed closed). */
export function isClientGone(error: unknown, request: FastifyRequest, reply: FastifyReply): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !DISCONNECTION_CODES.has(code)) return false;
  return reply.raw.destroyed || request.raw.destroyed || request.raw.socket?.destroyed !== false;
}
