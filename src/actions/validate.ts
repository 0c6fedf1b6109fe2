// What an action may be (spec §2 "Action"): its type, an implicit action's kind, an HTTP action's request template
// and the json-query handles applied to HTTP responses.

import { s } from '../http/schema.js';
import { parseJsonQuery } from './json-query.js';

export const ACTION_TYPES = ['http', 'query', 'implicit'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const IMPLICIT_KINDS = ['row/create', 'row/update', 'row/delete', 'bulk/create', 'bulk/update', 'bulk/delete'] as const;
export type ImplicitKind = (typeof IMPLICIT_KINDS)[number];

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
const TEMPLATE_KEYS = new Set(['method', 'url', 'body', 'headers', 'parameters', 'parameter_mappings']);
const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function validTemplate(v: unknown): boolean {
  if (!isMap(v)) return false;
  if (Object.keys(v).some((k) => !TEMPLATE_KEYS.has(k))) return false;
  if (typeof v.method !== 'string' || !HTTP_METHODS.includes(v.method)) return false;
  if (typeof v.url !== 'string' || v.url.length < 1) return false;
  for (const key of ['body', 'headers'] as const) if (v[key] !== undefined && v[key] !== null && typeof v[key] !== 'string') return false;
  if (v.parameters !== undefined && v.parameters !== null && !(Array.isArray(v.parameters) && v.parameters.every(isMap))) return false;
  if (v.parameter_mappings !== undefined && v.parameter_mappings !== null && !isMap(v.parameter_mappings)) return false;
  return true;
}

export const actionSchemas = {
  type: s.enum(ACTION_TYPES, 'Unsupported action type'),
  kind: s.enum(IMPLICIT_KINDS, 'Unsupported implicit action kind'),
  template: s.check<Record<string, unknown>>(
    'map where {:method -> <enum of GET, POST, PUT, DELETE, PATCH>, :url -> <string with length >= 1>, :body (optional) -> <nullable string>, :headers (optional) -> <nullable string>, :parameters (optional) -> <nullable sequence of map>, :parameter_mappings (optional) -> <nullable map>} with no other keys',
    validTemplate,
  ),
  jsonQuery: s.check<string>("must be a valid json-query, something like '.item.title'", (v) => typeof v === 'string' && parseJsonQuery(v) !== null),
  parameters: s.array(s.map()),
  map: s.map(),
};
