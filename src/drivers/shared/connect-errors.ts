// Turns low-level connection failures into clear, actionable messages that keep the driver's own words. The
// databases layer turns a ConnectionError into Metabase's 400 `{"message": "...", "errors": {"host": "..."}}`.

interface SystemError {
  code?: string;
  errno?: string | number;
  message?: string;
}

/** A message fit for an admin: what went wrong and which setting to look at. */
export function describeConnectError(error: unknown, where: { host?: string; port?: number } = {}): { message: string; field?: string } {
  const e = (error ?? {}) as SystemError;
  const target = where.host ? `${where.host}${where.port ? `:${where.port}` : ''}` : 'the database';
  const raw = (e.message ?? String(error)).trim();
  switch (e.code) {
    case 'ECONNREFUSED':
      return { message: `Connection refused by ${target}. Check your host and port settings. (${raw})`, field: 'port' };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { message: `Unknown host "${where.host ?? ''}". Check your host settings. (${raw})`, field: 'host' };
    case 'ETIMEDOUT':
    case 'ECONNRESET':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { message: `Could not reach ${target} in time. Check your host and port settings. (${raw})`, field: 'host' };
    default:
      break;
  }
  if (/timeout|timed out/i.test(raw)) return { message: `Timed out connecting to ${target}. Check your host and port settings. (${raw})`, field: 'host' };
  if (/password|authentication|access denied|role .* does not exist/i.test(raw)) return { message: raw, field: 'password' };
  if (/database .* does not exist|unknown database/i.test(raw)) return { message: raw, field: 'dbname' };
  return { message: raw || 'Unable to connect to database.' };
}

/** A database that can't be reached or opened; `field` names the details setting to look at. */
export class ConnectionError extends Error {
  constructor(message: string, readonly field?: string) {
    super(message);
    this.name = 'ConnectionError';
  }
}

export function connectionFailed(error: unknown, where: { host?: string; port?: number } = {}): ConnectionError {
  if (error instanceof ConnectionError) return error;
  const { message, field } = describeConnectError(error, where);
  return new ConnectionError(message, field);
}
