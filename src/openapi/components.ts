// The document's shared parts: how a caller authenticates, and the error bodies every route may answer.

import type { JsonSchema } from '../http/json-schema.js';

/** The three ways a caller is recognised (src/http/auth.ts), as OpenAPI security schemes. */
export const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Metabase-Session',
    description: 'A session token: the `id` that `POST /api/session` answers.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'metabase.SESSION',
    description: 'The session cookie `POST /api/session` sets.',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-KEY',
    description: 'An API key an admin created (`POST /api/api-key`); it acts as its group.',
  },
} as const;

/** Any one of the schemes will do. */
export const SIGNED_IN = Object.keys(SECURITY_SCHEMES).map((name) => ({ [name]: [] as string[] }));

/** Metabase's validation failure: what each bad param should be, and why the value sent isn't. */
const VALIDATION_ERROR: JsonSchema = {
  type: 'object',
  description: 'A request param, query-string key or body key that failed its schema.',
  properties: {
    errors: { type: 'object', description: 'Per param: what it should be.' },
    'specific-errors': { type: 'object', description: 'Per param: why the value sent is refused.' },
  },
  required: ['errors'],
};

export const SCHEMAS: Record<string, JsonSchema> = { ValidationError: VALIDATION_ERROR };

export const ref = (name: keyof typeof SCHEMAS & string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A plain-text answer (Metabase's simple errors: `Unauthenticated`, `Not found.`). */
export const text = (description: string) => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } });
