// What the benchmarks that drive a Quarry process share: waiting for something to be ready, and a small API client.

export { waitFor } from './wait.js';

export class Api {
  constructor(
    readonly base: string,
    readonly session: string,
  ) {}

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const r = await fetch(this.base + path, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Metabase-Session': this.session },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  }

  async ok(method: string, path: string, body?: unknown): Promise<any> {
    const r = await this.call(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    return r.body;
  }
}
