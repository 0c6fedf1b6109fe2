// One full garbage collection, for the rare moment a large one-off job (the Sample Database's generation and first
// sync on a new install) has left tens of megabytes of garbage that an idle server would otherwise hold as RSS: V8
// collects when allocating, and an idle server doesn't allocate.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function releaseMemory(): void {
  // --expose-gc set at run time takes effect for contexts created afterwards.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  if (!gc) return;
  gc();
  // Work the job scheduled on its way out (field values, the execution log) finishes within seconds: collect again.
  setTimeout(gc, 10_000).unref();
}
