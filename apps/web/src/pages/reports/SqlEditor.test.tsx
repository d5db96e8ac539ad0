// The SQL editor's mistake: the server's line and column (characters) found in the editor's text
// (UTF-16), the word there underlined with the message as its title, the cursor put there on
// request, and the underline gone with the first edit.
import { createRef } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { Text } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { SqlEditor, type SqlEditorHandle, type SqlMistake } from './SqlEditor.tsx';
import { mistakeRange } from './sql-mistake.ts';

beforeAll(stubBrowserLayout);
afterEach(cleanup);

describe('mistakeRange', () => {
  const doc = (text: string) => Text.of(text.split('\n'));

  it('finds a column counted in characters, an emoji being one', () => {
    const text = "select '😀' as a,\n  s.quantiy from sales s";
    expect(mistakeRange(doc(text), 1, 8)).toEqual({ cursor: 7, from: 7, to: 11 });
    const second = text.indexOf('s.quantiy');
    expect(mistakeRange(doc(text), 2, 3)).toEqual({ cursor: second, from: second, to: second + 1 });
    expect(mistakeRange(doc(text), 2, 5)).toEqual({ cursor: second + 2, from: second + 2, to: second + 9 });
  });

  it('underlines the character before the end of input, and finds no place the text lacks', () => {
    expect(mistakeRange(doc('select * from sales where'), 1, 26)).toEqual({ cursor: 25, from: 24, to: 25 });
    expect(mistakeRange(doc('select 1'), 1, 10)).toBeNull();
    expect(mistakeRange(doc('select 1'), 2, 1)).toBeNull();
    expect(mistakeRange(doc('select 1'), 0, 1)).toBeNull();
  });
});

describe('SqlEditor', () => {
  const mistake: SqlMistake = { line: 2, column: 5, message: 'column "quantiy" does not exist.', describedBy: 'run-error-message' };

  function renderEditor(value: string, shown: SqlMistake | null) {
    const handle = createRef<SqlEditorHandle>();
    const props = { schema: [], label: 'SQL', readOnly: false, onChange: () => undefined, onRun: () => undefined, handle };
    const rendered = render(<SqlEditor {...props} value={value} mistake={shown} />);
    const view = EditorView.findFromDOM(rendered.container.querySelector('.cm-editor') as HTMLElement) as EditorView;
    const rerender = (next: SqlMistake | null) => rendered.rerender(<SqlEditor {...props} value={value} mistake={next} />);
    return { handle, view, rerender, underline: () => rendered.container.querySelector('[data-testid="sql-mistake"]') };
  }

  it('underlines the mistake with its message, and puts the cursor there on request', () => {
    const sql = "select 'Größe',\n  s.product_id, quantiy from sales s";
    const { handle, view, underline } = renderEditor(sql, { ...mistake, column: 17 });
    expect(underline()?.textContent).toBe('quantiy');
    expect(underline()?.getAttribute('title')).toBe('column "quantiy" does not exist.');
    expect(underline()?.getAttribute('aria-describedby')).toBe('run-error-message');

    handle.current?.goTo(2, 17);
    expect(view.state.selection.main.head).toBe(sql.indexOf('quantiy'));
    expect(view.hasFocus || document.activeElement === view.contentDOM).toBe(true);
  });

  it('drops the underline at the first edit, and when the page takes the mistake away', () => {
    const sql = 'select 1,\n  s.quantiy from sales s';
    const first = renderEditor(sql, mistake);
    expect(first.underline()?.textContent).toBe('quantiy');
    first.view.dispatch({ changes: { from: 0, insert: ' ' } });
    expect(first.underline()).toBeNull();
    cleanup();

    const second = renderEditor(sql, mistake);
    second.rerender(null);
    expect(second.underline()).toBeNull();
    second.rerender({ ...mistake, line: 7 });
    expect(second.underline()).toBeNull();
  });
});
