// An endpoint that answers CSV (a supplier's stock list published at a URL; QA F7, ADR 0170), read
// as Airbyte's File source reads one: by the file import's own CSV reading (import/source.ts and
// csv.ts: the separator told by the header line, a BOM, UTF-16, Windows-1252, quoted separators
// and newlines, title lines above the header), each data line one record whose fields are the
// header's names. A records path does not apply: the lines are the records.
import { FileFormatError, openSource } from '../import/source.ts';

/** Content types that say the answer is CSV (or tab-separated, which the reader tells by its header). */
const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/comma-separated-values', 'text/tab-separated-values', 'text/x-csv']);

export const isCsvType = (contentType: string) => CSV_TYPES.has(contentType);

/** The answer could not be read as CSV; `message` says why, in the file import's words. */
export class CsvAnswerError extends Error {}

/** The records of a CSV answer: one per data line, the header's names as fields, the cells as text. */
export async function csvRecordsOf(body: Buffer): Promise<{ header: string[]; records: Record<string, string>[] }> {
  const records: Record<string, string>[] = [];
  try {
    const source = await openSource({ stream: (async function* () { yield body; })() }, 'answer.csv', 'text/csv');
    for await (const batch of source.batches) {
      const header = source.header() ?? [];
      for (const { cells } of batch) records.push(Object.fromEntries(header.map((name, at) => [name, String(cells?.[at] ?? '')])));
    }
    const header = source.header() ?? [];
    const repeated = header.find((name, at) => header.indexOf(name) !== at);
    // Two columns of one name: which one a mapping means cannot be told (the last would win, silently).
    if (repeated !== undefined) throw new CsvAnswerError(`The CSV has two columns named '${repeated}': a mapping cannot tell which one it reads.`);
    return { header, records };
  } catch (error) {
    if (error instanceof FileFormatError) throw new CsvAnswerError(error.message.replace(/^The CSV file cannot be read: /, ''));
    throw error;
  }
}

/**
 * The records of an answer that is not JSON and does not say what it is, when it reads as CSV with a
 * header of two columns or more (a one-column "CSV" is any line of text: an error page); else null.
 */
export async function csvRecordsIfTable(body: Buffer): Promise<Record<string, string>[] | null> {
  if (/^\s*</.test(body.toString('utf8', 0, 200))) return null;
  try {
    const read = await csvRecordsOf(body);
    return read.header.length >= 2 ? read.records : null;
  } catch (error) {
    if (error instanceof CsvAnswerError) return null;
    throw error;
  }
}
