// The JSON Schema (2020-12, as OpenAPI 3.1 uses it) a request schema emits, and what a route may add for its
// documentation that validation can't say (its responses). src/openapi turns these into the OpenAPI document.

export interface JsonSchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  contentMediaType?: string;
  items?: JsonSchema;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  default?: unknown;
  $ref?: string;
}

/** One documented response of a route. */
export interface ResponseDoc {
  description: string;
  /** The body's shape (JSON unless `contentType` says otherwise); none for an empty body. */
  schema?: JsonSchema;
  contentType?: string;
}

/** Documentation a route declares beside its validation schemas (`doc` in src/http/route.ts's RouteSpec). */
export interface RouteDoc {
  summary?: string;
  /** Its successful answers by status code (default: 200 with a JSON body for a GET, any 2XX otherwise). */
  responses?: Record<number, ResponseDoc>;
  /** A JSON body the route reads and checks itself (an MBQL query), when it declares no `body` keys. */
  body?: JsonSchema;
  /** A multipart/form-data body's fields (file uploads), which the route reads itself. */
  multipart?: Record<string, JsonSchema>;
}

/** A description worth repeating in a document: the defaults that only name a type say nothing a `type` doesn't. */
export function described(json: JsonSchema, description: string): JsonSchema {
  return ['string', 'boolean', 'any'].includes(description) ? json : { ...json, description };
}
