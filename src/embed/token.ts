// Signed embedding tokens (reference §8.2): a JWT signed with HS256 — and only HS256 — under the
// `embedding-secret-key`, whose 64 hexadecimal characters are used as they are (their UTF-8 bytes, not hex-decoded).
// `exp` is honoured with 60 seconds of leeway; `params` is required (an empty map will do).
//
// Every failure is a 400 with a plain message, as Metabase's embed endpoints answer.

import { decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import type { AppContext } from '../context.js';
import { badRequest } from '../http/errors.js';
import { embeddingSecret } from './settings.js';

export const CORRUPT = 'Message seems corrupt or manipulated';
const ALGORITHMS = ['HS256'];
const LEEWAY_SECONDS = 60;

export interface EmbedClaims extends JWTPayload {
  resource?: { question?: unknown; dashboard?: unknown };
  params: Record<string, unknown>;
  _embedding_params?: unknown;
}

const missing = (path: string) => badRequest(`Token is missing value for keypath [${path}]`);

/** Verifies the token's signature, algorithm and expiry; the claims, with `params` checked to be a map. */
export async function verifyEmbedToken(ctx: AppContext, token: string): Promise<EmbedClaims> {
  const secret = await embeddingSecret(ctx);
  let header;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw badRequest(CORRUPT);
  }
  if (!header.alg || header.alg.toLowerCase() === 'none') throw badRequest('JWT `alg` cannot be `none`.');
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ALGORITHMS, clockTolerance: LEEWAY_SECONDS }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw badRequest(`Token is expired (${String((error.payload as JWTPayload | undefined)?.exp ?? '')})`);
    throw badRequest(CORRUPT);
  }
  const params = payload.params;
  if (params === undefined || params === null) throw missing(':params');
  if (typeof params !== 'object' || Array.isArray(params)) throw badRequest('Token params must be a map.');
  return payload as EmbedClaims;
}

/** The id of `resource.question` (card endpoints) or `resource.dashboard` (dashboard endpoints). */
export function resourceId(claims: EmbedClaims, kind: 'question' | 'dashboard'): number {
  const value = claims.resource && typeof claims.resource === 'object' ? claims.resource[kind] : undefined;
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) throw missing(`:resource :${kind}`);
  return id;
}
