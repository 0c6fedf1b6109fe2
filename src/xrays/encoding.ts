// Base64-encoded JSON in X-ray URLs (ad-hoc queries, cell filters): both alphabets (`+/` as the server encodes,
// `-_` as the web app does), with or without `=` padding.

import { fieldError } from '../http/errors.js';
import { readJson } from '../http/schema.js';

export const BASE64_MESSAGE = "value couldn't be parsed as base64 encoded JSON";

export function decodeBase64Json(text: string, param: string): unknown {
  if (!/^[A-Za-z0-9+/\-_]+={0,2}$/.test(text)) throw fieldError(param, BASE64_MESSAGE);
  const json = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  const read = readJson(json);
  if (!('value' in read)) throw fieldError(param, BASE64_MESSAGE);
  return read.value;
}

/** Standard base64 of a value's JSON (what the server puts in the URLs it generates). */
export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

export function checkClause(value: unknown, param: string): unknown[] {
  if (!Array.isArray(value) || typeof value[0] !== 'string' || value.length < 2) throw fieldError(param, 'value must be an MBQL filter clause');
  return value;
}
