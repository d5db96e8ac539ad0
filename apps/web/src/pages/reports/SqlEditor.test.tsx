// The SQL editor's mistake: the server's line and column (characters) found in the editor's text
// (UTF-16), the word there underlined with the message as its title, the cursor put there on
// request, and the underline gone with the first edit.
import { createRef } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { Text } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { readableHighlightStyle, SqlEditor, type SqlEditorHandle, type SqlMistake } from './SqlEditor.tsx';
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

/** WCAG's relative luminance of `#rgb` or `#rrggbb`. */
function luminance(hex: string): number {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describe('readableHighlightStyle', () => {
  // The active line's light blue (CodeMirror's #cceeff44 over white) is the palest background a token sits on (QA8 F17).
  it('colours every token at WCAG AA contrast (4.5:1) on the active line', () => {
    const activeLine = luminance('#f1faff');
    const colours = readableHighlightStyle.specs.flatMap((spec) => (spec.color ? [spec.color] : []));
    expect(colours.length).toBeGreaterThan(10);
    for (const colour of colours) expect((activeLine + 0.05) / (luminance(colour) + 0.05), colour).toBeGreaterThanOrEqual(4.5);
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
