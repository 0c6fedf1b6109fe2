// A small HTTP client for tests: real requests over the network to a running server, with a session if given.

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
  cookies: string[];
}

export interface RequestOptions {
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | Array<string | number>>;
  /** Send this exact string as the body (with the given content type). */
  raw?: string;
  contentType?: string;
}

export class Client {
  constructor(
    readonly baseUrl: string,
    public session: string | null = null,
    public extraHeaders: Record<string, string> = {},
  ) {}

  withSession(session: string | null): Client {
    return new Client(this.baseUrl, session, this.extraHeaders);
  }

  url(path: string, query?: RequestOptions['query']): string {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
      else url.searchParams.set(k, String(v));
    }
    return url.toString();
  }

  async request<T = any>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...this.extraHeaders, ...(options.headers ?? {}) };
    if (this.session) headers['X-Metabase-Session'] = this.session;
    let payload: string | undefined;
    if (options.raw !== undefined) {
      payload = options.raw;
      headers['Content-Type'] = options.contentType ?? 'application/json';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(this.url(path, options.query), { method, headers, body: payload, redirect: 'manual' });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    let parsed: unknown = text;
    if (type.includes('json') && text.length > 0) parsed = JSON.parse(text);
    return {
      status: response.status,
      body: parsed as T,
      text,
      headers: response.headers,
      cookies: response.headers.getSetCookie(),
    };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, undefined, options);
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, body, options);
  }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, body, options);
  }
  delete<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('DELETE', path, body, options);
  }
}
