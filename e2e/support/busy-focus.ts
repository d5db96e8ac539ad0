// A button pressed from the keyboard whose work takes a moment keeps the focus while busy (ADR 0196,
// F2): Mantine's plain `loading` disabled it, and the browser moved the focus of a disabled element
// to <body>. The watch records, each time the button turns busy, whether it had the focus then.
import type { Locator } from 'playwright-core';

type Watched = HTMLElement & { focusWhileBusy?: boolean[] };

export async function watchBusyFocus(button: Locator): Promise<() => Promise<{ wentBusy: boolean; keptWhileBusy: boolean; focusedNow: boolean }>> {
  await button.evaluate((element: Watched) => {
    const seen: boolean[] = [];
    element.focusWhileBusy = seen;
    new MutationObserver(() => {
      if (element.getAttribute('aria-busy') === 'true') seen.push(document.activeElement === element);
    }).observe(element, { attributes: true, attributeFilter: ['aria-busy'] });
  });
  return () =>
    button.evaluate((element: Watched) => {
      const seen = element.focusWhileBusy ?? [];
      return { wentBusy: seen.length > 0, keptWhileBusy: seen.every(Boolean), focusedNow: document.activeElement === element };
    });
}
