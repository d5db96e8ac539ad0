// After a route change the focus goes to the new page's heading (WCAG 2.4.3, ADR 0196): a keyboard
// user who followed a navigation link would otherwise stay on that link, or, after signing in, on the
// page's body, and a screen reader would not say that the page changed.
import { useEffect, useRef, type RefObject } from 'react';

/** How long a page's code and first data may take before its heading is no longer waited for. */
const headingWaitMs = 10_000;

/**
 * On every change of `pathname` (and on mount after an in-app navigation, such as signing in), focus the first `h1` inside `main` once it is there
 * (a lazily loaded page shows its loader first). The heading is made focusable from script only
 * (tabindex -1), so it adds no Tab stop. A page that has put the focus somewhere itself, or a user
 * who has moved it meanwhile, keeps it. The page the browser loaded (`loadedPage`: React Router's
 * location key "default") keeps the browser's own start, so Tab from the top still reaches the header.
 */
export function useFocusPageHeading(main: RefObject<HTMLElement | null>, pathname: string, loadedPage: boolean): void {
  const loadedPageRef = useRef(loadedPage);
  // Read by the effect below, which runs on a path change only (a query change keeps the focus).
  useEffect(() => {
    loadedPageRef.current = loadedPage;
  });
  useEffect(() => {
    const container = main.current;
    if (!container || loadedPageRef.current) return;
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
