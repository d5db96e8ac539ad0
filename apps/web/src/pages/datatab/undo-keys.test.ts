// Which keys undo and redo, and where the browser keeps its own typing undo.
import { describe, expect, it } from 'vitest';
import { keepsOwnUndo, undoShortcut } from './undo-keys.ts';

const keys = (key: string, modifiers: { ctrl?: boolean; meta?: boolean; shift?: boolean; alt?: boolean } = {}) => ({
  key,
  ctrlKey: modifiers.ctrl ?? false,
  metaKey: modifiers.meta ?? false,
  shiftKey: modifiers.shift ?? false,
  altKey: modifiers.alt ?? false,
});

describe('undoShortcut', () => {
  it('undoes on Ctrl+Z and Cmd+Z, redoes on Ctrl+Shift+Z, Cmd+Shift+Z and Ctrl+Y', () => {
    expect(undoShortcut(keys('z', { ctrl: true }))).toBe('undo');
    expect(undoShortcut(keys('z', { meta: true }))).toBe('undo');
    // With Shift held the browser reports a capital Z.
    expect(undoShortcut(keys('Z', { ctrl: true, shift: true }))).toBe('redo');
    expect(undoShortcut(keys('Z', { meta: true, shift: true }))).toBe('redo');
    expect(undoShortcut(keys('y', { ctrl: true }))).toBe('redo');
  });

  it('leaves other keys alone', () => {
    expect(undoShortcut(keys('z'))).toBeNull();
    expect(undoShortcut(keys('z', { ctrl: true, alt: true }))).toBeNull();
    expect(undoShortcut(keys('c', { ctrl: true }))).toBeNull();
    // Cmd+Y is the history window in Safari and Chrome on a Mac.
    expect(undoShortcut(keys('y', { meta: true }))).toBeNull();
  });
});

describe('keepsOwnUndo', () => {
  const element = (html: string, selector: string) => {
    document.body.innerHTML = html;
    return document.querySelector(selector);
  };

  it('keeps the browser’s undo in text boxes, text areas, editors and dialogs', () => {
    expect(keepsOwnUndo(element('<input type="search">', 'input'))).toBe(true);
    expect(keepsOwnUndo(element('<input>', 'input'))).toBe(true);
    expect(keepsOwnUndo(element('<textarea></textarea>', 'textarea'))).toBe(true);
    expect(keepsOwnUndo(element('<div contenteditable="true"><p>x</p></div>', 'p'))).toBe(true);
    expect(keepsOwnUndo(element('<div role="dialog"><button>Save</button></div>', 'button'))).toBe(true);
  });

  it('takes the keys on the grid, a button, a check box or the page', () => {
    expect(keepsOwnUndo(element('<div role="grid" tabindex="0"></div>', '[role="grid"]'))).toBe(false);
    expect(keepsOwnUndo(element('<button>Add row</button>', 'button'))).toBe(false);
    expect(keepsOwnUndo(element('<input type="checkbox">', 'input'))).toBe(false);
    expect(keepsOwnUndo(document.body)).toBe(false);
    expect(keepsOwnUndo(null)).toBe(false);
  });
});
