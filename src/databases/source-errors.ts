// Reading a connected database directly (outside the query pipeline, which reports failures in its results): an
// unreachable database, a table or column that no longer exists, or any other driver error becomes Metabase's 400
// `{"message": <the driver's message>}` instead of a 500. API errors thrown inside pass through unchanged.

import { connectionErrorResponse } from './connection-test.js';

/** Runs `work` (driver calls on a data source), turning its failures into a 400 with the driver's message. */
export async function fromSource<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw connectionErrorResponse(error); // ApiErrors pass through as they are
  }
}
