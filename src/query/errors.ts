// Errors raised while preparing or running a query. They don't become HTTP errors: the writer turns them into
// Metabase's failed-result body (202, `status: "failed"`, `error`, `error_type`, reference §4.6).

export type QueryErrorType =
  | 'invalid-query'
  | 'missing-required-parameter'
  | 'invalid-parameter'
  | 'unsupported-feature'
  | 'missing-required-permissions'
  | 'bad-configuration'
  | 'timed-out'
  | 'qp'
  | 'driver'
  | 'db'
  | 'server'
  | 'client';

export class QueryError extends Error {
  constructor(
    readonly type: QueryErrorType,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

export const invalidQuery = (message: string, extra?: Record<string, unknown>) => new QueryError('invalid-query', message, extra);
export const invalidParameter = (message: string) => new QueryError('invalid-parameter', message);
export const unsupported = (message: string) => new QueryError('unsupported-feature', message);

/** Error types whose message public and embedded results keep (the rest become a generic message). */
export const PUBLIC_ERROR_TYPES: ReadonlySet<string> = new Set(['missing-required-parameter', 'invalid-parameter', 'unsupported-feature', 'timed-out']);
