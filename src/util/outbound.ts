// Outbound HTTP requests that can't be pointed at the server's own network (SSRF): the host name is resolved once,
// every address it resolves to is checked against the policy, and the connection goes to the checked address (so a
// second, different DNS answer can't slip a private address in). Redirects are not followed.
//
// Policies (Metabase's `http-channel-host-strategy` values):
//   external-only  globally routable addresses only, and none of this machine's own (the default)
//   allow-private  also private networks (10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10), never loopback,
//                  link-local (cloud metadata at 169.254.169.254), reserved or unspecified addresses
//   allow-all      anything
// IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4) are judged as the IPv4 address.

import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import http from 'node:http';
import https from 'node:https';

export type HostPolicy = 'external-only' | 'allow-private' | 'allow-all';
export const HOST_POLICIES: readonly HostPolicy[] = ['external-only', 'allow-private', 'allow-all'];

/** An address as 16 bytes (IPv4 as ::ffff:a.b.c.d), or null when it isn't one. */
function bytesOf(address: string): number[] | null {
  const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(text) === 4) return [...Array(10).fill(0), 0xff, 0xff, ...text.split('.').map(Number)];
  if (isIP(text) !== 6) return null;
  // 16-bit words, a trailing dotted quad counting as two
  const words = (part: string) =>
    (part ? part.split(':') : []).flatMap((w) => {
      if (!w.includes('.')) return [parseInt(w, 16)];
      const b = w.split('.').map(Number);
      return [(b[0] << 8) | b[1], (b[2] << 8) | b[3]];
    });
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const front = words(head);
  const back = tail === null ? [] : words(tail);
  const all = [...front, ...(tail === null ? [] : Array(8 - front.length - back.length).fill(0)), ...back];
  if (all.length !== 8 || all.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return null;
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}

interface Range {
  prefix: number[];
  bits: number;
}

function range(cidr: string): Range {
  const [address, bits] = cidr.split('/');
  const bytes = bytesOf(address)!;
  // IPv4 ranges sit in the IPv4-mapped block
  return { prefix: bytes, bits: isIP(address) === 4 ? 96 + Number(bits) : Number(bits) };
}

function inRange(bytes: number[], r: Range): boolean {
  for (let bit = 0; bit < r.bits; bit++) {
    const mask = 0x80 >> bit % 8;
    if ((bytes[bit >> 3] & mask) !== (r.prefix[bit >> 3] & mask)) return false;
  }
  return true;
}

/** Private networks: reachable under allow-private. */
const PRIVATE = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'].map(range);

/**
 * Never globally routable, and never allowed but under allow-all: this host, loopback, link-local (cloud metadata at
 * 169.254.169.254), documentation, benchmarking and reserved blocks, multicast, and the IPv6 blocks that only
 * carry other addresses or are deprecated.
 */
const SPECIAL = [
  '0.0.0.0/8', '127.0.0.0/8', '169.254.0.0/16', '192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '198.18.0.0/15',
  '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4',
  '::/128', '::1/128', '100::/64', '2001::/23', '2001:db8::/32', 'fe80::/10', 'fec0::/10', 'ff00::/8',
].map(range);

const NAT64 = ['64:ff9b::/96', '64:ff9b:1::/48'].map(range);
const SIX_TO_FOUR = range('2002::/16');

/** IPv6 blocks that embed an IPv4 address (NAT64, 6to4, IPv4-compatible): judged as the address they carry. */
function embeddedIpv4(bytes: number[]): number[] | null {
  const v4 = (b: number[]) => [...Array(10).fill(0), 0xff, 0xff, ...b];
  if (NAT64.some((r) => inRange(bytes, r))) return v4(bytes.slice(12));
  if (inRange(bytes, SIX_TO_FOUR)) return v4(bytes.slice(2, 6));
  if (bytes.slice(0, 12).every((b) => b === 0) && bytes.slice(12).some((b) => b !== 0)) return v4(bytes.slice(12));
  return null;
}

/** The addresses of this machine's own interfaces (Quarry itself, and whatever else listens here). */
function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) out.add(JSON.stringify(bytesOf(i.address)));
  return out;
}

/** Why `address` may not be reached under `policy`, or null when it may. */
export function refusal(address: string, policy: HostPolicy): string | null {
  if (policy === 'allow-all') return null;
  let bytes = bytesOf(address);
  if (!bytes) return `${address} is not an IP address`;
  bytes = embeddedIpv4(bytes) ?? bytes;
  if (SPECIAL.some((r) => inRange(bytes!, r))) return `${address} is a loopback, link-local or reserved address`;
  if (policy === 'external-only') {
    if (PRIVATE.some((r) => inRange(bytes!, r))) return `${address} is a private network address`;
    if (ownAddresses().has(JSON.stringify(bytes))) return `${address} is an address of this server`;
  }
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
  body?: string | Buffer | null;
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
  const timeoutMs = request.timeoutMs ?? 10_000;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      { method: request.method, headers: request.headers ?? {}, lookup: guardedLookup(policy), timeout: timeoutMs },
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
    req.on('timeout', () => req.destroy(new OutboundError(`No answer from ${url.host} within ${Math.round(timeoutMs / 1000)} s.`)));
    req.on('error', (error) => reject(error instanceof OutboundError ? error : new OutboundError(`Request to ${url.host} failed: ${error.message}`)));
    if (request.body !== undefined && request.body !== null) req.write(request.body);
    req.end();
  });
}
