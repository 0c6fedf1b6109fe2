// A query the database refused: its own message, where the results would be (the editor highlights the line).

import { Alert, Text } from '@mantine/core';

export function NativeError({ message, line }: { message: string; line: number | null }) {
  return (
    <Alert color="red" title={line ? `There was a problem on line ${line}` : 'There was a problem with this query'} role="alert" data-testid="query-error">
      <Text ff="monospace" size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {message}
      </Text>
    </Alert>
  );
}
