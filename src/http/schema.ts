// A small schema language for request validation whose failures read exactly like Metabase's (Malli) errors:
//   {"errors": {"param": "<description of the schema>"}, "specific-errors": {"param": ["<reason>, received: <value>"]}}
// Each schema knows its human description (for `errors`) and checks a value (reasons go to `specific-errors`).
// Query-string and path values arrive as strings; `coerce` turns them into numbers/booleans first.

import { validationError } from './errors.js';
import { NAME_MAX } from '../util/fit.js';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../util/json-depth.js';
import { described, type JsonSchema } from './json-schema.js';

export interface Issue {
  path: string[];
  message: string;
  received: unknown;
  description: string;
  /** An id beyond any the app DB can hold: as a path param it names nothing (404), elsewhere it is a 400. */
  outOfRange?: boolean;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

export interface Schema<T> {
  readonly description: string;
  readonly isOptional: boolean;
  /** For path params: a regex the URL segment must match, else the route doesn't match at all (404). */
  readonly routePattern?: string;
  /** What it accepts as JSON Schema, for the OpenAPI document (src/openapi); none: only its description is known. */
  readonly json?: JsonSchema;
  parse(value: unknown, coerce: boolean): ParseResult<T>;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

const ok = <T>(value: T): ParseResult<T> => ({ ok: true, value });
const fail = (message: string, received: unknown, description: string): ParseResult<never> => ({
  ok: false,
  issues: [{ path: [], message, received, description }],
});

type Check<T> = (value: unknown, coerce: boolean) => { value: T } | { reason: string; outOfRange?: boolean };

/** A leaf schema: a check that returns the (possibly coerced) value or a failure reason. */
function leaf<T>(description: string, check: Check<T>, json: JsonSchema = {}): Schema<T> {
  return {
    description,
    isOptional: false,
    json: described(json, description),
    parse(value, coerce) {
      if (value === undefined) return fail('missing required key', undefined, description);
      const result = check(value, coerce);
      if ('value' in result) return ok(result.value);
      const issue: Issue = { path: [], message: result.reason, received: value, description };
      if (result.outOfRange) issue.outOfRange = true;
      return { ok: false, issues: [issue] };
    },
  };
}

function toNumber(value: unknown, coerce: boolean): unknown {
  if (coerce && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return value;
}

/**
 * Integers are app-DB `integer` columns (ids, limits, offsets): 32-bit signed. A larger value can't name a row and
 * would make PostgreSQL fail ("value out of range"), so it is refused here, once, for every route.
 */
export const MAX_INT = 2_147_483_647;
export const MIN_INT = -2_147_483_648;

function intCheck(message: string, min: number): Check<number> {
  return (v, c) => {
    const n = toNumber(v, c);
    if (typeof n !== 'number' || !Number.isInteger(n)) return { reason: message };
    if (n > MAX_INT || n < MIN_INT) return { reason: message, outOfRange: true };
    return n < min ? { reason: message } : { value: n };
  };
}

/** Options of the string schemas. */
export interface StringOptions {
  /** Most characters allowed (the app-DB column's size, e.g. 254 for varchar(254)). */
  max?: number;
}

/** Longest `received:` rendering in an error body (a 10 MB value is not echoed back). */
const RECEIVED_MAX = 200;

/** The most items a list in a request may hold (see `s.array`). */
export const MAX_ARRAY_ITEMS = 10_000;

/** Failures reported for one list: the first few say what is wrong (40,000 bad items needn't be listed). */
const REPORTED_ISSUES = 10;

/**
 * Why a string can't be stored, or null: NUL characters (PostgreSQL text refuses them) and values longer than
 * the column (counted in characters, as PostgreSQL and MySQL count them).
 */
function stringProblem(value: string, options: StringOptions): string | null {
  if (value.includes('\u0000')) return 'should not contain NUL characters';
  if (options.max !== undefined && value.length > options.max && [...value].length > options.max) {
    return `should be at most ${options.max} characters`;
  }
  return null;
}

function routed<T>(routePattern: string, schema: Schema<T>): Schema<T> {
  return { ...schema, routePattern, parse: schema.parse };
}

const POS_INT = 'value must be an integer greater than zero.';
const INT = 'value must be an integer.';
const NON_BLANK = 'value must be a non-blank string.';
const MAP = 'Value must be a map.';
const BOOLSTR = "value must be a valid boolean string ('true' or 'false').";
const JSONSTR = 'value must be a valid JSON string.';
const EMAIL = 'value must be a valid email address.';
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A non-blank string without NUL characters, at most `max` characters when given. */
function nbstr(message = NON_BLANK, options: StringOptions = {}) {
  return leaf<string>(
    message,
    (v) => {
      if (typeof v !== 'string' || v.trim().length === 0) return { reason: message };
      const problem = stringProblem(v, options);
      return problem ? { reason: problem } : { value: v };
    },
    stringJson(options, { minLength: 1, pattern: '\\S' }),
  );
}

/** A string schema's JSON Schema: its size cap when it has one. */
function stringJson(options: StringOptions, extra: JsonSchema = {}): JsonSchema {
  return { type: 'string', ...extra, ...(options.max !== undefined ? { maxLength: options.max } : {}) };
}

const intJson = (minimum: number): JsonSchema => ({ type: 'integer', minimum, maximum: MAX_INT });

export const s = {
  /** 1 … 2147483647 (an id). */
  posInt: (message = POS_INT) => routed('^\\d+$', leaf<number>(message, intCheck(message, 1), intJson(1))),
  /** A non-negative integer; Metabase reuses the positive-int message for these (a known quirk). */
  natInt: (message = POS_INT) => routed('^\\d+$', leaf<number>(message, intCheck(message, 0), intJson(0))),
  int: (message = INT) => routed('^-?\\d+$', leaf<number>(message, intCheck(message, MIN_INT), intJson(MIN_INT))),
  number: (message = 'value must be a number.') =>
    leaf<number>(
      message,
      (v, c) => {
        const n = toNumber(v, c);
        return typeof n === 'number' && Number.isFinite(n) ? { value: n } : { reason: message };
      },
      { type: 'number' },
    ),
  /** A non-blank string without NUL characters, at most `max` characters when given. */
  nbstr,
  /** A non-blank name that fits the app DB's varchar(254) name columns. */
  name: () => nbstr(undefined, { max: NAME_MAX }),
  /** Any string without NUL characters, at most `max` characters when given. */
  str: (message = 'string', options: StringOptions = {}) =>
    leaf<string>(
      message,
      (v) => {
        if (typeof v !== 'string') return { reason: 'should be a string' };
        const problem = stringProblem(v, options);
        return problem ? { reason: problem } : { value: v };
      },
      stringJson(options),
    ),
  bool: (message = 'boolean') =>
    leaf<boolean>(
      message,
      (v, c) => {
        if (typeof v === 'boolean') return { value: v };
        if (c && (v === 'true' || v === 'false')) return { value: v === 'true' };
        return { reason: 'should be a boolean' };
      },
      { type: 'boolean' },
    ),
  /** 'true'/'false' strings (also real booleans in JSON bodies). */
  boolstr: (message = BOOLSTR) =>
    leaf<boolean>(
      message,
      (v) => {
        if (typeof v === 'boolean') return { value: v };
        if (typeof v === 'string' && /^(true|false)$/i.test(v)) return { value: v.toLowerCase() === 'true' };
        return { reason: message };
      },
      { type: 'boolean' },
    ),
  map: (message = MAP) =>
    leaf<Record<string, unknown>>(
      message,
      (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? { value: v as Record<string, unknown> } : { reason: message }),
      { type: 'object' },
    ),
  any: () => leaf<unknown>('any', (v) => ({ value: v })),
  /** An email address: at most 254 characters (the RFC limit, and `core_user.email`'s size). */
  email: (message = EMAIL, options: StringOptions = { max: 254 }) =>
    leaf<string>(
      message,
      (v) => {
        if (typeof v !== 'string' || !EMAIL_RE.test(v)) return { reason: message };
        const problem = stringProblem(v, options);
        return problem ? { reason: problem } : { value: v };
      },
      stringJson(options, { format: 'email' }),
    ),
  jsonstr: (message = JSONSTR) =>
    leaf<unknown>(
      message,
      (v) => {
        if (typeof v !== 'string') return { reason: message };
        const read = readJson(v);
        if ('value' in read) return { value: read.value };
        return { reason: read.problem === 'too-deep' ? TOO_DEEP : message };
      },
      { type: 'string', contentMediaType: 'application/json' },
    ),
  enum: <T extends string>(values: readonly T[], message?: string) => {
    const description = message ?? `enum of ${values.join(', ')}`;
    return leaf<T>(
      description,
      (v) =>
        typeof v === 'string' && (values as readonly string[]).includes(v)
          ? { value: v as T }
          : { reason: message ?? `should be either ${values.join(', ')}` },
      { type: 'string', enum: [...values] },
    );
  },
  /** A value passing an arbitrary predicate, reported with one message; `json` says what the OpenAPI document can. */
  check: <T>(message: string, test: (v: unknown) => boolean, json: JsonSchema = {}) =>
    leaf<T>(message, (v) => (test(v) ? { value: v as T } : { reason: message }), json),
  /**
   * A list of `item`s, at most `max` of them (MAX_ARRAY_ITEMS by default: the lists a request sends — ids, cards,
   * parameters — become app-DB statements, whose bound values the engines cap at 32,766 for SQLite).
   */
  array: <T>(item: Schema<T>, message?: string, options: { max?: number } = {}): Schema<T[]> => {
    const description = message ?? `sequence of ${item.description}`;
    const max = options.max ?? MAX_ARRAY_ITEMS;
    return {
      description,
      isOptional: false,
      json: { type: 'array', items: jsonOf(item), maxItems: max, ...(message ? { description: message } : {}) },
      parse(value, coerce) {
        if (value === undefined) return fail('missing required key', undefined, description);
        // Repeated query params arrive as arrays; a single one arrives as a scalar.
        const list = Array.isArray(value) ? value : coerce ? [value] : null;
        if (!list) return fail(message ?? 'invalid type', value, description);
        if (list.length > max) return fail(`should contain at most ${max} items`, value, description);
        const out: T[] = [];
        const issues: Issue[] = [];
        for (const element of list) {
          const r = item.parse(element, coerce);
          if (r.ok) out.push(r.value);
          else if (issues.length < REPORTED_ISSUES) issues.push(...r.issues); // Metabase drops array indexes from error paths
        }
        return issues.length ? { ok: false, issues } : ok(out);
      },
    };
  },
  object: <Shape extends Record<string, Schema<unknown>>>(shape: Shape, message?: string) => objectSchema(shape, message),
  optional: <T>(inner: Schema<T>): Schema<T | undefined> => ({
    description: inner.description,
    isOptional: true,
    json: jsonOf(inner),
    parse(value, coerce) {
      return value === undefined ? ok(undefined) : inner.parse(value, coerce);
    },
  }),
  /** Optional and nullable (Metabase's `[:maybe …]` params): absent or null pass as null. */
  maybe: <T>(inner: Schema<T>): Schema<T | null> => ({
    description: `nullable ${inner.description}`,
    isOptional: true,
    json: nullable(jsonOf(inner)),
    parse(value, coerce) {
      if (value === undefined || value === null) return ok(null);
      const r = inner.parse(value, coerce);
      if (r.ok) return r;
      return { ok: false, issues: r.issues.map((i) => ({ ...i, description: `nullable ${i.description}` })) };
    },
  }),
  /** Optional with a default when absent or null. */
  withDefault: <T>(inner: Schema<T>, fallback: T): Schema<T> => ({
    description: inner.description,
    isOptional: true,
    json: { ...jsonOf(inner), default: fallback },
    parse(value, coerce) {
      return value === undefined || value === null ? ok(fallback) : inner.parse(value, coerce);
    },
  }),
};

/**
 * A schema's JSON Schema. A hand-built schema (a `parse` of its own) that declares none is documented by its
 * description alone.
 */
export function jsonOf(schema: Schema<unknown>): JsonSchema {
  return schema.json ?? { description: schema.description };
}

/** `inner` or null. */
function nullable(inner: JsonSchema): JsonSchema {
  return { anyOf: [inner, { type: 'null' }] };
}

/** A record of named params as one object schema: its keys, and which of them must be present. */
export function objectJson(shape: Record<string, Schema<unknown>>, message?: string): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, schema] of Object.entries(shape)) properties[key] = jsonOf(schema);
  const required = Object.keys(shape).filter((key) => !shape[key].isOptional);
  return { type: 'object', properties, ...(required.length ? { required } : {}), ...(message ? { description: message } : {}) };
}

