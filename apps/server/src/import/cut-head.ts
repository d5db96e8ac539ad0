// The head of a CSV file (the preview's first 256 KiB) mostly ends inside a line: that line is the
// cut, not a defect of the file, and is not read as a record. The bytes are scanned, not decoded:
// a quote and a line feed are one byte in UTF-8 and Windows-1252 (no byte of a multi-byte UTF-8
// character is below 0x80) and one 16-bit unit in UTF-16, which a byte order mark announces.

const QUOTE = 0x22;
const LINE_FEED = 0x0a;

/** Where the last whole record of `head` ends (after its line feed; a quoted line feed is inside a record): 0 when none does. */
export function wholeRecordsEnd(head: Buffer): number {
  const utf16 = head[0] === 0xff && head[1] === 0xfe ? 'le' : head[0] === 0xfe && head[1] === 0xff ? 'be' : null;
  const width = utf16 ? 2 : 1;
  const unitAt = (at: number) => (utf16 === 'le' ? (head[at] as number) | ((head[at + 1] as number) << 8) : utf16 === 'be' ? ((head[at] as number) << 8) | (head[at + 1] as number) : (head[at] as number));
  let quoted = false;
  let end = 0;
  // `""` inside quotes toggles twice: an escaped quote leaves the state as it was.
  for (let at = utf16 ? 2 : 0; at + width <= head.length; at += width) {
    const unit = unitAt(at);
    if (unit === QUOTE) quoted = !quoted;
    else if (unit === LINE_FEED && !quoted) end = at + width;
  }
  return end;
}

/**
 * The whole records of a cut file's head (all of it when no line ends in it: its error is then the
 * file's), in the chunks it came in: the records of the chunks before a defect are still shown.
 */
export async function* wholeRecordsOf(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(chunk);
  const end = wholeRecordsEnd(Buffer.concat(chunks)) || Infinity;
  let start = 0;
  for (const chunk of chunks) {
    if (start >= end) return;
    yield start + chunk.length > end ? chunk.subarray(0, end - start) : chunk;
    start += chunk.length;
  }
}
