// The building blocks every string of a request is made of (issue #11 "No 5xx from bad input").
// PostgreSQL text cannot hold a NUL character, and a lone UTF-16 surrogate is not text at all (the
// database driver would silently store U+FFFD instead), so both are refused here, at the contract,
// with a 400 naming the field — never found later as a 500 from the database.
import { z } from 'zod';

const NUL = '\u0000';

/** Names that mean something to JavaScript objects; never a table, column, entity or filter key. */
export const reservedNames = ['__proto__', 'constructor', 'prototype'] as const;
const isReserved = (key: string) => (reservedNames as readonly string[]).includes(key);
const RESERVED_NAME_MESSAGE = `'__proto__', 'constructor' and 'prototype' cannot be used as names.`;

/** True when `value` can be stored as PostgreSQL text unchanged. */
export const isStorableText = (value: string) => !value.includes(NUL) && value.isWellFormed();

/** Why a string cannot be stored, or null. */
export function storableTextProblem(value: string): string | null {
  if (value.includes(NUL)) return 'Text may not contain NUL (\\u0000) characters.';
  if (!value.isWellFormed()) return 'Text must be valid Unicode (it holds a lone surrogate).';
  return null;
}

/**
 * A text longer than its column holds, as the row validator and the row form both say it, beside
 * the column's name: `At most 255 characters (this has 300).` The length counted is what was typed,
 * which neither side cuts.
 */
export const textTooLong = (max: number, length: number) => `At most ${max.toLocaleString('en-US')} characters (this has ${length.toLocaleString('en-US')}).`;

/**
 * A sentence ending in a name the shop wrote, with its full stop: "… supplied by Fresh Drinks Co."
 * once, not "Co..". A sentence already ending in a stop, a question or exclamation mark or an
 * ellipsis is left as it is.
 */
export const withFullStop = (sentence: string) => (/[.!?…]$/.test(sentence) ? sentence : `${sentence}.`);

type StringParams = Parameters<typeof z.string>[0];

/** Any string of a request: refused when it holds a NUL or a lone surrogate. */
export const storableText = (params?: StringParams) =>
  z.string(params).check((context) => {
    const problem = storableTextProblem(context.value);
    if (problem) context.issues.push({ code: 'custom', message: problem, input: context.value });
  });

/** A name (table, column, entity, filter key): storable text that is not one of the reserved names. */
export const storableName = (params?: StringParams) => storableText(params).refine((value) => !isReserved(value.trim()), { message: RESERVED_NAME_MESSAGE });

/**
 * A record keyed by names. Its input may not even carry a reserved key: zod drops an own
 * `__proto__` key silently (JSON.parse makes one), which would turn a refused filter into none.
 */
export const nameRecord = <Value extends z.ZodType>(value: Value, key = storableName()) =>
  z
    .unknown()
    .check((context) => {
      const input = context.value;
      if (typeof input === 'object' && input !== null && Object.keys(input).some(isReserved)) {
        context.issues.push({ code: 'custom', message: RESERVED_NAME_MESSAGE, input });
      }
    })
    .pipe(z.record(key, value));
