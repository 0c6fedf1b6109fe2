// The SQL editor, downloaded on first use (CodeMirror stays out of the app's first download).

import { lazy, Suspense } from 'react';
import { CenteredLoader } from '../CenteredLoader';
import type { SqlEditorProps } from './SqlEditor';

const SqlEditor = lazy(() => import('./SqlEditor'));

export function LazySqlEditor(props: SqlEditorProps) {
  return (
    <Suspense fallback={<CenteredLoader label="Loading the SQL editor…" />}>
      <SqlEditor {...props} />
    </Suspense>
  );
}
