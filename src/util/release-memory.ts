// One full garbage collection, for the rare moment a large one-off job (the Sample Database's generation, a database's
// first sync) has left tens of megabytes of garbage that an idle server would otherwise hold as RSS: V8 collects when
// allocating, and an idle server doesn't allocate.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collector: (() => void) | null | undefined;

/** One full collection now, in this thread; false where the runtime doesn't allow it. */
export function collectGarbage(): boolean {
  if (collector === undefined) {
    // --expose-gc set at run time takes effect for contexts created afterwards.
    setFlagsFromString('--expose-gc');
    collector = (runInNewContext('gc') as (() => void) | undefined) ?? null;
  }
  collector?.();
  return collector !== null;
}

export function releaseMemory(): void {
  if (!collectGarbage()) return;
  // Work the job scheduled on its way out (field values, the execution log) finishes within seconds: collect again.
  setTimeout(collectGarbage, 10_000).unref();
}
