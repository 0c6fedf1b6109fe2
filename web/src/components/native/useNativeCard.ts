// The SQL question being edited: its SQL, database and template tags (kept in step with the SQL as it is typed), and
// the values typed into its widgets. A tag deleted from the SQL and typed again (a select-all and retype, an undo)
// comes back with the settings it had.

import { useCallback, useRef, useState } from 'react';
import { syncTemplateTags } from './template-tags';
import type { NativeCard, TagValues, TemplateTag, TemplateTags } from './types';

export function useNativeCard(initial: NativeCard) {
  const [card, setCard] = useState<NativeCard>(() => {
    const native = initial.dataset_query.native ?? { query: '', 'template-tags': {} };
    return { ...initial, dataset_query: { ...initial.dataset_query, native: { query: native.query ?? '', 'template-tags': syncTemplateTags(native.query ?? '', native['template-tags'] ?? {}) } } };
  });
  const [values, setValues] = useState<TagValues>(() => {
    const out: TagValues = {};
    for (const tag of Object.values(card.dataset_query.native['template-tags'])) if (typeof tag.default === 'string' || typeof tag.default === 'number') out[tag.name] = String(tag.default);
    return out;
  });

  const setNative = (change: (native: NativeCard['dataset_query']['native']) => NativeCard['dataset_query']['native']) =>
    setCard((c) => ({ ...c, dataset_query: { ...c.dataset_query, native: change(c.dataset_query.native) } }));

  const known = useRef<TemplateTags>({});
  const setSql = useCallback(
    (query: string) =>
      setNative((n) => {
        known.current = { ...known.current, ...n['template-tags'] };
        return { query, 'template-tags': syncTemplateTags(query, known.current) };
      }),
    [],
  );
  const setDatabase = useCallback((database: number) => setCard((c) => ({ ...c, dataset_query: { ...c.dataset_query, database } })), []);
  const updateTag = useCallback((tag: TemplateTag) => setNative((n) => ({ ...n, 'template-tags': { ...n['template-tags'], [tag.name]: tag } })), []);
  const setValue = useCallback((name: string, value: string | string[]) => setValues((v) => ({ ...v, [name]: value })), []);
  const saved = useCallback((id: number, name: string, collection_id: number | null) => setCard((c) => ({ ...c, id, name, collection_id })), []);

  return { card, values, setSql, setDatabase, updateTag, setValue, saved };
}
