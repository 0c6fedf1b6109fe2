// Builds the server: opens and migrates the app DB, creates the shared context, installs the cross-cutting HTTP
// pieces (body parsing, cookies, headers, errors) and registers every API area's routes.

import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openAppDb } from './appdb/connect.js';
import { migrateToLatest } from './appdb/migrate.js';
import { SettingsStore } from './settings/store.js';
import './settings/definitions.js';
import { systemMailer } from './notify/mailer.js';
import { installBodyParsers } from './http/body-parsers.js';
import { installErrorHandling, frameworkErrors } from './http/error-handler.js';
import { installSecurityHeaders } from './http/headers.js';
import { routes } from './http/route.js';
import { webAppPages } from './webapp/pages.js';
import { registerApi } from './api/index.js';
import { recordRoutes } from './openapi/registry.js';
import { startBackgroundTasks } from './tasks/index.js';
import { startCacheMaintenance } from './cache/maintenance.js';
import { startModelPersistence } from './persistence/schedule.js';

import { captureLog } from './diagnostics/log-buffer.js';
import { noteStartupTime } from './diagnostics/startup.js';
export const BODY_LIMIT_BYTES = 10 * 1024 * 1024;

export interface Server {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

export async function createServer(config: Config): Promise<Server> {
  const started = performance.now();
  const app = Fastify({
    // every line is also kept for GET /api/logger/logs (src/diagnostics/log-buffer.ts)
    logger: { level: config.logLevel, hooks: { logMethod: captureLog } },
    // JSON bodies (dashboards with their cards, query definitions) stay far below this; file uploads are multipart,
    // with their own limit (src/uploads MAX_UPLOAD_BYTES).
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2000 },
    frameworkErrors,
  });
  // Before anything adds a route: the OpenAPI document lists every route recorded here.
  recordRoutes(app);
  const appDb = await openAppDb(config.appDb);
  try {
    await migrateToLatest(appDb);
  } catch (error) {
    await appDb.close();
    throw error;
  }

  const ctx = {
    config,
    appDb,
    db: appDb.db,
    dialect: appDb.dialect,
    log: app.log,
    onClose: [],
  } as unknown as AppContext;
  ctx.settings = new SettingsStore(ctx);
  ctx.mailer = systemMailer(ctx);
  try {
    // A bad MB_<SETTING> value stops start-up with a message naming it (README, "Configuration").
    ctx.settings.validateEnvironment();
    await ctx.settings.refresh();
  } catch (error) {
    await appDb.close();
    throw error;
  }

  await app.register(cookie);
  installBodyParsers(app);
  installSecurityHeaders(app);
  // Pages of the web app answer GET paths outside /api (src/webapp).
  installErrorHandling(app, webAppPages(config.env.QUARRY_WEB_DIR));
  await registerApi(routes(app, ctx), app, ctx);
  startBackgroundTasks(ctx);
  startCacheMaintenance(ctx);
  startModelPersistence(ctx);
  noteStartupTime(ctx, performance.now() - started);

  return {
    app,
    ctx,
    async close() {
      await app.close();
      for (const fn of ctx.onClose.reverse()) await fn();
      await appDb.close();
    },
  };
}
