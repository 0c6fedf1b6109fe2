// Checking that Quarry can reach a database before saving it: typed details, a short-lived connection, the
// driver's humanized reason on failure (a 400, never a hang: connects time out).

import type { AppContext } from '../context.js';
import type { ConnectionDetails, Driver } from '../drivers/driver.js';
import { findDriver } from '../drivers/registry.js';
import { ConnectionError } from '../drivers/shared/connect-errors.js';
import { ApiError, messageError, validationError } from '../http/errors.js';
import { clojureLiteral } from '../http/schema.js';
import { openOptions } from './open-options.js';

export const ENGINE_MESSAGE = 'value must be a valid database engine.';

export function engineError(engine: unknown): ApiError {
  return validationError({ engine: ENGINE_MESSAGE }, { engine: [`${ENGINE_MESSAGE}, received: ${clojureLiteral(engine)}`] });
}

export function driverOrFail(engine: unknown): Driver {
  const driver = typeof engine === 'string' ? findDriver(engine) : null;
  if (!driver) throw engineError(engine);
  return driver;
}

/** A connection failure as Metabase's 400 body: `{"message": …, "errors": {field: …}}`. */
export function connectionErrorResponse(error: unknown, extra: Record<string, unknown> = {}): ApiError {
  if (error instanceof ApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const field = error instanceof ConnectionError ? error.field : undefined;
  return messageError(400, message, { ...(field ? { errors: { [field]: message } } : {}), ...extra });
}

/** Opens a throwaway connection with these details and checks it works; throws a 400 when it doesn't. */
export async function testConnection(ctx: AppContext, driver: Driver, details: ConnectionDetails, extra: Record<string, unknown> = {}): Promise<void> {
  const connection = driver.open(details, { ...openOptions(ctx), maxConnections: 1 });
  try {
    await connection.test();
  } catch (error) {
    throw connectionErrorResponse(error, extra);
  } finally {
    await connection.close().catch(() => {});
  }
}
