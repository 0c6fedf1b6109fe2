// Outbound HTTP requests that can't be pointed at the server's own network (SSRF): the host name is resolved once,
// every address it resolves to is checked against the policy, and the connection goes to the checked address (so a
// second, different DNS answer can't slip a private address in). Redirects are not followed.
//
// Policies (Metabase's `http-channel-host-strategy` values):
//   external-only  public addresses only (the default)
//   allow-private  also private networks (10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10), never loopback,
//                  link-local (cloud metadata at 169.254.169.254) or unspecified addresses
//   allow-all      anything

import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import http from 'node:http';
import https from 'node:https';

export type HostPolicy = 'external-only' | 'allow-private' | 'allow-all';
export const HOST_POLICIES: readonly HostPolicy[] = ['external-only', 'allow-private', 'allow-all'];

const PRIVATE = new BlockList();
PRIVATE.addSubnet('10.0.0.0', 8);
PRIVATE.addSubnet('172.16.0.0', 12);
PRIVATE.addSubnet('192.168.0.0', 16);
PRIVATE.addSubnet('100.64.0.0', 10);
PRIVATE.addSubnet('fc00::', 7, 'ipv6');

const LOCAL = new BlockList();
LOCAL.addSubnet('127.0.0.0', 8);
LOCAL.addSubnet('0.0.0.0', 8);
LOCAL.addSubnet('169.254.0.0', 16);
LOCAL.addSubnet('224.0.0.0', 3); // multicast and reserved
LOCAL.addAddress('::1', 'ipv6');
LOCAL.addAddress('::', 'ipv6');
LOCAL.addSubnet('fe80::', 10, 'ipv6');
LOCAL.addSubnet('ff00::', 8, 'ipv6');

/** IPv4 addresses written as IPv6 (::ffff:a.b.c.d) are judged as the IPv4 address they carry. */
function normalize(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Why `address` may not be reached under `policy`, or null when it may. */
export function refusal(address: string, policy: HostPolicy): string | null {
  if (policy === 'allow-all') return null;
  const { address: a, family } = normalize(address);
  if (LOCAL.check(a, family)) return `${address} is a loopback, link-local or reserved address`;
  if (policy === 'external-only' && PRIVATE.check(a, family)) return `${address} is a private network address`;
  return null;
}

export class OutboundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundError';
  }
}

function guardedLookup(policy: HostPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as Array<{ address: string; family: number }>;
      const bad = list.map((a) => refusal(a.address, policy)).find((r) => r !== null);
      if (bad) return callback(new OutboundError(`Requests to ${hostname} are not allowed: ${bad}.`), '', 4);
      if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

export interface OutboundRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | null;
  timeoutMs?: number;
  /** Longest response body read (bytes). */
  maxBytes?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends one request under `policy`; rejects with an OutboundError for refused hosts, bad URLs and timeouts. */
export function sendOutbound(request: OutboundRequest, policy: HostPolicy): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.reject(new OutboundError(`Invalid URL: ${JSON.stringify(request.url)}`));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new OutboundError(`Only http and https URLs are allowed, not ${url.protocol}`));
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal)) {
    const bad = refusal(literal, policy);
    if (bad) return Promise.reject(new OutboundError(`Requests to ${literal} are not allowed: ${bad}.`));
  }
  const maxBytes = request.maxBytes ?? 10 * 1024 * 1024;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      { method: request.method, headers: request.headers ?? {}, lookup: guardedLookup(policy), timeout: request.timeoutMs ?? 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy(new OutboundError(`The response was larger than ${maxBytes} bytes.`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new OutboundError(`No answer from ${url.host} within ${Math.round((request.timeoutMs ?? 10_000) / 1000)} s.`)));
    req.on('error', (error) => reject(error instanceof OutboundError ? error : new OutboundError(`Request to ${url.host} failed: ${error.message}`)));
    if (request.body !== undefined && request.body !== null) req.write(request.body);
    req.end();
  });
}
