import { Alert } from '@mantine/core';
import type { QueryResult } from '../api/types';

/** A query that ran and failed (`status: "failed"` with a 202): the database's message, where the result would be. */
export function QueryFailure({ result }: { result: QueryResult }) {
  return (
    <Alert color="red" title="There was a problem with this question" role="alert">
      {result.error ?? 'The query failed.'}
    </Alert>
  );
}
