// Where in the SQL the user wrote an error is (ADR 0040, amendment "errors that point at the
// mistake"). PostgreSQL and the parser gate count characters (Unicode code points) into the text
// they read; the gate rewrites the user's text before it runs, so a position in what ran is traced
// back through the rewrite, or dropped when it is not in the user's text.

/** 1-based line and column; the column counts characters from the start of the line. */
export type TextPlace = { line: number; column: number };

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Characters (code points) in a text: an emoji is one, as PostgreSQL counts it. */
export const characterCount = (text: string): number => text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);

/**
 * The line and column of a 0-based character offset into `text`, or null when it is not in the
 * text. The text's end counts (an error "at end of input" points just after its last character).
 * Lines end at \n, \r\n or \r, as in the editor.
 */
export function placeIn(text: string, offset: number): TextPlace | null {
  if (!Number.isInteger(offset) || offset < 0) return null;
  let index = 0;
  let line = 1;
  let column = 1;
  let afterCarriageReturn = false;
  for (const character of text) {
    if (index === offset) return { line, column };
    index++;
    // The \n of \r\n ends no second line.
    if (character === '\r' || (character === '\n' && !afterCarriageReturn)) {
      line++;
      column = 1;
    } else if (character !== '\n') column++;
    afterCarriageReturn = character === '\r';
  }
  return index === offset ? { line, column } : null;
}

/** A stretch of the SQL that runs, in characters: copied from the user's text, or written by the gate in place of a name the user wrote at `userFrom`. */
export type RunSpan = { runFrom: number; runTo: number; userFrom: number; copied: boolean };

/** Maps a character offset in the SQL that runs back to the SQL the user wrote. */
export class SqlSourceMap {
  private readonly userText: string;
  private readonly spans: readonly RunSpan[];
  constructor(userText: string, spans: readonly RunSpan[]) {
    this.userText = userText;
    this.spans = spans;
  }

  /** The user's line and column for a 0-based character offset into the SQL that ran; null outside the user's text. */
  place(runOffset: number): TextPlace | null {
    const span = this.spans.find((candidate) => runOffset >= candidate.runFrom && runOffset < candidate.runTo);
    if (!span) return null;
    // Inside a name the gate wrote (data."sales" for sales): the name the user wrote, from its start.
    return placeIn(this.userText, span.copied ? span.userFrom + (runOffset - span.runFrom) : span.userFrom);
  }
}
