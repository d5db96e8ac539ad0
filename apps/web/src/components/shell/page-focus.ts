// After a route change the focus goes to the new page's heading (WCAG 2.4.3, ADR 0196): a keyboard
// user who followed a navigation link would otherwise stay on that link, or, after signing in, on the
// page's body, and a screen reader would not say that the page changed.
import { useEffect, useRef, type RefObject } from 'react';

/** How long a page's code and first data may take before its heading is no longer waited for. */
const headingWaitMs = 10_000;

let shellShownBefore = false;

/**
 * Whether the shell's first page is the one the browser loaded (a bookmark, a reload, a link from
 * elsewhere), rather than one reached inside the app (signing in from /login). Asked once, as the
 * shell mounts: true only the first time in a document, and only for the path the document was
 * loaded at (the browser keeps React Router's location key across a reload, so that cannot tell).
 */
export function isBrowsersLoadedPage(pathname: string): boolean {
  const first = !shellShownBefore;
  shellShownBefore = true;
  const [loaded] = performance.getEntriesByType('navigation');
  return first && loaded !== undefined && new URL(loaded.name).pathname === pathname;
}

/**
 * On every change of `pathname`, and as the shell mounts, focus the first `h1` inside `main` once
 * it is there (a lazily loaded page shows its loader first). The heading is made focusable from
 * script only (tabindex -1), so it adds no Tab stop. A page that has put the focus somewhere itself,
 * or a user who has moved it meanwhile, keeps it. When the first page is the one the browser loaded
 * (`loadedPage`), it keeps the browser's own start, so Tab from the top still reaches the header.
 */
export function useFocusPageHeading(main: RefObject<HTMLElement | null>, pathname: string, loadedPage: boolean): void {
  const skipFirst = useRef(loadedPage);
  useEffect(() => {
    const container = main.current;
    const skip = skipFirst.current;
    skipFirst.current = false;
    if (!container || skip) return;
    // A field the page focused as it mounted (autoFocus) is already inside `main`.
    const focusedAtNavigation = container.contains(document.activeElement) ? null : document.activeElement;
    const focusMovedSince = () => {
      const focused = document.activeElement;
      return focused !== null && focused !== focusedAtNavigation && focused !== document.body;
    };
    const focusHeading = () => {
      if (focusMovedSince()) return true;
      const heading = container.querySelector('h1');
      if (!(heading instanceof HTMLElement)) return false;
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      heading.focus();
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(container, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), headingWaitMs);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [main, pathname]);
}
