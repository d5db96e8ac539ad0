// Where a report's SQL error is in the editor's text: the server's 1-based line and column
// (the column in characters, an emoji being one) turned into CodeMirror offsets (UTF-16 units),
// and the stretch to underline there.
import type { Text } from '@codemirror/state';

/** `cursor`: where the error points; `from`–`to`: what to underline (the word or quoted text there, else one character). */
export type MistakeRange = { cursor: number; from: number; to: number };

const WORD_CHARACTER = /[\p{L}\p{N}_$]/u;

/** The range of a line and column in the text, or null when the text has no such place (it was edited since). */
export function mistakeRange(doc: Text, line: number, column: number): MistakeRange | null {
  if (!Number.isInteger(line) || !Number.isInteger(column) || line < 1 || line > doc.lines || column < 1) return null;
  const { from: lineStart, text } = doc.line(line);
  const characters = Array.from(text);
  // The column after the line's last character is the end of input.
  if (column > characters.length + 1) return null;
  const unitsBefore = (index: number) => characters.slice(0, index).join('').length;
  const cursor = lineStart + unitsBefore(column - 1);
  const at = column - 1;
  let end = at;
  const first = characters[at];
  if (first === "'" || first === '"') {
    const closing = characters.indexOf(first, at + 1);
    end = closing === -1 ? at + 1 : closing + 1;
  } else {
    while (end < characters.length && WORD_CHARACTER.test(characters[end] as string)) end++;
    if (end === at) end = Math.min(at + 1, characters.length);
  }
  // At the end of a line (or of input) the character before it is underlined.
  const start = end === at && at > 0 ? at - 1 : at;
  return { cursor, from: lineStart + unitsBefore(start), to: lineStart + unitsBefore(end) };
}
