// Who may see and edit native query snippets — the one rule every place that shows a snippet asks (the snippets
// API, search, snippet-folder items, bookmarks):
//   - snippets are pieces of SQL: only users who may write native SQL on some database see them at all (Metabase's
//     open-source rule; admins always may);
//   - then the snippet folder's collection permission (the root of the `snippets` namespace for snippets outside any
//     folder), read to see, write to create, edit or move.
// The query engine expanding `{{snippet: …}}` in a saved question doesn't ask here: whoever may run the saved
// question may run the SQL it contains.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { forbidden } from '../http/errors.js';
import { collectionAccess, type CollectionAccess, type CollectionRef } from './collections.js';
import { hasNativeAccessSomewhere } from './data-access.js';

export const SNIPPETS_NAMESPACE = 'snippets';

export class SnippetAccess {
  constructor(
    /** May the caller write native SQL somewhere? Without it, no snippet exists for them. */
    readonly nativeWriter: boolean,
    readonly collections: CollectionAccess,
  ) {}

  /** May the caller see snippets in this folder (null: outside any folder)? */
  canRead(folderId: CollectionRef): boolean {
    return this.nativeWriter && this.collections.canRead(folderId, SNIPPETS_NAMESPACE);
  }

  canWrite(folderId: CollectionRef): boolean {
    return this.nativeWriter && this.collections.canWrite(folderId, SNIPPETS_NAMESPACE);
  }

  /** 403 unless the caller may use snippets at all. */
  checkNativeWriter(): void {
    if (!this.nativeWriter) throw forbidden();
  }

  checkRead(folderId: CollectionRef): void {
    if (!this.canRead(folderId)) throw forbidden();
  }

  checkWrite(folderId: CollectionRef): void {
    if (!this.canWrite(folderId)) throw forbidden();
  }
}

/** Loads the caller's snippet permissions (pass the request's CollectionAccess when there is one already). */
export async function snippetAccess(ctx: AppContext, caller: Caller, collections?: CollectionAccess): Promise<SnippetAccess> {
  const [nativeWriter, access] = await Promise.all([hasNativeAccessSomewhere(ctx, caller), collections ?? collectionAccess(ctx, caller)]);
  return new SnippetAccess(nativeWriter, access);
}
