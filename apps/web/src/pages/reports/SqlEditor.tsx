// The SQL editor: CodeMirror 6 with PostgreSQL highlighting, autocomplete of the readable tables
// and their columns, Ctrl/Cmd+Enter to run, and the last run's mistake underlined until the SQL is
// edited. Controlled: the draft's SQL is the source of truth.
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { autocompletion, closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { PostgreSQL, sql, type SQLNamespace } from '@codemirror/lang-sql';
import { Compartment, EditorState, Prec, StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, highlightActiveLine, keymap, lineNumbers, placeholder, type DecorationSet } from '@codemirror/view';
import type { ReadableRelation } from '@stockwise/contract';
import { mistakeRange } from './sql-mistake.ts';

/** `goTo`: the cursor to a 1-based line and column (in characters), the editor focused. */
export type SqlEditorHandle = { insert: (text: string) => void; focus: () => void; goTo: (line: number, column: number) => void };

/** Where the last run's error is: underlined, with the message as its title; `describedBy` names the error shown beside the editor. */
export type SqlMistake = { line: number; column: number; message: string; describedBy: string };

type SqlEditorProps = {
  value: string;
  schema: ReadableRelation[];
  label: string;
  readOnly: boolean;
  onChange: (value: string) => void;
  onRun: () => void;
  mistake?: SqlMistake | null;
  handle?: Ref<SqlEditorHandle>;
};

const theme = EditorView.theme({
  '&': { fontSize: '14px', border: '1px solid var(--mantine-color-gray-4)', borderRadius: '4px', backgroundColor: 'var(--mantine-color-white)' },
  '&.cm-focused': { outline: '2px solid var(--mantine-color-blue-6)' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', minHeight: '10rem' },
  // Darker than the default grey, for WCAG AA contrast on white.
  '.cm-lineNumbers .cm-gutterElement': { color: '#5c5f66' },
  // An underline only: the text's colours, and so its contrast, stay as they are.
  '.cm-sql-mistake': { textDecoration: 'underline wavy #c92a2a', textDecorationSkipInk: 'none', textUnderlineOffset: '3px' },
});

/**
 * CodeMirror's default token colours, but for three below WCAG AA's 4.5:1 on the active line's
 * light blue (type names #085, escapes #e40, invalid #f00: 3.6–4.3:1), darkened to about 6:1.
 */
const READABLE_COLOURS: Record<string, string> = { '#085': '#006b44', '#e40': '#b33000', '#f00': '#c00000' };
export const readableHighlightStyle = HighlightStyle.define(defaultHighlightStyle.specs.map((spec) => (spec.color && READABLE_COLOURS[spec.color] ? { ...spec, color: READABLE_COLOURS[spec.color] } : spec)));

const setMistake = StateEffect.define<{ from: number; to: number; mistake: SqlMistake } | null>();

/** The mistake's underline: set by the page, gone with the first edit (the place it named may have moved). */
const mistakeField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    for (const effect of transaction.effects) {
      if (!effect.is(setMistake)) continue;
      if (!effect.value) return Decoration.none;
      const { from, to, mistake } = effect.value;
      const attributes = { title: mistake.message, 'aria-describedby': mistake.describedBy, 'data-testid': 'sql-mistake' };
      return Decoration.set([Decoration.mark({ class: 'cm-sql-mistake', attributes }).range(from, to)]);
    }
    return transaction.docChanged ? Decoration.none : marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/** Relations as lang-sql's completion namespace: name → column names. */
function namespaceOf(schema: ReadableRelation[]): SQLNamespace {
  return Object.fromEntries(schema.map((relation) => [relation.name, relation.columns.map((column) => column.name)]));
}

export function SqlEditor({ value, schema, label, readOnly, onChange, onRun, mistake = null, handle }: SqlEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  const editable = useRef(new Compartment());
  // The latest callbacks, without rebuilding the editor when they change.
  const callbacks = useRef({ onChange, onRun });
  useEffect(() => {
    callbacks.current = { onChange, onRun };
  }, [onChange, onRun]);

  useEffect(() => {
    const view = new EditorView({
      parent: hostRef.current as HTMLDivElement,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          bracketMatching(),
          closeBrackets(),
          highlightActiveLine(),
          // Long lines wrap and the editor grows with its text: no scroll region without a keyboard stop.
          EditorView.lineWrapping,
          syntaxHighlighting(readableHighlightStyle),
          // Its own keymap (Enter/Tab accept, Escape closes) comes first.
          autocompletion(),
          placeholder('SELECT …'),
          Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (callbacks.current.onRun(), true) }])),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
          language.current.of(sql({ dialect: PostgreSQL, schema: {} })),
          editable.current.of(EditorState.readOnly.of(readOnly)),
          EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': 'sql-editor' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
          mistakeField,
          theme,
        ],
      }),
    });
    viewRef.current = view;
    return () => {
      view.destroy();
      viewRef.current = null;
    };
    // The editor is built once; value, schema and readOnly are synced by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    viewRef.current?.dispatch({ effects: language.current.reconfigure(sql({ dialect: PostgreSQL, schema: namespaceOf(schema), upperCaseKeywords: false })) });
  }, [schema]);

  useEffect(() => {
    viewRef.current?.dispatch({ effects: editable.current.reconfigure(EditorState.readOnly.of(readOnly)) });
  }, [readOnly]);

  useEffect(() => {
    const view = viewRef.current;
    if (view && view.state.doc.toString() !== value) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
  }, [value]);

  // After the value's effect: the place is looked up in the text the editor now holds.
  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    const range = mistake ? mistakeRange(view.state.doc, mistake.line, mistake.column) : null;
    view.dispatch({ effects: setMistake.of(mistake && range && range.from < range.to ? { from: range.from, to: range.to, mistake } : null) });
  }, [mistake]);

  useImperativeHandle(handle, () => ({
    insert: (text) => {
      const view = viewRef.current;
      if (!view) return;
      const { from, to } = view.state.selection.main;
      view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
      view.focus();
    },
    focus: () => viewRef.current?.focus(),
    goTo: (line, column) => {
      const view = viewRef.current;
      const range = view ? mistakeRange(view.state.doc, line, column) : null;
      if (!view || !range) return;
      view.dispatch({ selection: { anchor: range.cursor }, scrollIntoView: true });
      view.focus();
    },
  }));

  return <div ref={hostRef} />;
}
