// After a refusal the focus goes to the first field it names (WCAG 3.3.1): a form sent with the
// mouse, whose button turned busy and lost the focus, would otherwise leave it on <body>.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/**
 * The ref goes on the <form>; call `focusFirstInvalid` when a refusal has been put under its fields:
 * once they show it, the first one marked invalid takes the focus. Only then — not while the user
 * edits a field and another keeps its error.
 */
export function useFocusFirstInvalid(): { formRef: RefObject<HTMLFormElement | null>; focusFirstInvalid: () => void } {
  const formRef = useRef<HTMLFormElement>(null);
  const [requests, setRequests] = useState(0);
  useEffect(() => {
    if (requests > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [requests]);
  const focusFirstInvalid = useCallback(() => setRequests((count) => count + 1), []);
  return { formRef, focusFirstInvalid };
}
