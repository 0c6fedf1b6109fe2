// An AbortSignal that fires when the client goes away before its answer was sent, for work worth cancelling then
// (a statement running on a database).

import type { FastifyReply } from 'fastify';

export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
