// Typed API errors. Domain code throws these; src/http/error-handler.ts turns them into Metabase's exact bodies:
// a plain-text body when there is only a message, JSON when there is structured data.

export type ErrorBody = string | Record<string, unknown>;

export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;

  constructor(status: number, body: ErrorBody, headers: Record<string, string> = {}) {
    super(typeof body === 'string' ? body : String((body as { message?: unknown }).message ?? `HTTP ${status}`));
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

export const MESSAGES = {
  unauthenticated: 'Unauthenticated',
  forbidden: "You don't have permissions to do that.",
  notFound: 'Not found.',
  invalidRequest: 'Invalid Request.',
  noEndpoint: 'API endpoint does not exist.',
  malformedJson: 'Malformed JSON in request body.',
} as const;

export const unauthenticated = () => new ApiError(401, MESSAGES.unauthenticated);
export const forbidden = (message: string = MESSAGES.forbidden) => new ApiError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new ApiError(404, message);
export const badRequest = (message: string = MESSAGES.invalidRequest) => new ApiError(400, message);
export const conflict = (message: string) => new ApiError(409, message);
export const paymentRequired = (message: string) => new ApiError(402, message);

/** A hand-written field error: 400 `{"errors": {field: message}}` (no specific-errors), as Metabase's `checkp`. */
export const fieldError = (field: string, message: string, status = 400) =>
  new ApiError(status, { errors: { [field]: message } });

/** Schema validation failure: 400 `{"errors": {…}, "specific-errors": {…}}`. */
export const validationError = (errors: Record<string, unknown>, specificErrors: Record<string, unknown>) =>
  new ApiError(400, { errors, 'specific-errors': specificErrors });

/** A JSON error carrying a message and extra keys, e.g. `{"message": "The object has been archived.", …}`. */
export const messageError = (status: number, message: string, extra: Record<string, unknown> = {}) =>
  new ApiError(status, { message, ...extra });

export const archivedError = () =>
  messageError(404, 'The object has been archived.', { error_code: 'archived' });

export function check(condition: unknown, error: () => ApiError): asserts condition {
  if (!condition) throw error();
}

export function check404<T>(value: T | null | undefined, message?: string): T {
  if (value === null || value === undefined) throw notFound(message);
  return value;
}