type ObjectValue<Shape extends Record<string, Schema<unknown>>> = { [K in keyof Shape]: Infer<Shape[K]> };

function objectSchema<Shape extends Record<string, Schema<unknown>>>(
  shape: Shape,
  message?: string,
): Schema<ObjectValue<Shape> & Record<string, unknown>> {
  const keys = Object.keys(shape);
  const description =
    message ??
    `map where {${keys.map((k) => `:${k}${shape[k].isOptional ? ' (optional)' : ''} -> <${shape[k].description}>`).join(', ')}}`;
  return {
    description,
    isOptional: false,
    json: objectJson(shape, message),
    parse(value, coerce) {
      if (value === undefined) return fail('missing required key', undefined, description);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail(MAP, value, description);
      const input = value as Record<string, unknown>;
      const out: Record<string, unknown> = { ...input };
      const issues: Issue[] = [];
      for (const key of keys) {
        const r = shape[key].parse(input[key], coerce);
        if (r.ok) out[key] = r.value;
        else issues.push(...r.issues.map((i) => ({ ...i, path: [key, ...i.path] })));
      }
      return issues.length ? { ok: false, issues } : ok(out as ObjectValue<Shape> & Record<string, unknown>);
    },
  };
}

/** Why JSON nested too deeply is refused (src/util/json-depth.ts). */
export const TOO_DEEP = `nested more than ${MAX_JSON_DEPTH} levels deep`;
const TOO_DEEP_DESCRIPTION = `JSON nested at most ${MAX_JSON_DEPTH} levels deep`;

