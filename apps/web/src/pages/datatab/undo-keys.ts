// Which keys undo and redo on the Data screen, and where they are left to the browser.

type Keys = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>;

/** Ctrl+Z / Cmd+Z undoes; Ctrl+Shift+Z / Cmd+Shift+Z and Ctrl+Y redo (as in spreadsheets); anything else is null. */
export function undoShortcut(keys: Keys): 'undo' | 'redo' | null {
  if (!(keys.ctrlKey || keys.metaKey) || keys.altKey) return null;
  const key = keys.key.toLowerCase();
  if (key === 'z') return keys.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && keys.ctrlKey && !keys.shiftKey) return 'redo';
  return null;
}

/** Inputs whose Ctrl+Z is the browser's own (typing taken back), not a saved change. */
const notTyped = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/**
 * Whether the key belongs to where the focus is: a text box, text area or editor (its own typing
 * undo), or an open dialog (its form is not saved yet).
 */
export function keepsOwnUndo(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('[role="dialog"], textarea, select, [contenteditable]:not([contenteditable="false"]), [role="textbox"], [role="combobox"]')) return true;
  return target instanceof HTMLInputElement && !notTyped.has(target.type);
}
