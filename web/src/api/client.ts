// The one way the app talks to Quarry: fetch with the session cookie (metabase.SESSION, set by POST /api/session
// and POST /api/setup), JSON in and out, Metabase's error bodies turned into an ApiError with a readable message.
// A 401 from a signed-in page sends the person to sign-in and back afterwards (see setUnauthorizedHandler).

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }

  /** Per-field messages of a validation or login error (`{errors: {password: "…"}}`). */
  get fieldErrors(): Record<string, string> {
    const errors = isRecord(this.body) ? this.body.errors : undefined;
    if (!isRecord(errors)) return {};
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(errors)) if (typeof value === 'string') out[key] = value;
    return out;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The words of a Metabase error body: a plain-text body, `message`, `error`, or the first field error. */
export function messageOf(body: unknown, status: number): string {
  if (typeof body === 'string' && body.trim()) return body;
  if (isRecord(body)) {
    for (const key of ['message', 'error']) if (typeof body[key] === 'string' && body[key]) return body[key] as string;
    const first = firstString(body.errors);
    if (first) return first;
  }
  return `The server answered ${status}.`;
}

/** The first message in a (possibly nested) `errors` map: setup reports `{errors: {user: {password: "…"}}}`. */
function firstString(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (!isRecord(value)) return null;
  for (const inner of Object.values(value)) {
    const found = firstString(inner);
    if (found) return found;
  }
  return null;
}

let onUnauthorized: (() => void) | null = null;

/** What to do when a request that needs a session gets a 401 (the app installs a redirect to sign-in). */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  /** A 401 is an answer the caller handles itself (sign-in, public pages), not a reason to go to sign-in. */
  allowUnauthorized?: boolean;
  signal?: AbortSignal;
  /** Query-string values; arrays repeat the key, undefined/null are left out. */
  query?: Record<string, string | number | boolean | null | undefined | Array<string | number>>;
}

export function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

export async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const response = await fetch(withQuery(path, options.query), {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: options.signal,
  });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) {
    if (response.status === 401 && !options.allowUnauthorized) onUnauthorized?.();
    throw new ApiError(response.status, parsed, messageOf(parsed, response.status));
  }
  return (text ? parsed : undefined) as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body ?? {}, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body ?? {}, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
};
