// The collapsed bar types its prompt out one character per tick (spec §9: 30 ms per character).
import { useEffect, useState } from 'react';
import { typingMsPerCharacter } from './constants.ts';

/** How many characters of a text of `length` show after `elapsedMs`. */
export function typedLength(elapsedMs: number, length: number, msPerCharacter = typingMsPerCharacter): number {
  if (elapsedMs <= 0) return 0;
  return Math.min(length, Math.floor(elapsedMs / msPerCharacter));
}

/** Types `text` out; remount (key by the text) to start again. */
export function useTypewriter(text: string, msPerCharacter = typingMsPerCharacter): string {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    const startedAt = Date.now();
    const timer = setInterval(() => {
      const count = typedLength(Date.now() - startedAt, text.length, msPerCharacter);
      setShown(count);
      if (count >= text.length) clearInterval(timer);
    }, msPerCharacter);
    return () => clearInterval(timer);
  }, [text, msPerCharacter]);
  return text.slice(0, shown);
}
