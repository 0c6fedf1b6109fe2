// What the benchmarks that drive a Quarry process share: waiting for something to be ready, and a small API client.

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

export const BENCH_ADMIN = { email: 'bench@example.com', password: 'Bench-Pass-123', first_name: 'Bench', last_name: 'Admin' };

/** The first-run setup of a fresh instance (POST /api/setup with its setup token): an API client as its admin. */
export async function setupInstance(base: string): Promise<Api> {
  const props = (await (await fetch(`${base}/api/session/properties`)).json()) as Record<string, string>;
  const r = await fetch(`${base}/api/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: props['setup-token'], user: BENCH_ADMIN, prefs: { site_name: 'Bench' } }),
  });
  return new Api(base, ((await r.json()) as { id: string }).id);
}

/** The built server (dist/main.js) as a child process on 127.0.0.1:`port`, logging errors only. */
export function startQuarry(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [fileURLToPath(new URL('../dist/main.js', import.meta.url))], {
    env: { ...process.env, ...env, MB_JETTY_HOST: '127.0.0.1', MB_JETTY_PORT: String(port), QUARRY_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
