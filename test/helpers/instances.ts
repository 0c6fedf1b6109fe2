// Other Quarry processes on the same app DB: each a real `src/main.ts` on its own port, sharing no memory with the
// test's own server — a cluster of instances, as production runs them.

import { spawn } from 'node:child_process';
import type { TestServer } from './server.js';
import { freePort } from './free-port.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Instance {
  url: string;
  pid: number;
  /** Stops it cleanly (SIGTERM) and waits. */
  stop(): Promise<void>;
  /** Kills it on the spot (SIGKILL: no clean-up, as a crash) and waits. */
  kill(): Promise<void>;
}

/** The app-DB variables of a running test server, to start more instances on the same app DB. */
export function appDbEnvOf(t: TestServer): Record<string, string> {
  const env = t.ctx.config.env;
  const keys = ['MB_DB_TYPE', 'MB_DB_FILE', 'MB_DB_HOST', 'MB_DB_PORT', 'MB_DB_USER', 'MB_DB_PASS', 'MB_DB_DBNAME'];
  return Object.fromEntries(keys.filter((k) => env[k] !== undefined).map((k) => [k, env[k]!]));
}

/** Another Quarry process on the app DB that `env` names; resolves once it answers /api/health. */
export async function spawnInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, MB_LOAD_SAMPLE_CONTENT: 'false', QUARRY_LOG_LEVEL: 'error', ...env, MB_JETTY_HOST: '127.0.0.1', MB_JETTY_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  };
  const instance: Instance = { url, pid: child.pid!, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) return instance;
    if (Date.now() > deadline || child.exitCode !== null) {
      await instance.stop();
      throw new Error(`the instance did not start: ${stderr}`);
    }
    await sleep(50);
  }
}
