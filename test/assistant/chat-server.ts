// A stand-in for an OpenAI-compatible server on loopback: POST /v1/chat/completions answers from a queue of scripted
// replies (a status, a body, headers), the last one repeating; every request is recorded for assertions.

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status?: number;
  /** An object is sent as JSON; a string as is. */
  body: unknown;
  headers?: Record<string, string>;
  /** Answer only after this many milliseconds. */
  delayMs?: number;
}

export interface ChatServer {
  baseUrl: string;
  requests: Array<{ headers: IncomingHttpHeaders; body: any }>;
  script(...replies: Reply[]): void;
  close(): Promise<void>;
}

/** A chat-completions answer whose only choice says `content`. */
export const answer = (content: string | null): Reply => ({
  body: { id: 'chatcmpl-test', object: 'chat.completion', created: 1700000000, model: 'test-model', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] },
});

export const failure = (status: number, message: string, type: string, headers: Record<string, string> = {}): Reply => ({
  status,
  body: { error: { message, type, param: null, code: type } },
  headers,
});

export async function startChatServer(): Promise<ChatServer> {
  let queue: Reply[] = [answer('SELECT 1')];
  const requests: ChatServer['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      requests.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      const reply = queue.length > 1 ? queue.shift()! : queue[0];
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      const send = () => {
        if (!res.destroyed) res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json', ...(reply.headers ?? {}) }).end(text);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    script(...replies) {
      queue = replies;
      requests.length = 0;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
