// Focus back where it was when a dialog closes (WCAG 2.4.3). The Data and Settings screens mount a dialog
// on opening and unmount it on closing, so Mantine's own focus return (which waits for a modal's
// `opened` to turn false) never runs, and the focus would fall to <body>.
import { useCallback, useEffect, useRef } from 'react';

/**
 * The control to give the focus back to: the one that had it, or, for an item of a menu (gone once
 * the menu closes), the button that opened the menu.
 */
export function focusReturnTarget(focused: Element | null): HTMLElement | null {
  const menuButtonId = focused?.closest('[role="menu"]')?.getAttribute('aria-labelledby');
  const target = menuButtonId ? focused?.ownerDocument.getElementById(menuButtonId) : focused;
  return target instanceof HTMLElement ? target : null;
}

/**
 * Call the returned function as a dialog opens; when `isOpen` turns false, the focus returns to its
 * opener — or, when the dialog's work removed the opener (a table's menu, the table deleted), to
 * `fallback`'s element. `openerGoes` says the opener is about to go though still on the page (a list
 * reloading after the dialog's work): the focus goes to `fallback` at once rather than to a button
 * the reload then removes, which would leave it on the page's body.
 */
export function useDialogFocusReturn(isOpen: boolean, fallback?: () => HTMLElement | null, openerGoes?: () => boolean): () => void {
  const opener = useRef<HTMLElement | null>(null);
  const fallbackRef = useRef(fallback);
  const openerGoesRef = useRef(openerGoes);
  useEffect(() => {
    fallbackRef.current = fallback;
    openerGoesRef.current = openerGoes;
  });
  useEffect(() => {
    if (isOpen) return;
    const target = opener.current;
    opener.current = null;
    if (!target) return;
    if (target.isConnected && !openerGoesRef.current?.()) target.focus();
    else fallbackRef.current?.()?.focus();
  }, [isOpen]);
  return useCallback(() => {
    // A dialog opened from another dialog returns to the first one's opener.
    opener.current ??= focusReturnTarget(document.activeElement);
  }, []);
}
