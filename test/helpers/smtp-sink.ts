// A real SMTP server on loopback (smtp-server) that keeps every message it accepts, for tests of email delivery:
// envelope, raw MIME and the parsed message (./mime.ts). It can require a login, and refuse recipients with a
// temporary (4xx) or permanent (5xx) answer to exercise retries.

import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { parseMail, type ParsedMail } from './mime.js';
import { waitFor } from '../databases/helpers.js';

export interface ReceivedMail extends ParsedMail {
  from: string;
  recipients: string[];
  raw: string;
}

export interface SmtpSink {
  host: string;
  port: number;
  messages: ReceivedMail[];
  /** Answer the next `count` RCPT TO commands (for `address` only, when given) with this SMTP code (451: try later; 550: no such mailbox). */
  refuseNext(code: number, count?: number, address?: string): void;
  /** Waits until at least `n` messages arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Settings for PUT /api/email pointing at this sink. */
  settings(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startSmtpSink(options: { username?: string; password?: string } = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  let refusals: { code: number; count: number; address: string | null } | null = null;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: options.username ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: !options.username,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.username && auth.password === options.password) return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (refusals && refusals.count > 0 && (refusals.address === null || refusals.address === address.address)) {
        refusals.count -= 1;
        return callback(Object.assign(new Error(refusals.code >= 500 ? 'No such mailbox' : 'Try again later'), { responseCode: refusals.code }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          ...parseMail(raw),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          recipients: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    messages,
    refuseNext(code, count = 1, address) {
      refusals = { code, count, address: address ?? null };
    },
    waitFor: (n, timeoutMs = 20_000) => waitFor(`${n} messages`, async () => messages.length >= n && messages, timeoutMs),
    settings() {
      return {
        'email-smtp-host': '127.0.0.1',
        'email-smtp-port': port,
        'email-smtp-security': 'none',
        'email-smtp-username': options.username ?? null,
        'email-smtp-password': options.password ?? null,
        'email-from-address': 'reports@quarry.test',
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
