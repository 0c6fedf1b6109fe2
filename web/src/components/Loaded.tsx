// Shows what useApi loaded: a loader while it loads, the error if it failed, else the content.

import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Loaded as LoadedState } from '../lib/useApi';
import { CenteredLoader } from './CenteredLoader';

export function Loaded<T>({ state, children }: { state: LoadedState<T>; children: (data: T) => ReactNode }) {
  if (state.error)
    return (
      <Alert color="red" role="alert">
        {state.error.message}
      </Alert>
    );
  if (state.data === undefined) return <CenteredLoader />;
  return <>{children(state.data)}</>;
}
