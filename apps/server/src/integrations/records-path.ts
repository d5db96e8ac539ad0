// A page's records by the integration's records_path (ADR 0060, amended 2026-12-04): the array at
// `data.orders` (or, without a path, the answer itself or its first array value); with a nested path
// `data.orders[].line_items`, every element of each order's line_items array is one record, the
// order's own fields (without its line_items) under `order.` beside the line's, so a mapping reads
// `sku` and `order.created_at` and a row filter `order.financial_status`.
import { isPlainRecord, OUTER_RECORD_KEY, readMappedPath, splitRecordsPath } from '@stockwise/contract';

/** The records cannot be found where the records path says (or anywhere, without one): the records path is what to change. */
export class RecordsNotFound extends Error {}

/** A record of a page and where it is: its place in the page's array (from 1) and, for a line of a nested records path, its place in the record's lines. */
export type PageRecord = { value: unknown; record: number; line: number | null };

export type PageRecords = {
  records: PageRecord[];
  /** How many records the page's outer array held: a page of orders without lines is still a page of orders (page_parameter paging goes on). */
  outerCount: number;
  /** Where the outer array was found ('' for the answer itself). */
  outerPath: string;
};

function outerRecords(body: unknown, outerPath: string | null): { records: unknown[]; path: string } {
  if (outerPath !== null) {
    const found = outerPath === '' ? body : readMappedPath(body, outerPath);
    if (!Array.isArray(found)) throw new RecordsNotFound(outerPath === '' ? 'The answer is not an array.' : `The answer has no array at '${outerPath}'.`);
    return { records: found, path: outerPath };
  }
  if (Array.isArray(body)) return { records: body, path: '' };
  if (isPlainRecord(body)) {
    const first = Object.entries(body).find((entry) => Array.isArray(entry[1]));
    if (first) return { records: first[1] as unknown[], path: first[0] };
  }
  throw new RecordsNotFound('The answer holds no array of records (set the records path).');
}

/** `record` without the value at `path` (read as readMappedPath reads it): the order under a line holds no copy of all its lines. */
function without(record: Record<string, unknown>, path: string): Record<string, unknown> {
  if (Object.hasOwn(record, path)) {
    const { [path]: _dropped, ...rest } = record;
    return rest;
  }
  const dot = path.indexOf('.');
  const [head, tail] = [path.slice(0, dot), path.slice(dot + 1)];
  const inner = record[head];
  return dot > 0 && isPlainRecord(inner) ? { ...record, [head]: without(inner, tail) } : record;
}

/**
 * One record per element of each record's array at `inner`, the outer record under `order` (a
 * line's own `order` field gives way to it); a record whose `inner` is missing or null has no lines.
 * `where` names the records path in a refusal.
 */
export function linesOf(outer: unknown[], inner: string, where: string): PageRecord[] {
  const lines: PageRecord[] = [];
  let withArray = 0;
  outer.forEach((record, at) => {
    const found = readMappedPath(record, inner);
    if (found === undefined || found === null) return;
    if (!Array.isArray(found) || !isPlainRecord(record)) {
      throw new RecordsNotFound(`Record ${at + 1} holds ${JSON.stringify(found).slice(0, 40)} at '${inner}', not an array of lines (records path '${where}').`);
    }
    withArray += 1;
    const order = without(record, inner);
    found.forEach((line, lineAt) => lines.push({ value: isPlainRecord(line) ? { ...line, [OUTER_RECORD_KEY]: order } : line, record: at + 1, line: lineAt + 1 }));
  });
  if (outer.length && !withArray) throw new RecordsNotFound(`No record of the answer has an array at '${inner}' (records path '${where}').`);
  return lines;
}

/** The records of a page's JSON body, per the records path (null: the answer itself, or its first array value). */
export function recordsOfPage(body: unknown, recordsPath: string | null): PageRecords {
  const { outer, inner } = recordsPath ? splitRecordsPath(recordsPath) : { outer: null, inner: null };
  const found = outerRecords(body, outer);
  const records = inner && recordsPath ? linesOf(found.records, inner, recordsPath) : found.records.map((value, at) => ({ value, record: at + 1, line: null }));
  return { records, outerCount: found.records.length, outerPath: found.path };
}
