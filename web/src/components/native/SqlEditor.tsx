// The SQL editor: CodeMirror 6 with the engine's SQL dialect, autocomplete from the database's metadata (and snippet
// names after `{{snippet:`), the line a database error points at highlighted, Ctrl/Cmd-Enter to run. Loaded lazily
// (LazySqlEditor.tsx): CodeMirror is downloaded only when someone writes SQL.

import { useEffect, useRef } from 'react';
import { basicSetup } from 'codemirror';
import { EditorView, Decoration, keymap, placeholder, type DecorationSet } from '@codemirror/view';
import { Compartment, EditorState, Prec, StateEffect, StateField, type Extension } from '@codemirror/state';
import { sql, MySQL, MariaSQL, PostgreSQL, SQLite, StandardSQL, type SQLDialect } from '@codemirror/lang-sql';
import { metadataCompletions, snippetCompletions } from './sql-completion';

export interface EditorHandle {
  /** Puts `text` where the cursor is (replacing the selection) and focuses the editor. */
  insert(text: string): void;
}

export interface SqlEditorProps {
  value: string;
  onChange(sql: string): void;
  engine: string | undefined;
  databaseId: number | null;
  /** 1-based line a database error pointed at, highlighted until the SQL changes. */
  errorLine: number | null;
  onRun(): void;
  handleRef?: { current: EditorHandle | null };
}

function dialectOf(engine: string | undefined): SQLDialect {
  switch (engine) {
    case 'postgres':
    case 'duckdb':
      return PostgreSQL;
    case 'mysql':
      return MySQL;
    case 'mariadb':
      return MariaSQL;
    case 'sqlite':
      return SQLite;
    default:
      return StandardSQL;
  }
}

const setErrorLine = StateEffect.define<number | null>();

const errorLineField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(decorations, tr) {
    for (const effect of tr.effects) {
      if (!effect.is(setErrorLine)) continue;
      const line = effect.value;
      if (line === null || line < 1 || line > tr.state.doc.lines) return Decoration.none;
      return Decoration.set([Decoration.line({ class: 'cm-error-line', attributes: { 'data-error-line': String(line) } }).range(tr.state.doc.line(line).from)]);
    }
    return tr.docChanged ? Decoration.none : decorations;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const theme = EditorView.theme({
  '&': { minHeight: '180px', border: '1px solid var(--mantine-color-default-border)', borderRadius: '4px', fontSize: '14px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', minHeight: '180px' },
  '.cm-error-line': { backgroundColor: 'var(--mantine-color-red-light)' },
});

export default function SqlEditor({ value, onChange, engine, databaseId, errorLine, onRun, handleRef }: SqlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  const callbacks = useRef({ onChange, onRun });
  callbacks.current = { onChange, onRun };

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (callbacks.current.onRun(), true) }])),
          basicSetup,
          language.current.of([]),
          errorLineField,
          theme,
          placeholder('SELECT …  ({{name}} makes a parameter)'),
          EditorView.contentAttributes.of({ 'aria-label': 'SQL query' }),
          EditorView.updateListener.of((update) => update.docChanged && callbacks.current.onChange(update.state.doc.toString())),
        ],
      }),
    });
    view.current = editor;
    if (handleRef)
      handleRef.current = {
        insert(text) {
          const { from, to } = editor.state.selection.main;
          editor.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
          editor.focus();
        },
      };
    return () => {
      editor.destroy();
      view.current = null;
      if (handleRef) handleRef.current = null;
    };
    // The document is the editor's own after it starts; `value` only seeds it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const dialect = dialectOf(engine);
    const extensions: Extension[] = [sql({ dialect, upperCaseKeywords: true })];
    extensions.push(dialect.language.data.of({ autocomplete: snippetCompletions() }));
    if (databaseId !== null) extensions.push(dialect.language.data.of({ autocomplete: metadataCompletions(databaseId) }));
    view.current?.dispatch({ effects: language.current.reconfigure(extensions) });
  }, [engine, databaseId]);

  useEffect(() => {
    view.current?.dispatch({ effects: setErrorLine.of(errorLine) });
  }, [errorLine]);

  return <div ref={host} data-testid="sql-editor" data-engine={engine ?? ''} />;
}
