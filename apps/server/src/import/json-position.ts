// Where a text stops being JSON, by line and column. stream-json's parser keeps no position; its
// verifier does, so a file's text goes through the verifier on its way to the parser, and an
// endpoint's answer through it when JSON.parse refuses it (whose message has only an offset).
import { none } from 'stream-chain/defs.js';
import { jsonVerifier, type VerifierError } from 'stream-json/utils/verifier.js';

const CUT_OFF = 'it ends in the middle, as if cut off';

/** A character as the message shows it: `','`, or its code point where it would not show. */
const shown = (character: string) => (/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(character) ? `'${character}'` : `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);

/** The verifier's reason in the message's words: what it met instead ("unexpected ','"), or what it expected. */
function reasonAt(error: VerifierError, found: string | undefined, atEnd: boolean): string {
  if (atEnd) return CUT_OFF;
  const reason = error.message.replace(/^.*?Verifier (cannot parse input: |has )/, '');
  if (found === undefined) return reason;
  return /^(expected a value|unexpected)/.test(reason) ? `unexpected ${shown(found)}` : `${reason}, found ${shown(found)}`;
}

/** "line 12, column 5 — unexpected ','": where a JSON text breaks and how. */
export class JsonSyntaxError extends Error {}

/**
 * A check of JSON text passed to it piece by piece, then `end()`: throws a JsonSyntaxError at the
 * first piece where the text stops being JSON. The character found there is looked up in the
 * piece being checked (or, for one the verifier held back, the one before).
 */
export function jsonSyntaxCheck(): { check(text: string): void; end(): void } {
  // Typed for text only; `none` is how a stream-chain function is told the input has ended.
  const verify = jsonVerifier() as (input: string | typeof none) => unknown;
  let recent = '';
  let recentStart = 0;
  let checked = 0;
  const run = (input: string | typeof none) => {
    try {
      verify(input);
    } catch (error) {
      const { line, pos, offset } = error as VerifierError;
      if (typeof line !== 'number') throw error;
      throw new JsonSyntaxError(`line ${line}, column ${pos} — ${reasonAt(error as VerifierError, recent[offset - recentStart], input === none)}`);
    }
  };
  return {
    check(text) {
      const previous = recent.slice(-64);
      recentStart = checked - previous.length;
      recent = previous + text;
      checked += text.length;
      run(text);
    },
    end: () => run(none),
  };
}

/** Where `text` stops being JSON ("line 3, column 3 — unexpected ','"), or null when it is JSON. */
export function jsonSyntaxProblem(text: string): string | null {
  const check = jsonSyntaxCheck();
  try {
    check.check(text);
    check.end();
    return null;
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error.message;
    throw error;
  }
}