/** JSON text a client sent (a query-string or form param): its value, or what is wrong with it. */
export function readJson(text: string): { value: unknown } | { problem: 'malformed' | 'too-deep' } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'malformed' };
  }
  return jsonDeeperThan(value) ? { problem: 'too-deep' } : { value };
}

/**
 * JSON text a client sent in the param `name` (a query string, a form field) → its value. Nested too deeply: the 400
 * of throwTooDeep; malformed: the param's own error.
 */
export function parseJsonParam(name: string, text: string, malformed: () => Error): unknown {
  const read = readJson(text);
  if ('value' in read) return read.value;
  if (read.problem === 'too-deep') throwTooDeep([name], text);
  throw malformed();
}

/** The 400 for JSON nested more than MAX_JSON_DEPTH levels deep, at `path` (`["body"]` for a whole request body). */
export function throwTooDeep(path: string[], received: unknown): never {
  return throwIssues([{ path, message: TOO_DEEP, received, description: TOO_DEEP_DESCRIPTION }]);
}

/** The `received:` part of a specific error: the value Clojure-style, cut short when it is long. */
export function receivedLiteral(value: unknown): string {
  const literal = clojureLiteral(value, RECEIVED_MAX + 1);
  return literal.length > RECEIVED_MAX ? `${literal.slice(0, RECEIVED_MAX)}…` : literal;
}

