// Reading a connected database directly (outside the query pipeline, which reports failures in its results): an
// unreachable database, a table or column that no longer exists, or any other driver error becomes Metabase's 400
// `{"message": <the driver's message>}` instead of a 500. API errors thrown inside pass through unchanged.

import { ApiError } from '../http/errors.js';
import { connectionErrorResponse } from './connection-test.js';

/** The 400 a failed read of a data source answers with (ApiErrors are returned as they are). */
export function sourceError(error: unknown): ApiError {
  return connectionErrorResponse(error);
}

/** Runs `work` (driver calls on a data source), turning its failures into a 400 with the driver's message. */
export async function fromSource<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw sourceError(error);
  }
}
