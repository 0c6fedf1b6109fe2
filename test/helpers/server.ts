// Starts a real Quarry server for a test file, on a fresh app database of the requested kind, listening on a
// random port; tests talk to it over HTTP with ./client.ts.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, before, after } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createServer, type Server } from '../../src/server.js';
import type { AppContext } from '../../src/context.js';
import type { MailMessage } from '../../src/notify/mailer.js';
import { Client } from './client.js';
import { createMysqlDatabase, createPgDatabase, PG, MYSQL } from './databases.js';

export type AppDbKind = 'sqlite' | 'postgres' | 'mysql';

export interface TestServer {
  kind: AppDbKind;
  url: string;
  ctx: AppContext;
  server: Server;
  /** Messages the server "sent" (the test mailer keeps them instead). */
  mail: MailMessage[];
  anon: Client;
  close(): Promise<void>;
}

export const ADMIN = { email: 'admin@example.com', password: 'Quarry-Adm1n-Pass!', first_name: 'Ada', last_name: 'Admin' };

/** App-DB kinds the suite runs on: QUARRY_TEST_APPDBS, default "sqlite,postgres". */
export function appDbKinds(): AppDbKind[] {
  return (process.env.QUARRY_TEST_APPDBS ?? 'sqlite,postgres').split(',').map((k) => k.trim()).filter(Boolean) as AppDbKind[];
}

/** `[kind]` when the suite runs on that app-DB kind, else none: for a file that covers one kind. */
export function onlyIfTested(kind: AppDbKind): AppDbKind[] {
  return appDbKinds().includes(kind) ? [kind] : [];
}

export async function appDbEnv(kind: AppDbKind): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-test-'));
    return { env: { MB_DB_TYPE: 'sqlite', MB_DB_FILE: join(dir, 'quarry.db') }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-test-'));
  if (kind === 'postgres') {
    const db = await createPgDatabase();
    return {
      env: { MB_DB_TYPE: 'postgres', MB_DB_HOST: PG.host, MB_DB_PORT: String(PG.port), MB_DB_USER: PG.user, MB_DB_DBNAME: db.name, MB_DB_FILE: join(dataDir, 'quarry.db'), ...(PG.password ? { MB_DB_PASS: PG.password } : {}) },
      cleanup: async () => {
        await db.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const db = await createMysqlDatabase();
  return {
    env: { MB_DB_TYPE: 'mysql', MB_DB_HOST: MYSQL.host, MB_DB_PORT: String(MYSQL.port), MB_DB_USER: MYSQL.user, MB_DB_PASS: MYSQL.password, MB_DB_DBNAME: db.name, MB_DB_FILE: join(dataDir, 'quarry.db') },
    cleanup: async () => {
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startServer(kind: AppDbKind, env: Record<string, string> = {}, existing?: Record<string, string>): Promise<TestServer> {
  const appDb = existing ? { env: existing, cleanup: async () => {} } : await appDbEnv(kind);
  const config = loadConfig({
    MB_JETTY_HOST: '127.0.0.1',
    MB_JETTY_PORT: '0',
    MB_LOAD_SAMPLE_CONTENT: 'false',
    QUARRY_LOG_LEVEL: process.env.QUARRY_TEST_LOG_LEVEL ?? 'fatal',
    ...appDb.env,
    ...env,
  });
  const server = await createServer(config);
  const mail: MailMessage[] = [];
  server.ctx.mailer = { send: async (message) => void mail.push(message) };
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    kind,
    url,
    ctx: server.ctx,
    server,
    mail,
    anon: new Client(url),
    async close() {
      await server.close();
      await appDb.cleanup();
    },
  };
}

/** Completes first-time setup and returns a client logged in as the admin. */
export async function setupAdmin(t: TestServer): Promise<Client> {
  const props = await t.anon.get('/api/session/properties');
  const response = await t.anon.post('/api/setup', {
    token: props.body['setup-token'],
    user: ADMIN,
    prefs: { site_name: 'Quarry Test' },
  });
  if (response.status !== 200) throw new Error(`setup failed: ${response.status} ${response.text}`);
  return t.anon.withSession(response.body.id);
}

let userCounter = 0;

/** Creates a user through the API (as admin) and returns a client logged in as them. */
export async function createUserClient(
  t: TestServer,
  admin: Client,
  fields: Record<string, unknown> = {},
): Promise<{ client: Client; user: any; password: string }> {
  userCounter += 1;
  const password = 'Str0ng-Pass-' + userCounter + '-' + Math.random().toString(36).slice(2, 8);
  const email = (fields.email as string) ?? `user${userCounter}.${Date.now()}@example.com`;
  const created = await admin.post('/api/user', { first_name: 'Test', last_name: `User${userCounter}`, email, password, ...fields });
  if (created.status !== 200) throw new Error(`create user failed: ${created.status} ${created.text}`);
  const login = await t.anon.post('/api/session', { username: email, password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return { client: t.anon.withSession(login.body.id), user: created.body, password };
}

/**
 * Runs a block of tests once per app-DB kind, each against its own freshly started server.
 * `body` receives a getter for the server (available inside tests and hooks).
 */
export function forEachAppDb(title: string, body: (server: () => TestServer) => void, kinds: AppDbKind[] = appDbKinds()): void {
  for (const kind of kinds) {
    describe(`${title} [${kind}]`, () => {
      let server: TestServer | undefined;
      before(async () => {
        server = await startServer(kind);
      });
      after(async () => {
        await server?.close();
      });
      body(() => {
        if (!server) throw new Error('server not started');
        return server;
      });
    });
  }
}