/**
 * Renders a value the way Clojure prints it, for the `received:` part of specific errors. With `max`, rendering stops
 * once that many characters are written (each level of nesting writes at least one, so a value nested 100,000 deep
 * costs no more than a flat one).
 */
export function clojureLiteral(value: unknown, max = Infinity): string {
  const out: string[] = [];
  let length = 0;
  const write = (text: string) => {
    out.push(text);
    length += text.length;
  };
  const render = (v: unknown): void => {
    if (length >= max) return;
    if (v === undefined || v === null) return write('nil');
    if (typeof v === 'string') return write(JSON.stringify(v));
    if (typeof v === 'number' || typeof v === 'boolean') return write(String(v));
    if (Array.isArray(v)) {
      write('[');
      v.forEach((item, i) => {
        if (length >= max) return;
        if (i > 0) write(' ');
        render(item);
      });
      return write(']');
    }
    if (typeof v === 'object') {
      write('{');
      Object.entries(v as Record<string, unknown>).forEach(([k, item], i) => {
        if (length >= max) return;
        write(`${i > 0 ? ', ' : ''}:${k} `);
        render(item);
      });
      return write('}');
    }
    write(String(v));
  };
  render(value);
  return out.join('');
}

function setNested(target: Record<string, unknown>, path: string[], leafValue: (existing: unknown) => unknown) {
  let node = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  node[last] = leafValue(node[last]);
}

/** Builds Metabase's 400 body from issues and throws it. */
export function throwIssues(issues: Issue[]): never {
  const errors: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  for (const issue of issues) {
    const path = issue.path.length ? issue.path : ['_error'];
    setNested(errors, path, () => issue.description);
    setNested(specific, path, (existing) => {
      const list = Array.isArray(existing) ? existing : [];
      list.push(`${issue.message}, received: ${receivedLiteral(issue.received)}`);
      return list;
    });
  }
  throw validationError(errors, specific);
}

/** The 400 for a request body that isn't the JSON object its route takes. */
export function throwBodyNotAMap(received: unknown): never {
  return throwIssues([{ path: ['body'], message: MAP, received, description: MAP }]);
}

/** Validates a record of named params (query string, path or body keys) against a shape. */
export function parseParams<Shape extends Record<string, Schema<unknown>>>(
  shape: Shape,
  input: unknown,
  coerce: boolean,
): ObjectValue<Shape> & Record<string, unknown> {
  const r = tryParseParams(shape, input, coerce);
  if (!r.ok) throwIssues(r.issues);
  return r.value;
}

/** As parseParams, returning the issues instead of throwing them. */
export function tryParseParams<Shape extends Record<string, Schema<unknown>>>(
  shape: Shape,
  input: unknown,
  coerce: boolean,
): ParseResult<ObjectValue<Shape> & Record<string, unknown>> {
  const source = input && typeof input === 'object' && !Array.isArray(input) ? input : {};
  return objectSchema(shape).parse(source, coerce);
}
