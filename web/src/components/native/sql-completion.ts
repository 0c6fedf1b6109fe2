// Autocomplete of table and column names from the database's metadata (GET /api/database/:id/autocomplete_suggestions
// ?substring=…), asked once the person pauses typing (debounced), answers cached per word.

import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';
import { nativeApi } from './api';

const PAUSE_MS = 200;

function wait(ms: number, context: CompletionContext): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(!context.aborted), ms);
    context.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

/** `[name, "Table"]` → a table; `[name, "ORDERS :type/Float"]` → a column of ORDERS. */
function completionOf([name, kind]: [string, string]): Completion {
  if (kind === 'Table') return { label: name, type: 'class', detail: 'table', boost: 1 };
  const [table, baseType] = kind.split(' ');
  return { label: name, type: 'property', detail: `${table}${baseType ? ` ${baseType.replace(/^:type\//, '')}` : ''}` };
}

export function metadataCompletions(databaseId: number): CompletionSource {
  const cache = new Map<string, Promise<Completion[]>>();
  return async (context: CompletionContext): Promise<CompletionResult | null> => {
    // (inside `{{…` a name is a variable or a snippet, not a table)
    if (context.matchBefore(/\{\{[^}]*/)) return null;
    const word = context.matchBefore(/\w+/);
    if (!word || (word.text.length < 1 && !context.explicit)) return null;
    if (!(await wait(PAUSE_MS, context))) return null;
    const key = word.text.toLowerCase();
    let options = cache.get(key);
    if (!options) {
      options = nativeApi.suggestions(databaseId, word.text).then((pairs) => pairs.map(completionOf), () => []);
      cache.set(key, options);
    }
    const list = await options;
    if (context.aborted || list.length === 0) return null;
    return { from: word.from, options: list };
  };
}

/** Inside `{{snippet: …`: the names of the snippets (GET /api/native-query-snippet, asked once), closing the tag. */
export function snippetCompletions(): CompletionSource {
  let snippets: Promise<Completion[]> | null = null;
  return async (context: CompletionContext): Promise<CompletionResult | null> => {
    const typed = context.matchBefore(/\{\{\s*snippet:\s*[^}]*/i);
    if (!typed) return null;
    snippets ??= nativeApi.snippets(new AbortController().signal).then(
      (list) =>
        list.map((s) => ({
          label: s.name,
          type: 'text',
          detail: 'snippet',
          info: s.content,
          apply: (view, _completion, from, to) => {
            const closed = view.state.sliceDoc(to, to + 2) === '}}';
            view.dispatch({ changes: { from, to, insert: closed ? s.name : `${s.name}}}` }, selection: { anchor: from + s.name.length + 2 } });
          },
        })),
      () => [],
    );
    const options = await snippets;
    if (context.aborted) return null;
    const name = /snippet:\s*/i.exec(typed.text)!;
    return { from: typed.from + name.index + name[0].length, options, validFor: /^[^}]*$/ };
  };
}
