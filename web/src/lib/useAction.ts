// A form's submit or a button's action: `busy` while it runs, the error's words if it fails (cleared on the next
// run). Pages that navigate away on success simply never see busy go false.

import { useCallback, useState } from 'react';

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function useAction<A extends unknown[]>(action: (...args: A) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError(null);
      try {
        await action(...args);
      } catch (e) {
        setError(errorText(e));
      } finally {
        setBusy(false);
      }
    },
    [action],
  );
  return { busy, error, setError, run };
}
