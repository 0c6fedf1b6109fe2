// Browser tests: a real Quarry server (../helpers/server.ts) and Debian's Chromium driven by playwright-core
// (browser downloads are not possible here, so Playwright uses the system's binary). One browser per test file,
// one page reused by its tests. Screenshots go to test-artifacts/screenshots/ (gitignored) for anyone to look at.
// Without /usr/bin/chromium the tests are skipped, saying why; .ci/run installs it.

import { existsSync, mkdirSync, mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, before, after, afterEach } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { appDbKinds, startServer, type AppDbKind, type TestServer } from '../helpers/server.js';
// @ts-expect-error -- a plain .mjs build script, no type declarations
import { webIsStale } from '../../scripts/build-web.mjs';

export const CHROMIUM = '/usr/bin/chromium';
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SCREENSHOTS = join(ROOT, 'test-artifacts/screenshots');

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const NO_CHROMIUM = existsSync(CHROMIUM) ? false : `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium); the browser tests need it`;

/**
 * Builds dist/web when it is missing or older than its sources (scripts/test.mjs does it before the run; this covers
 * running a browser test file on its own). A lock folder keeps test files started together from building at once.
 */
export function ensureWebBuilt(): void {
  if (!webIsStale(ROOT)) return;
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const lock = join(ROOT, 'dist/.web-build-lock');
  for (let waited = 0; ; waited++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > 600) throw new Error(`another build holds ${lock} (remove it if no build is running)`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (!webIsStale(ROOT)) return;
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build-web.mjs')], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building the web app failed (node scripts/build-web.mjs)');
  } finally {
    rmdirSync(lock);
  }
}

export interface BrowserSession {
  server: TestServer;
  context: BrowserContext;
  page: Page;
  /** Absolute URL of a path on the server under test. */
  url(path: string): string;
  /** Saves a screenshot of the page as test-artifacts/screenshots/<name>.png. */
  screenshot(name: string): Promise<void>;
  /** Signs the browser in with an API session (the metabase.SESSION cookie, as POST /api/session sets it). */
  signIn(sessionId: string): Promise<void>;
  /** Messages the page logged as errors, and uncaught exceptions (cleared by each test's end). */
  pageErrors: string[];
}

export async function openBrowser(server: TestServer, label: string): Promise<BrowserSession & { close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'quarry-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
    timezoneId: 'UTC',
    locale: 'en-US',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(20_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    // A failed request is logged by Chromium as an error too; the tests check answers themselves.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) pageErrors.push(message.text());
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    server,
    context,
    page,
    pageErrors,
    url: (path) => server.url + path,
    signIn: async (sessionId) => {
      await context.clearCookies();
      await context.addCookies([{ name: 'metabase.SESSION', value: sessionId, url: server.url, httpOnly: true, sameSite: 'Lax' }]);
    },
    screenshot: async (name) => {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${label}.png`), fullPage: true });
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a block of browser tests once per app-DB kind, each with its own server (started with `env`) and browser.
 * Skipped, saying why, when Chromium is missing.
 */
export function forEachBrowser(title: string, body: (session: () => BrowserSession) => void, options: { env?: Record<string, string>; kinds?: AppDbKind[] } = {}): void {
  for (const kind of options.kinds ?? appDbKinds()) {
    describe(`${title} [${kind}, chromium]`, { skip: NO_CHROMIUM }, () => {
      let session: (BrowserSession & { close(): Promise<void> }) | undefined;
      let server: TestServer | undefined;
      before(async () => {
        ensureWebBuilt();
        server = await startServer(kind, options.env ?? {});
        session = await openBrowser(server, kind);
      });
      afterEach(() => {
        if (session) session.pageErrors.length = 0;
      });
      after(async () => {
        await session?.close();
        await server?.close();
      });
      body(() => {
        if (!session) throw new Error('browser not started');
        return session;
      });
    });
  }
}
